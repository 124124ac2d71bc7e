# lib.sh — helpers for end-to-end CLI tests. Each check prints "ok - …"
# or "not ok - …" and records the outcome for tests/run.sh.
# AMDAHL is the binary under test; TMP a fresh directory per script.
set -u
: "${AMDAHL:?run through tests/run.sh}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DATA="$AMDAHL_ROOT/testdata"

_record() { [ -n "${AMDAHL_RESULTS:-}" ] && echo "$1" >>"$AMDAHL_RESULTS"; }
pass() { echo "ok - $1"; _record pass; }
fail() { echo "not ok - $1"; shift; for l in "$@"; do echo "#   $l"; done; _record fail; }

# eq DESC EXPECTED ACTUAL
eq() {
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}
# contains DESC NEEDLE HAYSTACK
contains() {
  case "$3" in *"$2"*) pass "$1";; *) fail "$1" "missing: $2" "in: $(printf '%s' "$3" | head -c 600)";; esac
}
# status DESC EXPECTED_CODE CMD... (stdout/stderr kept in $OUT / $ERR)
status() {
  local desc=$1 want=$2; shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
  if [ "$rc" = "$want" ]; then pass "$desc"; else fail "$desc" "exit $rc, wanted $want" "stderr: $(head -c 400 "$TMP/err")"; fi
}
# near DESC EXPECTED ACTUAL TOLERANCE (absolute)
near() {
  if awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(d<=t)}'; then pass "$1"
  else fail "$1" "expected: $2 ± $4" "actual:   $3"; fi
}
# q STORE SQL — one value from the store
q() { sqlite3 "$1" "$2"; }
# store_digest STORE — the store's logical content (for "unchanged" checks)
store_digest() { [ -f "$1" ] && sqlite3 "$1" .dump | sha256sum | cut -c1-64 || echo absent; }
