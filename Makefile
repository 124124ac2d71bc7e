# amdahl — build, test and run.
#   make run         install missing packages, build, ingest the bundled sweep, write the report
#   make test        install, build, run every test (plain and under ASan/UBSan)
#   make test-corpus tests on the public samples in ../shared/data/public
#   make bench       speed and memory figures
#   make fuzz        libFuzzer targets, FUZZ_SECONDS each
#   make install PREFIX=/usr/local

PREFIX  ?= /usr/local
O       ?= build
CC      ?= cc
PKGS    := sqlite3 libcjson yajl cairo fontconfig gsl yaml-0.1 zlib libcurl libcrypto
VERSION := 0.1.0

# Debian packages the project needs; `make deps` installs only the missing ones.
DEB_BUILD := build-essential pkg-config libsqlite3-dev libcjson-dev libyajl-dev \
             libcairo2-dev libgsl-dev libyaml-dev zlib1g-dev libcurl4-openssl-dev \
             libssl-dev libcmocka-dev fonts-dejavu-core libfontconfig-dev
DEB_TEST  := sqlite3 poppler-utils python3 python3-numpy python3-scipy \
             python3-aiosmtpd python3-pil libxml2-utils gzip time openssl
DEB_FUZZ  := clang libclang-rt-14-dev

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
CFLAGS  ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) -Ilib -Ireport -Icmd \
              -DAMDAHL_VERSION=\"$(VERSION)\" -pthread -MMD -MP
LDLIBS  := $(PKG_LIBS) -lm -pthread

LIB_SRC    := $(sort $(wildcard lib/*.c lib/ingest/*.c report/*.c))
CMD_SRC    := $(sort $(wildcard cmd/*.c))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ    := $(LIB_SRC:%.c=$(O)/%.o)
CMD_OBJ    := $(CMD_SRC:%.c=$(O)/%.o)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)

SAN_FLAGS  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: all deps deps-fuzz run test test-plain test-san test-corpus bench fuzz fuzz-build install clean check-tree

all: $(O)/amdahl

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -c $< -o $@

$(O)/libamdahl.a: $(LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(O)/amdahl: $(CMD_OBJ) $(O)/libamdahl.a
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(O)/libamdahl.a $(LDLIBS)

$(O)/tests/%: tests/unit/%.c $(O)/libamdahl.a
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libamdahl.a $(LDLIBS) -lcmocka

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d)

deps:
	@.ci/deps.sh $(DEB_BUILD) $(DEB_TEST)

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

test: deps
	@$(MAKE) --no-print-directory test-plain
	@$(MAKE) --no-print-directory test-san

test-plain: $(O)/amdahl $(UNIT_BIN)
	@tests/run.sh $(O)

test-san:
	@$(MAKE) --no-print-directory O=build-san CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" all \
	  $(UNIT_SRC:tests/unit/%.c=build-san/tests/%)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  tests/run.sh build-san

test-corpus: deps $(O)/amdahl
	@tests/corpus.sh $(O)

bench: deps $(O)/amdahl
	@bench/run.sh $(O)

# libFuzzer targets: every tests/fuzz/fuzz_*.c, linked with the library
# built by clang with coverage and ASan/UBSan in build-fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
              -fno-sanitize-recover=undefined -Wno-unknown-warning-option
FUZZ_BIN   := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
fuzz: deps deps-fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh build-fuzz

fuzz-build:
	@$(MAKE) --no-print-directory O=build-fuzz CC=clang CFLAGS="$(FUZZ_FLAGS)" $(FUZZ_BIN)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build-fuzz/libamdahl.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< build-fuzz/libamdahl.a $(LDLIBS)

install: $(O)/amdahl
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/amdahl/templates
	install -m 755 $(O)/amdahl $(DESTDIR)$(PREFIX)/bin/amdahl
	install -m 644 docs/amdahl.1 $(DESTDIR)$(PREFIX)/share/man/man1/amdahl.1
	install -m 644 templates/* $(DESTDIR)$(PREFIX)/share/amdahl/templates/

clean:
	rm -rf build build-san build-fuzz
