# test-lib.sh — the end-to-end test harness, in the style of git's t/.
#
# A test script sets test_description, sources this file, declares cases
# and ends with test_done:
#
#     test_description='amdahl stats on the CPU sweep'
#     . "$(dirname "$0")/../test-lib.sh"
#     test_expect_success 'setup: ingest the sweep' '
#         "$AMDAHL" --store "$TMP/s.db" ingest -q "$DATA/cpu-strong-scaling/mlruns"
#     '
#     test_expect_success PDFTOTEXT 'the report names the sweep' '
#         test_status 0 "$AMDAHL" --store "$TMP/s.db" stats &&
#         test_contains "cpu-strong-scaling" "$OUT"
#     '
#     test_done
#
# A case's body is eval'd in the script's own shell, so variables it sets
# are seen by later cases. It fails when its last command fails or when
# any assertion helper inside it fails (assertions need not be chained
# with &&). A failing case prints "not ok N - title" and what the
# assertions said behind "#   "; the script goes on with the next case.
#
# Run one script alone:   bash tests/e2e/stats.sh [options]
#   --run=LIST   only cases LIST (numbers and ranges: 1,4-6); cases whose
#                title starts with "setup" always run
#   -v           show every case's output, not only a failing one's
#   -i           stop at the first failing case
#   -x           trace the bodies (set -x)
# Environment: AMDAHL (the binary; default build/amdahl), AMDAHL_ROOT,
# AMDAHL_TEST_BACKEND=clickhouse (every store on a private ClickHouse
# server; see "the backend" below and README "Testing").
#
# Prerequisites: test_expect_success PREREQ[,PREREQ…] 'title' 'body' skips
# the case with "ok N # skip" when a prerequisite is missing. Lazy ones
# are evaluated on first use: PDFTOTEXT, PDFINFO, PDFTOPPM, SQLITE3,
# PYTHON (Debian's /usr/bin/python3), NUMPY, SCIPY, PIL, AIOSMTPD,
# XMLLINT, OPENSSL, GNU_TIME, SHARED (the public samples in ../shared).
# `make deps` installs all of them, so CI skips none.

set -u

_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${AMDAHL_ROOT:=$_root}"
: "${AMDAHL:=$AMDAHL_ROOT/build/amdahl}"
: "${AMDAHL_TEMPLATES:=$AMDAHL_ROOT/templates}"
export AMDAHL AMDAHL_ROOT AMDAHL_TEMPLATES
DATA="$AMDAHL_ROOT/testdata"
PUBLIC="${PUBLIC:-$AMDAHL_ROOT/../shared/data/public}"
PY=/usr/bin/python3
. "$AMDAHL_ROOT/tests/lib/tmpdir.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/amdahl-test.XXXXXX")
# test_cleanup — what ends a script: its ClickHouse databases and server
# (below), then $TMP. A script setting its own EXIT trap calls it.
test_cleanup() {
	[ "${AMDAHL_TEST_BACKEND:-}" = clickhouse ] && _test_ch_cleanup
	rm -rf "$TMP"
}
trap test_cleanup EXIT

test_count=0
test_failures=0
test_skipped=0
_test_run_list=""
_test_verbose=0
_test_immediate=0
_test_trace=0
for _arg in "$@"; do
	case "$_arg" in
	--run=*) _test_run_list=${_arg#--run=} ;;
	-v | --verbose) _test_verbose=1 ;;
	-i | --immediate) _test_immediate=1 ;;
	-x) _test_trace=1 ;;
	*) echo "test-lib.sh: unknown option $_arg" >&2; exit 2 ;;
	esac
done
[ -n "${AMDAHL_TEST_RUN:-}" ] && [ -z "$_test_run_list" ] && _test_run_list=$AMDAHL_TEST_RUN

if [ -n "${test_description:-}" ] && [ "$_test_verbose" = 1 ]; then
	echo "# $test_description"
fi

