# install.sh — `make install` into a DESTDIR, then the installed files used
# as a user would from another directory, with AMDAHL_TEMPLATES unset: the
# installed binary finds its templates and builds the report on the
# bundled sweep (through the installed libexec/amdahl/amdahl-report,
# which finds them too); a binary copied without them fails before writing
# anything; the sqlite3 shell loads the installed extension; every command
# of the table has its manual page (and amdahl.yaml(5)); a C program
# builds against the installed library with `pkg-config --cflags --libs
# amdahl` and reads the store (run counts checked against sqlite3).
test_description='make install: binary, templates, extension, man pages, libamdahl + amdahl.pc'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_TIER 'the installed binary itself runs here, on a SQLite store, never through the ClickHouse wrapper'

BUILD=$(cd "$(dirname "$AMDAHL")" && pwd)
ROOT=$TMP/root
P=$ROOT/usr/local
unset AMDAHL_TEMPLATES
ldd_ok() { LD_LIBRARY_PATH="$P/lib" ldd "$TMP/read_store" | grep -q "libamdahl.so.0 => $P/lib/libamdahl.so.0"; }

test_expect_success 'setup: make install DESTDIR=… PREFIX=/usr/local' '
	make -s -C "$AMDAHL_ROOT" O="$BUILD" DESTDIR="$ROOT" PREFIX=/usr/local install >"$TMP/install.log" 2>&1 ||
		{ tail -20 "$TMP/install.log" >&2; false; }
'
test_expect_success 'the installed files are there' '
	for f in bin/amdahl libexec/amdahl/amdahl-report lib/amdahl/amdahl_metric.so share/amdahl/templates/summary.md \
		share/amdahl/templates/mail.html lib/libamdahl.a lib/libamdahl.so lib/libamdahl.so.0 \
		lib/pkgconfig/amdahl.pc include/amdahl/amdahl.h share/man/man1/amdahl.1 \
		share/man/man5/amdahl.yaml.5 share/doc/amdahl/LICENSE; do
		test_path_exists "$P/$f"
	done
'
test_expect_success 'the installed binary, run from elsewhere, builds the report on the bundled sweep' '
	mkdir -p "$TMP/elsewhere" && cd "$TMP/elsewhere" &&
	"$P/bin/amdahl" --store s.db ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_status 0 "$P/bin/amdahl" --store s.db report build -o rep
	cd "$AMDAHL_ROOT"
	test_path_exists "$TMP/elsewhere/rep/report.pdf"
	test_path_exists "$TMP/elsewhere/rep/summary.md"
	test_path_exists "$TMP/elsewhere/rep/summary.html"
'
test_expect_success 'a binary without its templates fails before writing anything' '
	mkdir -p "$TMP/lone/bin" "$TMP/lone/libexec/amdahl" "$TMP/lone/work" && cp "$P/bin/amdahl" "$TMP/lone/bin/" &&
	cp "$P/libexec/amdahl/amdahl-report" "$TMP/lone/libexec/amdahl/" &&
	cd "$TMP/lone/work" &&
	test_status 2 "$TMP/lone/bin/amdahl" --store "$TMP/elsewhere/s.db" report build -o rep
	cd "$AMDAHL_ROOT"
	test_contains "amdahl report build: templates/summary.md: not found" "$ERR"
	test_path_is_missing "$TMP/lone/work/rep"
'
test_expect_success SQLITE3 'sqlite3 loads the installed extension (the README recipe)' '
	n=$(sqlite3 -cmd ".load $P/lib/amdahl/amdahl_metric" "$TMP/elsewhere/s.db" "SELECT count(*) FROM metric_point") &&
	test_true "metric points read through the extension ($n)" [ "${n:-0}" -gt 100 ]
'
test_expect_success 'every command of the table has its manual page, which man renders' '
	cmds=$("$AMDAHL" --help | sed -n "/^commands:/,/^\$/p" | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p")
	test_true "commands listed" [ "$(echo "$cmds" | wc -w)" -ge 15 ]
	for c in $cmds; do
		test_path_exists "$P/share/man/man1/amdahl-$c.1" || continue
		page=$(MANWIDTH=100 man -l "$P/share/man/man1/amdahl-$c.1" 2>/dev/null | col -b | tr -s " ")
		test_contains "amdahl-$c - " "$page"
		test_contains "usage: amdahl" "$page"
	done
	test_eq "" "$(ls "$P/share/man/man1" | sed -n "s/^amdahl-\(.*\)\.1$/\1/p" | grep -vxF "$cmds")"
	test_contains "gate.on_insufficient" "$(man -l "$P/share/man/man5/amdahl.yaml.5" 2>/dev/null | col -b)"
'
test_expect_success 'amdahl help gate opens the installed page' '
	test_status 0 env MANPAGER=cat MANWIDTH=100 "$P/bin/amdahl" help gate
	test_contains "AMDAHL-GATE(1)" "$OUT"
	test_contains "on-insufficient" "$OUT"
'
test_expect_success 'amdahl help gate opens a page compressed as the Debian package has it (.1.gz)' '
	cp -r "$P" "$TMP/gzprefix" &&
	gzip -9n "$TMP/gzprefix/share/man/man1/amdahl-gate.1" &&
	test_status 0 env MANPAGER=cat MANWIDTH=100 "$TMP/gzprefix/bin/amdahl" help gate &&
	test_contains "AMDAHL-GATE(1)" "$OUT"
'
test_expect_success 'the man page documents every environment variable the code reads' '
	vars=$(cd "$AMDAHL_ROOT" && grep -rhoE "getenv\(\"[A-Z_]+\"\)" cmd lib report | sed "s/getenv(\"\(.*\)\")/\1/" | sort -u)
	page=$(man -l "$P/share/man/man1/amdahl.1" 2>/dev/null | col -b)
	for v in $vars; do test_contains "$v" "$page"; done
	test_not_contains "DESIGN"".md" "$page" # the design document outside the tree
	test_not_contains "NO_COLOR" "$page"
	test_not_contains "exclusion rules" "$page"
'
test_expect_success 'a C program builds against the installed amdahl.pc and reads the store' '
	mkdir -p "$TMP/pc" && sed "s|^prefix=/usr/local\$|prefix=$P|" "$P/lib/pkgconfig/amdahl.pc" >"$TMP/pc/amdahl.pc" &&
	flags=$(PKG_CONFIG_PATH="$TMP/pc" pkg-config --cflags --libs amdahl) &&
	san= &&
	if nm -D "$P/lib/libamdahl.so.0" | grep -q " U __asan_init"; then
		san="-fsanitize=address,undefined" # a library of the ASan build (make test-san)
	fi &&
	cc -std=c11 -Wall -Wextra -Werror $san -o "$TMP/read_store" "$AMDAHL_ROOT/tests/fixtures/install/read_store.c" $flags &&
	readelf -d "$TMP/read_store" | grep -q "NEEDED.*\[libamdahl.so.0\]" &&
	LD_LIBRARY_PATH="$P/lib" "$TMP/read_store" "$TMP/elsewhere/s.db" >"$TMP/sweeps.txt" &&
	test_true "the program linked the shared library" ldd_ok
	test_eq "cpu-strong-scaling $("$AMDAHL" --store "$TMP/elsewhere/s.db" runs --json | "$PY" -c "import json,sys; d=json.load(sys.stdin); print(len(d[\"runs\"]) if isinstance(d, dict) and \"runs\" in d else len(d))")" "$(cat "$TMP/sweeps.txt")"
'
test_done
