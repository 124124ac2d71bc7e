#!/bin/bash
# cProfile / pstats dumps: a dump made here by Debian's python3 and the
# same statistics written at marshal versions 0-4, with call counts past
# 2**32; every function's calls, primitive calls, tottime and cumtime
# exactly as Python's pstats reads them and as `python3 -m pstats`
# prints them; caller edges; linking to a run; bad input (truncated,
# Python 2, wrong shape, a dangling reference) fails with the byte
# offset, exit 2, store unchanged.
test_description='cProfile dumps: regions equal pstats exactly, bad dumps leave the store unchanged'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
D="$TMP/dumps"
ORACLE="$AMDAHL_ROOT/tests/oracle/regions_oracle.py"
oracle() { "$PY" "$ORACLE" "$@" 2>&1; }
unchanged() { test_eq "$before" "$(store_digest "$S")"; }
# exact DUMP — ingested into its own store, `regions DUMP` equals pstats
exact() {
	local st="$TMP/$(basename "$1").db"
	test_status 0 "$AMDAHL" --store "$st" ingest -q "$1"
	"$AMDAHL" --store "$st" regions "$1" -n 0 --json >"$TMP/r.json"
	test_eq ok "$(oracle cprofile "$1" "$TMP/r.json")"
	test_eq ok "$(oracle cprofile-print "$1" "$TMP/r.json")"
	test_eq ok "$(oracle cprofile-callers "$1" "$(store_file "$st")" "$1")"
}

test_expect_success PYTHON 'setup: profile a workload with cProfile, write the dumps' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/cprofile_dumps.py" "$D"
'
test_expect_success PYTHON 'detected as cprofile by content, whatever the name' '
	cp "$D/work.prof" "$TMP/profile.data"
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/profile.data"
	test_eq cprofile "$(q "$S" "SELECT kind FROM source")"
'
test_expect_success PYTHON 'the dump: every function equals pstats (numbers and printed lines), callers too' '
	exact "$D/work.prof"
'
for v in 0 1 2 3 4; do
	test_expect_success PYTHON "marshal version $v: equal to pstats" "exact \"\$D/work-v$v.prof\""
done
test_expect_success PYTHON 'call counts past 2**32 (marshal longs): equal to pstats' '
	exact "$D/big.prof"
	test_true "counts past 2**32" [ "$(json_get "$TMP/r.json" "max(r[\"calls\"] for r in d[\"regions\"])")" -gt 4294967296 ]
'
test_expect_success PYTHON 'recursion: calls/primitive calls, as pstats prints them' '
	test_status 0 "$AMDAHL" --store "$S" regions "$TMP/profile.data" -n 0
	test_contains "/20" "$OUT"
	test_contains "fib (" "$OUT"
'
test_expect_success PYTHON 'the shares are of the dump'"'"'s total tottime' '
	"$AMDAHL" --store "$S" regions "$TMP/profile.data" -n 1 --json >"$TMP/r.json"
	want=$("$PY" -c "import pstats,sys; s=pstats.Stats(sys.argv[1]); print(round(max(v[2] for v in s.stats.values())/s.total_tt, 9))" "$D/work.prof")
	test_eq "$want" "$(json_get "$TMP/r.json" "round(d[\"regions\"][0][\"share\"], 9)")"
'
test_expect_success PYTHON '--run links the dump to a run' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$DATA/cpu-strong-scaling/mlruns"
	test_status 0 "$AMDAHL" --store "$S" ingest --run 352060eb92854d39b18812809e22c265 "$D/work-v3.prof"
	"$AMDAHL" --store "$S" regions 352060eb92854d39b18812809e22c265 --source cprofile -n 0 --json >"$TMP/r.json"
	test_eq ok "$(oracle cprofile "$D/work-v3.prof" "$TMP/r.json")"
'
test_expect_success PYTHON 'a truncated dump: the byte offset, exit 2, store unchanged' '
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$D/truncated.prof"
	test_contains "truncated.prof: byte " "$ERR"
	test_contains "truncated" "$ERR"
	unchanged
'
test_expect_success PYTHON 'a Python 2 dump: said so, exit 2, store unchanged' '
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$D/py2.prof"
	test_contains "written by Python 2" "$ERR"
	unchanged
'
test_expect_success PYTHON 'wrong shape and a dangling reference: exit 2, store unchanged' '
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$D/badshape.prof"
	test_contains "badshape.prof: byte 17: a function'"'"'s entry that is not (cc, nc, tt, ct, callers)" "$ERR"
	test_status 2 "$AMDAHL" --store "$S" ingest "$D/badref.prof"
	test_contains "badref.prof: byte 17: a reference to no finished object" "$ERR"
	unchanged
'
test_done