_test_record() { [ -n "${AMDAHL_RESULTS:-}" ] && echo "$1" >>"$AMDAHL_RESULTS"; return 0; }

# ---- assertions: each returns 1 and says why on stderr when it fails ----

_test_failed=0
_test_say() { _test_failed=1; for _l in "$@"; do echo "$_l" >&2; done; return 1; }

# test_eq EXPECTED ACTUAL
test_eq() {
	[ "$1" = "$2" ] && return 0
	_test_say "expected: $1" "actual:   $2"
}
# test_contains NEEDLE HAYSTACK
test_contains() {
	case "$2" in *"$1"*) return 0 ;; esac
	_test_say "missing: $1" "in: $(printf '%s' "$2" | head -c 600)"
}
# test_not_contains NEEDLE HAYSTACK
test_not_contains() {
	case "$2" in *"$1"*) _test_say "unexpected: $1" "in: $(printf '%s' "$2" | head -c 600)" ;; esac
	return 0
}
# test_near EXPECTED ACTUAL TOLERANCE (absolute)
test_near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(d<=t)}' && return 0
	_test_say "expected: $1 ± $3" "actual:   $2"
}
# test_status CODE CMD... — runs CMD; its stdout and stderr are kept in
# $OUT and $ERR (and the files $TMP/out, $TMP/err) for later checks.
test_status() {
	local want=$1 rc
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
	[ "$rc" = "$want" ] && return 0
	_test_say "exit $rc, wanted $want: $*" "stderr: $(head -c 400 "$TMP/err")"
}
# test_bad_ingest STORE FILE NEEDLE — ingesting FILE into STORE exits 2
# with one error line containing NEEDLE, and STORE is left as it was.
test_bad_ingest() {
	local before
	before=$(store_digest "$1")
	test_status 2 "$AMDAHL" --store "$1" ingest "$2"
	test_contains "$3" "$ERR"
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
	test_eq "$before" "$(store_digest "$1")"
}
# test_true DESC CONDITION… — a shell condition that must hold.
test_true() {
	local desc=$1
	shift
	"$@" && return 0
	_test_say "not true: $desc"
}
test_path_exists() { [ -e "$1" ] && return 0; _test_say "missing: $1"; }
test_path_is_missing() { [ ! -e "$1" ] && [ ! -L "$1" ] && return 0; _test_say "exists: $1"; }

# ---- data helpers ----

# json_get FILE EXPR — EXPR (Python) evaluated with `d` the JSON document
# of FILE (- for stdin) and printed with print(); see tests/lib/json_query.py
# for the helpers it offers (sweep(), strategy(), point(), …).
json_get() { "$PY" "$AMDAHL_ROOT/tests/lib/json_query.py" "$@"; }
# q STORE SQL — the rows of an SQL query on a SQLite store.
# (metric points are packed in metric_series: the extension built next to
# amdahl shows them as the table metric_point, as `amdahl sql` does)
AMDAHL_SQLEXT="${AMDAHL_SQLEXT:-$(dirname "$AMDAHL")/amdahl_metric.so}"
q() { sqlite3 -cmd ".load $AMDAHL_SQLEXT" "$(_test_store_file "$1")" "$2"; }
# region_rows STORE — a SQLite store's regions back in schema 14's
# layout, a row each (schema 15 packs them: region_layout.sh), the store
# at schema 14, so that a test rewinding it further writes rows as an
# older amdahl did
region_rows() {
	q "$1" "CREATE TABLE rg_rows AS SELECT * FROM region ORDER BY id" &&
	sqlite3 "$(_test_store_file "$1")" "BEGIN;
	CREATE TABLE region(id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL, run_id INTEGER,
	 rank INTEGER, device INTEGER, kind_id INTEGER NOT NULL, profiler_id INTEGER NOT NULL,
	 name_id INTEGER NOT NULL, file_id INTEGER, line INTEGER, key INTEGER, parent_key INTEGER,
	 calls INTEGER, prim_calls INTEGER, self_ns INTEGER, total_ns INTEGER, bytes INTEGER);
	INSERT INTO region SELECT * FROM rg_rows ORDER BY id;
	CREATE INDEX region_source ON region(source_id, key);
	CREATE INDEX region_run ON region(run_id, name_id);
	DROP TABLE rg_rows; DROP TABLE region_pack; DROP TABLE region_pack_name;
	DELETE FROM schema_version WHERE version > 14;
	COMMIT;"
}
# store_digest STORE — the store's logical content ("absent" without one),
# for "the store is unchanged" checks.
store_digest() {
	local f
	f=$(_test_store_file "$1") || { echo "unreadable store $1"; return 0; }
	if [ -f "$f" ]; then sqlite3 "$f" .dump | sha256sum | cut -c1-64; else echo absent; fi
}
# store_copy FROM TO — TO becomes a copy of store FROM (cp of the file;
# on ClickHouse, FROM pulled into a file and pushed into TO's database).
store_copy() {
	if [ "$AMDAHL_TEST_BACKEND" != clickhouse ]; then cp "$1" "$2"; return; fi
	local f to
	f=$(_test_store_file "$1") && [ -f "$f" ] || return 1
	to=$(ch_store_url "$2")
	printf '%s\n' "${to##*/}" >>"$AMDAHL_CH_DBLIST"
	mv "$f" "$TMP/.copy.db" && "$AMDAHL_CH_REAL" --store "$TMP/.copy.db" push --to "$to" >/dev/null
}

