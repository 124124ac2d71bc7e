#!/bin/bash
# Nsight Systems SQLite exports from public repositories, four schema
# versions (2.9.1 of nsys 2022.1 and 2022.2, 3.16.1 of 2024.6, 3.23.3 of
# 2025.5 with no kernel table): every region (kernels, memory copies and
# sets, CUDA API calls, NVTX ranges with self time, each device's phases
# and the GPU by name) against Python's sqlite3 reading of the same file
# (tests/oracle/regions_oracle.py nsys); a truncated export fails, exit
# 2, store unchanged.
test_description='Nsight Systems exports: regions and phases equal sqlite3 queries of the same file'
. "$(dirname "$0")/../test-lib.sh"
P="$PUBLIC/nsys"
S="$TMP/s.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/regions_oracle.py"

test_expect_success SHARED 'setup: ingest the four exports (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$P"
'
test_expect_success SHARED,SQLITE3 'detected by content as nsys-sqlite' '
	test_eq 4 "$(q "$S" "SELECT count(*) FROM source WHERE kind='\''nsys-sqlite'\''")"
'
for f in dlprof-cnn-nsys2022.1.sqlite pipit-saxpy-mpi-rank0-nsys2022.2.sqlite \
	fuser-report2-nsys2024.6.sqlite weatherbench2-nokernels-nsys2025.5.sqlite; do
	test_expect_success SHARED,PYTHON "$f: every region equals sqlite3 on the file" '
		"$AMDAHL" --store "$S" regions "$P/'"$f"'" -n 0 --json >"$TMP/r.json"
		test_eq ok "$("$PY" "$ORACLE" nsys "$P/'"$f"'" "$TMP/r.json" 2>&1)"
	'
done
test_expect_success SHARED,PYTHON 'GPU names from TARGET_INFO_GPU; the saxpy kernel total' '
	"$AMDAHL" --store "$S" regions "$P/pipit-saxpy-mpi-rank0-nsys2022.2.sqlite" --kind device --json >"$TMP/r.json"
	test_eq "NVIDIA A100-SXM4-40GB" "$(json_get "$TMP/r.json" "d[\"regions\"][0][\"name\"]")"
	test_eq "$(q "$P/pipit-saxpy-mpi-rank0-nsys2022.2.sqlite" "SELECT sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL")" \
		"$("$AMDAHL" --store "$S" regions "$P/pipit-saxpy-mpi-rank0-nsys2022.2.sqlite" --kind kernel --json | json_get - "d[\"regions\"][0][\"self_ns\"]")"
'
test_expect_success SHARED 'a truncated export: exit 2, one line, store unchanged' '
	before=$(store_digest "$S")
	head -c 300000 "$P/fuser-report2-nsys2024.6.sqlite" >"$TMP/cut.sqlite"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/cut.sqlite"
	test_contains "cut.sqlite" "$ERR"
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)"
	test_eq "$before" "$(store_digest "$S")"
'
test_done
