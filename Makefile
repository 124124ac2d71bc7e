# amdahl — build, test and run.
#   make run         install missing packages, build, ingest the bundled sweep, write the report
#   make test        install, build, run every test (SQLite, cluster, ClickHouse, ASan/UBSan tiers)
#   make test-corpus tests on the public samples in ../shared/data/public
#   make bench       speed and memory figures
#   make eval        the statistics evaluation: each interval's coverage beside its label (minutes)
#   make fuzz        libFuzzer targets, FUZZ_SECONDS each
#   make fuzz-long   every target FUZZ_LONG_SECONDS (600) each, before a release
#   make compat      every output byte-identical to REF's (a commit; default 2bb353c, the tree before the redesign)
#   make install PREFIX=/usr/local [DESTDIR=]  binary, extension, templates, man pages, libamdahl + amdahl.pc
#   make deb         a Debian package (debian/, dpkg-buildpackage)

PREFIX  ?= /usr/local
O       ?= build
CC      ?= cc
PKGS    := sqlite3 libcjson yajl cairo fontconfig gsl yaml-0.1 zlib libcurl libcrypto glib-2.0 expat
PKGS    += libprotobuf-c libisal
# text in the charts and the PDF: Pango (font fallback, CJK), issue 35
PKGS    += pangocairo
VERSION := 0.1.0

# Debian packages the project needs; `make deps` installs only the missing ones.
DEB_BUILD := build-essential pkg-config libsqlite3-dev libcjson-dev libyajl-dev \
             libcairo2-dev libgsl-dev libyaml-dev zlib1g-dev libcurl4-openssl-dev \
             libssl-dev libcmocka-dev fonts-dejavu-core libfontconfig-dev libglib2.0-dev \
             libexpat1-dev
DEB_BUILD += libprotobuf-c-dev protobuf-c-compiler libisal-dev
# Pango for text; a CJK font so Chinese/Japanese names are glyphs (report_cjk.sh)
DEB_BUILD += libpango1.0-dev fonts-wqy-microhei
DEB_TEST  := sqlite3 poppler-utils python3 python3-numpy python3-scipy curl clickhouse-server \
             python3-aiosmtpd python3-pil python3-jsonschema libxml2-utils gzip time openssl faketime zookeeper
DEB_TEST  += man-db bsdextrautils python3-yaml
# report.html's browser tests (tests/e2e/report_html.sh): chromium driven by
# puppeteer-core, installed from tests/browser/package-lock.json by `make
# deps-browser` (with Debian's nodejs and npm when no npm is on the PATH:
# a machine whose nodejs comes from elsewhere already has its own npm,
# which Debian's npm package conflicts with)
DEB_TEST  += chromium
DEB_FUZZ  := clang libclang-rt-14-dev
DEB_PACKAGE := debhelper lintian dpkg-dev

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Linked into amdahl-report only (the commands that draw, cmd/main.c);
# libcurl is linked into nothing: lib/core/curl_load.c loads it on first
# use. amdahl itself, which every ingest and `stats` starts, maps neither
# (issue 38; bench/startup.sh counts the libraries each process loads).
PKGS_DRAW  := cairo fontconfig pangocairo
PKG_LIBS   := $(shell pkg-config --libs $(filter-out $(PKGS_DRAW) libcurl,$(PKGS)) 2>/dev/null) -ldl
PKG_LIBS_DRAW := $(shell pkg-config --libs $(PKGS_DRAW) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wformat -Wformat-security -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
CFLAGS  ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) \
               -DAMDAHL_VERSION=\"$(VERSION)\" -pthread -MMD -MP
LDLIBS  := $(PKG_LIBS) -lm -pthread
LDLIBS_ALL := $(PKG_LIBS_DRAW) $(LDLIBS)