# store_file STORE — a SQLite file with STORE's content, for oracles that
# open the store themselves (the store itself, or on ClickHouse a pulled copy).
store_file() { _test_store_file "$1"; }

# store_name STORE — STORE as amdahl's messages name it: the path, or on
# ClickHouse the URL of the database standing for it.
store_name() {
	if [ "$AMDAHL_TEST_BACKEND" = clickhouse ]; then ch_store_url "$1"; else printf '%s\n' "$1"; fi
}

# ---- the backend: AMDAHL_TEST_BACKEND=sqlite (default) or clickhouse ----
# On ClickHouse, $AMDAHL is tests/lib/ch_amdahl.sh: every store path a
# case names is its own database on one private server (the one
# tests/run.sh started, else one started for this script), and q and
# store_digest read a copy `amdahl pull` makes of it. A script that tests
# both backends itself (clickhouse.sh) sets test_native_backend=1 first.
: "${AMDAHL_TEST_BACKEND:=sqlite}"
# Such a script is the same run in both modes: on ClickHouse it is
# skipped whole (below, NATIVE_BACKEND) and runs in the SQLite tier.
_test_native_skip=
if [ -n "${test_native_backend:-}" ]; then
	[ "$AMDAHL_TEST_BACKEND" = clickhouse ] && _test_native_skip=1
	AMDAHL_TEST_BACKEND=sqlite
