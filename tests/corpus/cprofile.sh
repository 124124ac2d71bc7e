#!/bin/bash
# cProfile dumps from public repositories (Python 3.7, 3.9, 3.11 and one
# Python 2 dump): every function's calls, primitive calls, tottime and
# cumtime exactly as Python's pstats reads them and `python3 -m pstats`
# prints them, caller edges as pstats lists them; the Python 2 dump is
# refused by name and leaves the store unchanged.
test_description='cProfile public samples: regions equal pstats exactly'
. "$(dirname "$0")/../test-lib.sh"
P="$PUBLIC/cprofile"
ORACLE="$AMDAHL_ROOT/tests/oracle/regions_oracle.py"
oracle() { "$PY" "$ORACLE" "$@" 2>&1; }

for f in adam-mlops-py311.prof amazon-review-transformers-train-py37.prof mmvae-torch-py39.pstats; do
	test_expect_success SHARED,PYTHON "$f: every function and caller equals pstats" '
		st="$TMP/'"$f"'.db"
		test_status 0 "$AMDAHL" --store "$st" ingest -q "$P/'"$f"'"
		test_eq cprofile "$(q "$st" "SELECT kind FROM source")"
		"$AMDAHL" --store "$st" regions "$P/'"$f"'" -n 0 --json >"$TMP/r.json"
		test_eq ok "$(oracle cprofile "$P/'"$f"'" "$TMP/r.json")"
		test_eq ok "$(oracle cprofile-print "$P/'"$f"'" "$TMP/r.json")"
		test_eq ok "$(oracle cprofile-callers "$P/'"$f"'" "$st" "$P/'"$f"'")"
	'
done
test_expect_success SHARED 'the Python 2 dump: said so, exit 2, store unchanged' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest -q "$P/adam-mlops-py311.prof"
	before=$(store_digest "$TMP/s.db")
	test_status 2 "$AMDAHL" --store "$TMP/s.db" ingest "$P/algorithms-py27.pstats"
	test_contains "algorithms-py27.pstats: byte 6: written by Python 2" "$ERR"
	test_eq "$before" "$(store_digest "$TMP/s.db")"
'
test_done