# The layers, lowest first. Each compiles with its own include paths and
# those of the layers below it, never above, so a wrong-way #include is a
# build error (docs/design.md, "Layers"):
#   core < model < ingest            (parsers: never the store)
#   core < model < store < analysis < compare < deliver
#   store < remote                   (remote stores, loaded into / shipped from SQLite ones)
#   report/chart < report            (the chart engine knows only core)
#   cmd, tests: everything
INC_CORE     := -Ilib/core
INC_MODEL    := $(INC_CORE) -Ilib/model
INC_INGEST   := $(INC_MODEL) -Ilib/ingest -I$(O)/gen
# The store's public face is one folder, lib/store/include/: the layers
# above see only it. The store's own files also see its rooms, each a
# folder of one job with its private headers (docs/design.md, "The store").
STORE_ROOMS  := db writer query regions packed
INC_STORE    := $(INC_MODEL) -Ilib/store/include
INC_STORE_IN := $(INC_STORE) $(addprefix -Ilib/store/,$(STORE_ROOMS))
# A room sees its own headers and those of the rooms it builds on:
#   packed  (the extension: nothing of the store)
#   db      < packed (the SQL every connection registers)
#   query   < db, packed        regions < db, packed (region_scan: the packs)
#   writer  < db, packed, query (selector_hint.h, for orphans' closest names)
room_inc      = $(INC_STORE) $(addprefix -Ilib/store/,$(1))
INC_R_PACKED := $(call room_inc,packed)
INC_R_DB     := $(call room_inc,db packed)
INC_R_QUERY  := $(call room_inc,query db packed)
INC_R_REGION := $(call room_inc,regions db packed)
INC_R_WRITER := $(call room_inc,writer db packed query)
# The remote backends ship from a staging store (unit_rows.h) and read
# through an in-memory one (table_load.h): they see only the store's face.
INC_REMOTE   := $(INC_STORE) -Ilib/remote
INC_ANALYSIS := $(INC_STORE) -Ilib/analysis
INC_COMPARE  := $(INC_ANALYSIS) -Ilib/compare
INC_DELIVER  := $(INC_COMPARE) -Ilib/deliver
INC_CHART    := $(INC_CORE) -Ireport/chart
INC_REPORT   := $(INC_COMPARE) -Ireport/chart -Ireport
INC_ALL      := $(INC_DELIVER) -Ilib/remote -Ilib/ingest -Ireport/chart -Ireport -Icmd
# cmd/ sees the library through one face (docs/design.md, "The library
# face"): include/amdahl.h and the headers it pulls in, linked into
# $(O)/face/, its only library include path; an internal header is not
# there, so a cmd/ file that includes one does not compile.
INC_LIB      := $(INC_DELIVER) -Ilib/remote -Ilib/ingest -Ireport/chart -Ireport
INC_CMD      := -I$(O)/face
# unit tests, fuzzers and benchmarks also reach a family's own headers
# and the store's rooms
INC_TEST     := $(INC_ALL) -I$(O)/gen $(addprefix -I,$(wildcard lib/ingest/*/)) \
                $(addprefix -Ilib/store/,$(STORE_ROOMS))

$(O)/lib/core/%.o:     LAYER_INC := $(INC_CORE)
$(O)/lib/model/%.o:    LAYER_INC := $(INC_MODEL)
$(O)/lib/ingest/%.o:   LAYER_INC := $(INC_INGEST)
$(O)/lib/store/%.o:    LAYER_INC := $(INC_STORE_IN)
$(O)/lib/remote/%.o:   LAYER_INC := $(INC_REMOTE)
$(O)/lib/store/db/%.o:      LAYER_INC := $(INC_R_DB)
$(O)/lib/store/writer/%.o:  LAYER_INC := $(INC_R_WRITER)
$(O)/lib/store/query/%.o:   LAYER_INC := $(INC_R_QUERY)
$(O)/lib/store/regions/%.o: LAYER_INC := $(INC_R_REGION)
$(O)/lib/store/packed/%.o:  LAYER_INC := $(INC_R_PACKED)
$(O)/lib/analysis/%.o: LAYER_INC := $(INC_ANALYSIS)
$(O)/lib/compare/%.o:  LAYER_INC := $(INC_COMPARE)
$(O)/lib/deliver/%.o:  LAYER_INC := $(INC_DELIVER)
$(O)/report/chart/%.o: LAYER_INC := $(INC_CHART)
$(O)/report/%.o:       LAYER_INC := $(INC_REPORT)
$(O)/cmd/%.o:          LAYER_INC := $(INC_CMD)
ALL_CFLAGS := $(BASE_CFLAGS) $(INC_TEST)

LIB_SRC    := $(sort $(shell find lib report -name '*.c'))
CMD_SRC    := $(sort $(wildcard cmd/*.c))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ    := $(LIB_SRC:%.c=$(O)/%.o)
# C generated at build time from the .proto files of the TensorBoard reader (protoc-c);
# the generated code is compiled with the ingest layer's includes.
PROTO_SRC  := $(wildcard lib/ingest/tensorboard/*.proto)
PROTO_C    := $(patsubst %.proto,$(O)/gen/%.pb-c.c,$(notdir $(PROTO_SRC)))
LIB_OBJ    += $(PROTO_C:.c=.o)
CMD_OBJ    := $(CMD_SRC:%.c=$(O)/%.o)
# the face: amdahl.h and every header it includes, found by the compiler
FACE_SRC   := $(shell $(CC) -std=c11 -D_GNU_SOURCE $(PKG_CFLAGS) $(INC_LIB) -MM -MT face \
		include/amdahl.h 2>/dev/null | tr ' \\' '\n\n' | grep '\.h$$' | grep -v '^/' | sort -u)
FACE_H     := $(addprefix $(O)/face/,$(notdir $(FACE_SRC)))
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)

SAN_FLAGS  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: eval FORCE deps-browser man deb deb-parts test-deb test-deb-chroot all deps deps-fuzz run test test-plain test-san test-clickhouse test-cluster test-corpus compat bench fuzz fuzz-long fuzz-build install clean check-tree check-links docs-img eval-explain

# What every command and test runs: amdahl, the helper it execs for the
# commands that draw, and the SQLite extension.
TOOLS = $(O)/amdahl $(O)/amdahl-report $(O)/amdahl_metric.so

all: $(TOOLS)

# The sqlite3 shell's view of the packed series (lib/store/packed/metric_ext.c):
# `.load build/amdahl_metric` gives it the metric_point table. Built without
# the sanitizers (the shell is not an ASan program), whatever CFLAGS say.
# Only the packed room and lib/core: the extension has no store.
PACKED  := lib/store/packed
EXT_SRC := $(PACKED)/metric_ext.c $(PACKED)/metric_sql.c $(PACKED)/metric_pack.c \
	$(PACKED)/gpu_sql.c $(PACKED)/gpu_pack.c $(PACKED)/packed_vtab.c lib/core/err.c \
	$(PACKED)/stack_sql.c $(PACKED)/stack_pack.c $(PACKED)/region_sql.c $(PACKED)/region_pack.c \
	$(PACKED)/op_sql.c $(PACKED)/op_pack.c $(PACKED)/call_sql.c $(PACKED)/call_pack.c $(PACKED)/col_pack.c
$(O)/amdahl_metric.so: $(EXT_SRC) $(PACKED)/metric_sql.h $(PACKED)/metric_pack.h \
	$(PACKED)/stack_sql.h $(PACKED)/stack_pack.h \
	$(PACKED)/gpu_sql.h $(PACKED)/gpu_pack.h $(PACKED)/packed_vtab.h $(PACKED)/le64.h lib/core/err.h \
	lib/core/sorted_find.h $(PACKED)/region_sql.h $(PACKED)/region_pack.h \
	$(PACKED)/op_sql.h $(PACKED)/op_pack.h $(PACKED)/call_sql.h $(PACKED)/call_pack.h $(PACKED)/col_pack.h
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -fPIC -shared -DAMD_SQLITE_EXT $(INC_MODEL) -I$(PACKED) \
		-o $@ $(EXT_SRC) -lm

# Objects are rebuilt when the compile flags change (a build/ made before
# every object was -fPIC, say, cannot link libamdahl.so): $(O)/.cflags
# holds the flags the objects were built with.
$(O)/.cflags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(BASE_CFLAGS)' | cmp -s - $@ || echo '$(BASE_CFLAGS)' >$@
FORCE:

$(O)/%.o: %.c $(O)/.cflags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) $(LAYER_INC) -c $< -o $@

# a face header is a link to the library's own file (vpath finds it)
vpath %.h $(sort $(dir $(FACE_SRC)))
$(O)/face/%.h: %.h
	@mkdir -p $(dir $@)
	@ln -sf $(abspath $<) $@

$(CMD_OBJ): | $(FACE_H)

$(O)/gen/%.pb-c.c $(O)/gen/%.pb-c.h: lib/ingest/tensorboard/%.proto
	@mkdir -p $(O)/gen
	@echo "  PROTOC  $<"
	@protoc-c --c_out=$(O)/gen --proto_path=$(dir $<) $(notdir $<)

$(O)/gen/%.o: $(O)/gen/%.c $(O)/.cflags
	@echo "  CC      $<"
	@$(CC) $(BASE_CFLAGS) -Wno-missing-braces $(INC_INGEST) -c $< -o $@

# the readers of generated messages need their headers first
$(patsubst %.c,$(O)/%.o,$(wildcard lib/ingest/tensorboard/*.c)): $(PROTO_C:.c=.h)

$(O)/libamdahl.a: $(LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

# amdahl without the commands that draw; amdahl-report, every command
# (git-style: amdahl execs it for those, cmd/main.c run_helper).
DRAW_CMD_OBJ := $(O)/cmd/report.o $(O)/cmd/history.o
$(O)/amdahl: $(CMD_OBJ) $(O)/libamdahl.a
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -Wl,--as-needed -o $@ $(filter-out $(DRAW_CMD_OBJ),$(CMD_OBJ)) \
		$(O)/libamdahl.a $(LDLIBS)

$(O)/amdahl-report: $(CMD_OBJ) $(O)/libamdahl.a
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(O)/libamdahl.a $(LDLIBS_ALL)

$(O)/tests/%: tests/unit/%.c $(O)/libamdahl.a
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libamdahl.a $(LDLIBS_ALL) -lcmocka

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d)

deps:
	@.ci/deps.sh $(DEB_BUILD) $(DEB_TEST)

# puppeteer-core for the browser tests (tests/e2e/report_html.sh), from
# tests/browser/package-lock.json. `make run` does not need it; when the
# npm registry cannot be reached the browser tests say so and skip.
deps-browser: deps
	@command -v npm >/dev/null || .ci/deps.sh nodejs npm || true
	@[ -d tests/browser/node_modules/puppeteer-core ] || \
	  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) || \
	  echo "deps-browser: npm ci failed (is the npm registry reachable?); tests/e2e/report_html.sh will skip" >&2

deps-fuzz:
	@.ci/deps.sh $(DEB_FUZZ)

# The main job: ingest the bundled real sweep and write the report.
RUN_DIR ?= out
run: deps
	@$(MAKE) --no-print-directory all
	@mkdir -p $(RUN_DIR)
	rm -f $(RUN_DIR)/amdahl.db $(RUN_DIR)/amdahl.db-wal $(RUN_DIR)/amdahl.db-shm
	$(O)/amdahl --store $(RUN_DIR)/amdahl.db ingest testdata/cpu-strong-scaling/mlruns
	$(O)/amdahl --store $(RUN_DIR)/amdahl.db stats
	$(O)/amdahl --store $(RUN_DIR)/amdahl.db report build -o $(RUN_DIR)/report
	@echo "report: $(RUN_DIR)/report/report.pdf"
	@echo "page:   $(RUN_DIR)/report/report.html"

# make test's tiers, in order (README "Testing" gives their measured
# times; each script's line says its wall and CPU time):
#   check-tree       the tree's rules
#   test-plain       unit tests + every e2e script on SQLite stores
#   test-cluster     tests/cluster: the 2 shards x 2 replicas cluster
#   test-san         unit tests + SAN_SCRIPTS under ASan/UBSan
# and, not yet in `make test` (its whole run is still to be measured on
# CI's 2 cores; README "Testing"):
#   test-clickhouse  every e2e script with its stores on one private
#                    clickhouse-server (scripts about the SQLite file
#                    itself skip, by their declared prerequisite)
# TEST_JOBS e2e scripts run at a time (tests/lib/runner.sh; a script that
# times itself or kills at measured moments says test_run_alone=1).
TEST_JOBS ?= 2
# The e2e scripts run under ASan/UBSan: every path where bytes from
# outside are parsed or written — each format's parser (formats_*, trace*,
# nsys*, pyspy*, speedscope, cprofile, gpu_*, mlflow_*), hostile, cut and
# oversized inputs (hostile*, limits, impossible, name_cap,
# fuzz_regressions), the ingest engine and store writer (ingest*,
# file_identity, concurrency, metric_layout, regions_migrate) — plus
# stats.sh and report.sh, one walk through the statistics and the chart
# engine. The others (outputs, options, gate, mail, history, report
# variants, the ClickHouse comparisons) read the stores these write with
# code the unit tests run under ASan; they run in test-plain and
# test-clickhouse only.
SAN_SCRIPTS := stack_layout.sh op_layout.sh call_layout.sh formats_conformance.sh formats_gpu.sh formats_mlflow.sh formats_mlperf.sh \
  formats_tensorboard.sh trace.sh trace_chunks.sh nsys.sh nsys_ranks.sh pyspy.sh \
  pyspy_export.sh speedscope.sh cprofile.sh gpu_layout.sh gpu_sweep_log.sh \
  mlflow_artifacts.sh mlflow_db_order.sh mlflow_db_stream.sh mlflow_rest_stream.sh \
  hostile.sh hostile_store.sh hostile_values.sh hostile_remote.sh limits.sh impossible.sh \
  name_cap.sh fuzz_regressions.sh ingest.sh ingest_errors.sh ingest_jobs.sh ingest_order.sh \
  file_identity.sh concurrency.sh metric_layout.sh regions_migrate.sh stats.sh report.sh

# Each tier's wall time is printed after it: CI's budget is `make test`
# within 60 minutes on 2 cores, and the tiers' shares say where to cut.
TIMED_TIER = t0=$$(date +%s); $(MAKE) --no-print-directory $(1) && echo "make $(1): $$(( $$(date +%s) - t0 )) s wall"

test: deps deps-browser
	@tests/check-tree.sh
	@$(call TIMED_TIER,test-plain)
	@$(call TIMED_TIER,test-cluster)
	@$(call TIMED_TIER,test-clickhouse)
	@$(call TIMED_TIER,test-san)

test-plain: $(TOOLS) $(UNIT_BIN)
	@tests/check-links.sh $(O)
	@AMDAHL_TEST_JOBS=$(TEST_JOBS) tests/run.sh $(O)

test-san:
	@$(MAKE) --no-print-directory O=build-san CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" all \
	  $(UNIT_SRC:tests/unit/%.c=build-san/tests/%)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  AMDAHL_TEST_JOBS=$(TEST_JOBS) AMDAHL_TEST_SCRIPTS="$(SAN_SCRIPTS)" tests/run.sh build-san

# The e2e suite again with every store a database on one private
# clickhouse-server (AMDAHL_TEST_BACKEND=clickhouse; tests/test-lib.sh,
# docs/clickhouse.md "Testing on ClickHouse"), a tier of `make test`;
# PATTERN=NAME runs the matching scripts only. Scripts that compare the
# backends themselves (clickhouse.sh, pull.sh, hostile_remote.sh) or reach
# no store run in test-plain only; the server keeps its data on tmpfs
# when there is one (tests/lib/tmpdir.sh).
test-clickhouse: $(TOOLS)
	@AMDAHL_TEST_BACKEND=clickhouse AMDAHL_TEST_JOBS=$(TEST_JOBS) tests/run.sh $(O) $(PATTERN)

# The cluster tier, once, on the plain build: ZooKeeper and 2 shards x 2
# replicas of clickhouse-server on 127.0.0.1 (tests/lib/ch_cluster.sh),
# every script in tests/cluster/ (docs/clickhouse-cluster.md).
test-cluster: $(TOOLS)
	@rc=0; for s in tests/cluster/*.sh; do AMDAHL=$(O)/amdahl bash "$$s" || rc=1; done; exit $$rc

test-corpus: deps $(TOOLS)
	@tests/corpus.sh $(O)

# Every output of this build against the build of commit REF (built once
# into build-compat/<sha>/; a CI clone without tags needs a hash): the
# bundled sweeps and ../shared/data/public, byte for byte except the JSON
# shapes (tests/compat/outputs.sh). REF may also be an amdahl binary;
# PATTERN=NAME compares the matching cases only.
REF ?= 2bb353c
compat: $(TOOLS)
	@tests/compat/outputs.sh $(if $(PATTERN),-p '$(PATTERN)') $(REF) $(O)/amdahl

bench: deps $(TOOLS) $(O)/bench/trace_parse $(O)/bench/yajl_floor $(O)/bench/tfevents_parse $(O)/bench/region_search
	@bench/run.sh $(O)

$(O)/bench/%: bench/%.c $(O)/libamdahl.a
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libamdahl.a $(LDLIBS_ALL)

# libFuzzer targets: every tests/fuzz/fuzz_*.c, linked with the library
# built by clang with coverage and ASan/UBSan in build-fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
              -fno-sanitize-recover=undefined -Wno-unknown-warning-option
FUZZ_BIN   := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
fuzz: deps deps-fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh build-fuzz

# Before a release: every target 10 minutes (about 4 hours for the 22);
# FUZZ_ONLY=PATTERN runs only the targets whose names contain PATTERN.
FUZZ_LONG_SECONDS ?= 600
fuzz-long: deps deps-fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) tests/fuzz/run.sh build-fuzz

fuzz-build:
	@$(MAKE) --no-print-directory O=build-fuzz CC=clang CFLAGS="$(FUZZ_FLAGS)" $(FUZZ_BIN)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build-fuzz/libamdahl.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< build-fuzz/libamdahl.a $(LDLIBS_ALL)

# The C library for other programs (issue 39): libamdahl.so with a soname
# (the objects are position-independent), the public headers of the
# library face (include/amdahl.h and what it pulls in) and amdahl.pc.
SOMAJOR := 0
SONAME  := libamdahl.so.$(SOMAJOR)
BASE_CFLAGS += -fPIC
$(O)/libamdahl.so.$(VERSION): $(LIB_OBJ)
	@echo "  LINK    $@"
	@$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $(LIB_OBJ) $(LDLIBS_ALL)

# One page per command (amdahl-CMD.1) made from the binary's own help
# (docs/man/mkman.sh): the command table is the one source.
$(O)/man/.stamp: $(O)/amdahl $(O)/amdahl-report docs/man/mkman.sh docs/man/amdahl.yaml.5
	@mkdir -p $(O)/man
	@docs/man/mkman.sh $(O)/amdahl $(VERSION) $(O)/man
	@touch $@
man: $(O)/man/.stamp

# make install [PREFIX=/usr/local] [DESTDIR=] [LIBDIR=$(PREFIX)/lib]
LIBDIR  ?= $(PREFIX)/lib
# fixed: amdahl looks for amdahl-report in ../libexec/amdahl/ from itself
LIBEXECDIR := $(PREFIX)/libexec/amdahl
INCDIR  := $(PREFIX)/include/amdahl
SHAREDIR := $(PREFIX)/share/amdahl
deb-parts: $(O)/libamdahl.a $(O)/libamdahl.so.$(VERSION) $(O)/man/.stamp
install: $(O)/amdahl $(O)/amdahl-report $(O)/amdahl_metric.so deb-parts
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(SHAREDIR)/templates $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR) \
		$(DESTDIR)$(LIBDIR)/amdahl
	install -m 755 $(O)/amdahl $(DESTDIR)$(PREFIX)/bin/amdahl
	install -m 755 $(O)/amdahl-report $(DESTDIR)$(LIBEXECDIR)/amdahl-report
	install -m 644 docs/amdahl.1 $(O)/man/amdahl-*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(O)/man/amdahl.yaml.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 644 templates/* $(DESTDIR)$(SHAREDIR)/templates/
	install -m 644 $(O)/amdahl_metric.so $(DESTDIR)$(LIBDIR)/amdahl/amdahl_metric.so
	install -m 644 $(O)/libamdahl.a $(DESTDIR)$(LIBDIR)/libamdahl.a
	install -m 644 $(O)/libamdahl.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libamdahl.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libamdahl.so
	install -m 644 $(FACE_SRC) $(DESTDIR)$(INCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(LIBDIR))|' \
		-e 's|@INCDIR@|$${prefix}/include/amdahl|; s|@VERSION@|$(VERSION)|' \
		-e 's|@REQUIRES_PRIVATE@|$(filter-out libcjson cairo libcurl,$(PKGS))|' \
		amdahl.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/amdahl.pc
	install -d $(DESTDIR)$(PREFIX)/share/doc/amdahl
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/amdahl/

# A Debian package built by Debian's tools (debian/: dpkg-buildpackage,
# dpkg-shlibdeps computes Depends), into $(O)/deb/: amdahl (the command),
# libamdahl0 (the shared library), libamdahl-dev (headers, .a, amdahl.pc).
deb:
	@.ci/deps.sh $(DEB_BUILD) $(DEB_PACKAGE)
	@tests/lib/build_deb.sh $(O)/deb

# The package built, inspected with dpkg-deb, installed into a scratch root
# (dpkg --root) and run there on the bundled sweep (tests/deb.sh). Not in
# `make test`: it builds the whole tree again (minutes on 2 cores).
test-deb: deb
	@tests/deb.sh $(O)/deb

# The package installed with apt-get into a fresh Debian 12 chroot that
# ../shared/tools/fresh-debian.sh made (CHROOT=DIR), and used there
# (tests/deb_chroot.sh; root).
test-deb-chroot:
	@test -n "$(CHROOT)" || { echo "make test-deb-chroot CHROOT=DIR (a chroot fresh-debian.sh made)"; exit 2; }
	@tests/deb_chroot.sh $(CHROOT) $(O)/deb

check-tree:
	@tests/check-tree.sh

# No link-level cycle between folders (tests/check-links.sh; part of test-plain).
check-links: $(O)/amdahl
	@tests/check-links.sh $(O)

# The README's history chart, remade from the bundled data (issue 18).
docs-img: $(O)/amdahl
	AMDAHL=$(O)/amdahl docs/img/history-nightly.sh

# The ground truth of `amdahl explain` over 100 seeds each (issue 34;
# a few seeds run in tests/e2e/explain.sh).
eval-explain: $(O)/amdahl
	tests/explain/eval.sh $(O)

# make eval: the statistics evaluation (issue 33), each figure beside its
# target; minutes, never part of make test
eval: $(O)/tests/eval/history_eval $(O)/tests/eval/coverage_eval
	/usr/bin/python3 tests/eval/small_sample.py
	$(O)/tests/eval/history_eval; h=$$?; $(O)/tests/eval/coverage_eval; c=$$?; exit $$((h | c))

$(O)/tests/eval/%: tests/eval/%.c $(O)/libamdahl.a
	@mkdir -p $(dir $@)
	@echo "  EVAL    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libamdahl.a $(LDLIBS_ALL)

clean:
	rm -rf build build-san build-fuzz build-compat