fi
export AMDAHL_TEST_BACKEND
_test_store_file() {
	[ "$AMDAHL_TEST_BACKEND" = clickhouse ] || { printf '%s
' "$1"; return 0; }
	local url db out=$TMP/.pulled.db
	url=$(ch_store_url "$1")
	db=${url##*/}
	rm -f "$out"
	if [ "$(ch_server_query "SELECT count() FROM system.tables WHERE database = '$db'")" != 0 ]; then
		"$AMDAHL_CH_REAL" pull --from "$url" --to "$out" >/dev/null || return 1
	fi
	printf '%s
' "$out"
}
_test_ch_cleanup() {
	local db
	# On the server of a whole run (tests/run.sh: its directory goes when
	# the run ends) the drops go on in the background while the next
	# script starts: a DROP DATABASE of 18.16 takes seconds.
	if [ -f "$AMDAHL_CH_DBLIST" ]; then
		for db in $(sort -u "$AMDAHL_CH_DBLIST"); do
			echo "DROP DATABASE IF EXISTS $db"
		done >"$TMP.drops"
		if [ -n "${AMDAHL_CH_PIDFILE:-}" ] && [ -z "${_test_ch_own:-}" ]; then
			(while read -r sql; do ch_server_query "$sql"; done <"$TMP.drops" >/dev/null 2>&1; rm -f "$TMP.drops") </dev/null >/dev/null 2>&1 &
		else
			while read -r sql; do ch_server_query "$sql" >/dev/null 2>&1; done <"$TMP.drops"
			rm -f "$TMP.drops"
		fi
	fi
	[ -n "${_test_ch_own:-}" ] && "$AMDAHL_ROOT/tests/lib/clickhouse.sh" stop "$_test_ch_own" >/dev/null 2>&1
	return 0
}
if [ "$AMDAHL_TEST_BACKEND" = clickhouse ]; then
	. "$AMDAHL_ROOT/tests/lib/ch_backend.sh"
	export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw AMDAHL_CH_REAL="${AMDAHL_CH_REAL:-$AMDAHL}"
	export AMDAHL_CH_DBLIST="$TMP/.ch-databases"
	if [ -z "${AMDAHL_CH_PORT:-}" ]; then
		_test_ch_own="$TMP/.ch-server"
		mkdir -p "$_test_ch_own"
		AMDAHL_CH_PORT=$("$AMDAHL_ROOT/tests/lib/clickhouse.sh" start "$_test_ch_own") || {
			echo "test-lib.sh: no ClickHouse server for AMDAHL_TEST_BACKEND=clickhouse" >&2
			exit 1
		}
	fi
	export AMDAHL_CH_PORT AMDAHL="$AMDAHL_ROOT/tests/lib/ch_amdahl.sh"
fi

# ---- prerequisites ----

_test_prereqs_set=" "
_test_prereqs_missing=" "
test_set_prereq() { _test_prereqs_set="$_test_prereqs_set$1 "; }
declare -A _test_lazy
test_lazy_prereq() { _test_lazy[$1]=$2; }

test_lazy_prereq PDFTOTEXT 'command -v pdftotext'
test_lazy_prereq PDFINFO 'command -v pdfinfo'
test_lazy_prereq PDFTOPPM 'command -v pdftoppm'
test_lazy_prereq SQLITE3 'command -v sqlite3'
test_lazy_prereq PYTHON '[ -x /usr/bin/python3 ]'
test_lazy_prereq NUMPY '/usr/bin/python3 -c "import numpy"'
test_lazy_prereq SCIPY '/usr/bin/python3 -c "import scipy"'
test_lazy_prereq PIL '/usr/bin/python3 -c "import PIL"'
test_lazy_prereq AIOSMTPD '/usr/bin/python3 -c "import aiosmtpd"'
# Debian's chromium driven by puppeteer-core (make deps-browser installs it)
test_lazy_prereq BROWSER '[ -x /usr/bin/chromium ] && command -v node &&
	[ -d "$AMDAHL_ROOT/tests/browser/node_modules/puppeteer-core" ]'
test_lazy_prereq XMLLINT 'command -v xmllint'
test_lazy_prereq OPENSSL 'command -v openssl'
test_lazy_prereq GNU_TIME '[ -x /usr/bin/time ]'
test_lazy_prereq SHARED '[ -d "$PUBLIC" ]'
# SANITIZED: $AMDAHL is the ASan/UBSan build (make test-san): a script
# that repeats a race to provoke it runs each scenario once there (every
# round costs ~4x) and every round in the plain and ClickHouse tiers.
test_lazy_prereq SANITIZED 'nm -D "$AMDAHL" 2>/dev/null | grep -q " U __asan_init"'
# PTY: script(1) can give a command a pseudo-terminal (a chroot or
# container without /dev/pts cannot).
test_lazy_prereq PTY 'script -qec true /dev/null'
# SQLITE_STORE: the case is about the SQLite store file itself (its
# bytes, permissions, locks, WAL, migrations); not run on ClickHouse.
test_lazy_prereq SQLITE_STORE '[ "$AMDAHL_TEST_BACKEND" != clickhouse ]'

# SQLITE_TIER: the script reaches no store (or compares the backends
# itself): it runs once, in the SQLite tier, and is skipped on ClickHouse.
test_lazy_prereq SQLITE_TIER '[ "$AMDAHL_TEST_BACKEND" != clickhouse ] && [ -z "$_test_native_skip" ]'

# test_require PREREQ WHY — the whole script needs PREREQ (git's
# skip_all): without it the script ends here with "1..0 # SKIP WHY",
# counted as one skip. A script about the SQLite file alone says
# `test_require SQLITE_STORE '...'`; one that reaches no store says
# `test_require SQLITE_TIER '...'`.
test_require() {
	test_have_prereq "$1" && return 0
	echo "1..0 # SKIP $2 (missing $1)"
	_test_record skip
	exit 0
}

# test_have_prereq A[,B…] — 0 when every one is there.
test_have_prereq() {
	local p ok=0
	for p in ${1//,/ }; do
		case "$_test_prereqs_set" in *" $p "*) continue ;; esac
		case "$_test_prereqs_missing" in *" $p "*) ok=1; continue ;; esac
		if [ -n "${_test_lazy[$p]:-}" ] && (eval "${_test_lazy[$p]}") >/dev/null 2>&1; then
			test_set_prereq "$p"
		else
			_test_prereqs_missing="$_test_prereqs_missing$p "
			ok=1
		fi
	done
	return $ok
}

[ -n "$_test_native_skip" ] && test_require SQLITE_TIER "the script starts its own servers and compares both backends itself (test_native_backend=1)"

# ---- cases ----

_test_selected() {
	local n=$1 title=$2 r
	[ -z "$_test_run_list" ] && return 0
	case "$title" in setup*) return 0 ;; esac
	for r in ${_test_run_list//,/ }; do
		case "$r" in
		*-*) [ "$n" -ge "${r%-*}" ] && [ "$n" -le "${r#*-}" ] && return 0 ;;
		*) [ "$n" = "$r" ] && return 0 ;;
		esac
	done
	return 1
}

# A body runs inside a function, so `return N` ends the case, not the
# harness; -x traces go to the harness's own stderr (fd 4), never into
# the $ERR of a command the case runs.
_test_eval_body() { eval "$1"; }
if [ "$_test_trace" = 1 ]; then
	exec 4>&2
	BASH_XTRACEFD=4
fi

# test_expect_success [PREREQS] TITLE BODY
test_expect_success() {
	local prereq="" title body rc
	[ $# = 3 ] && { prereq=$1; shift; }
	title=$1 body=$2
	test_count=$((test_count + 1))
	_test_selected "$test_count" "$title" || return 0
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $title (missing ${prereq})"
		_test_record skip
		return 0
	fi
	_test_failed=0
	# a variable a failed set-up left unset fails this case, not the script
	set +u
	[ "$_test_trace" = 1 ] && set -x
	_test_eval_body "$body" >"$TMP/.case.log" 2>&1
	rc=$?
	[ "$_test_trace" = 1 ] && set +x
	set -u
	if [ "$rc" = 0 ] && [ "$_test_failed" = 0 ]; then
		echo "ok $test_count - $title"
		[ "$_test_verbose" = 1 ] && sed 's/^/#   /' "$TMP/.case.log"
		_test_record pass
	else
		test_failures=$((test_failures + 1))
		echo "not ok $test_count - $title"
		sed 's/^/#   /' "$TMP/.case.log" | head -40
		_test_record fail
		if [ "$_test_immediate" = 1 ]; then
			test_done
		fi
	fi
	return 0
}

test_done() {
	echo "1..$test_count"
	if [ "$test_failures" = 0 ]; then
		if [ "$test_skipped" -gt 0 ]; then echo "# passed all $test_count test(s) ($test_skipped skipped)"; else echo "# passed all $test_count test(s)"; fi
		exit 0
	fi
	echo "# failed $test_failures among $test_count test(s)"
	exit 1
}
