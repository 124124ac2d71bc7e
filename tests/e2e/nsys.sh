#!/bin/bash
# Nsight Systems exports, the cases the public samples lack (those are in
# tests/corpus/nsys.sh): a two-GPU export made here with sqlite3 in the
# export's own schema, with NCCL kernels overlapping compute, memory
# operations, nested NVTX ranges across two threads, --rank; its regions
# and phases against Python's sqlite3 reading (regions_oracle.py nsys) and
# against numbers worked out by hand; bad input — a foreign SQLite file,
# a kernel table without deviceId, a kernel ending before it starts —
# fails with one line, exit 2, store unchanged.
test_description='nsys-sqlite: phases with NCCL overlap, NVTX self time, bad exports'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
X="$TMP/report1.sqlite"
ORACLE="$AMDAHL_ROOT/tests/oracle/regions_oracle.py"
unchanged() { test_eq "$before" "$(store_digest "$S")"; }
# export FILE [extra SQL] — the tables nsys writes, a few rows in each
make_export() {
	rm -f "$1"
	sqlite3 "$1" "
CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE TARGET_INFO_GPU(vmId INTEGER, id INTEGER, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, streamId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  text TEXT, globalTid INTEGER, textId INTEGER);
INSERT INTO StringIds VALUES(1,'volta_sgemm_128x64_nn'),(2,'ncclDevKernel_AllReduce_Sum_f32'),
  (3,'sgemm'),(4,'ncclAllReduce'),(5,'train_step'),(6,'forward');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(0,'','');
INSERT INTO TARGET_INFO_GPU VALUES(0,0,'NVIDIA H100 80GB HBM3'),(0,1,'NVIDIA H100 80GB HBM3');
-- GPU 0: compute 100-300, NCCL 250-400 (overlap 250-300), copy 350-500
-- GPU 1: compute 100-200, NCCL 500-600
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100,300,0,7,1,1,3),(250,400,0,8,1,2,4),
  (100,200,1,7,2,1,3),(500,600,1,8,2,2,4);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(350,500,0,4096,1);
-- thread 1: train_step 0-1000 holds forward 50-450 holds forward 60-100;
-- thread 2: a start/end range by textId
INSERT INTO NVTX_EVENTS VALUES(0,1000,59,'train_step',1,NULL),(50,450,59,'forward',1,NULL),
  (60,100,59,'forward',1,NULL),(20,80,60,NULL,2,5),(30,NULL,34,'a mark',1,NULL);
$2"
}

test_expect_success SQLITE3 'setup: a two-GPU export, ingested with --rank 3 (exit 0)' '
	make_export "$X"
	test_status 0 "$AMDAHL" --store "$S" ingest --rank 3 "$X"
	test_eq nsys-sqlite "$(q "$S" "SELECT kind FROM source")"
'
test_expect_success SQLITE3,PYTHON 'every region equals Python'"'"'s sqlite3 reading' '
	"$AMDAHL" --store "$S" regions "$X" -n 0 --json >"$TMP/r.json"
	sed -i "s/\"rank\":\t3/\"rank\":\tnull/" "$TMP/r.json" # the oracle knows no --rank
	test_eq ok "$("$PY" "$ORACLE" nsys "$X" "$TMP/r.json" 2>&1)"
'
# by hand, window 0-1000: GPU 0 compute 200 (100-300), communication 100
# (300-400), memory 100 (400-500), overlap 50, idle 600; GPU 1 compute
# 100, communication 100, idle 800
test_expect_success PYTHON 'phases per GPU by hand: NCCL overlap, memory after compute and NCCL' '
	"$AMDAHL" --store "$S" regions "$X" --kind phase -n 0 --json >"$TMP/r.json"
	test_eq "0 compute 200 0 communication 100 0 memory 100 0 idle 600 0 overlap 50 1 compute 100 1 communication 100 1 memory 0 1 idle 800 1 overlap 0" \
		"$(json_get "$TMP/r.json" "\" \".join(\"%s %s %s\" % (r[\"device\"], r[\"name\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: (r[\"device\"], [\"compute\",\"communication\",\"memory\",\"idle\",\"overlap\"].index(r[\"name\"]))))")"
	test_eq 3 "$(json_get "$TMP/r.json" "d[\"regions\"][0][\"rank\"]")"
'
# train_step: push/pop 0-1000 (self 1000 - 400) and start/end 20-80 by
# textId (self 60); forward: 50-450 (self 400 - 40) and 60-100 (self 40)
test_expect_success PYTHON 'NVTX self time: minus the direct children on the same thread' '
	"$AMDAHL" --store "$S" regions "$X" --kind nvtx -n 0 --json >"$TMP/r.json"
	test_eq "forward 2 400 440 train_step 2 660 1060" \
		"$(json_get "$TMP/r.json" "\" \".join(\"%s %s %s %s\" % (r[\"name\"], r[\"calls\"], r[\"self_ns\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: (r[\"name\"], -r[\"total_ns\"])))")"
'
test_expect_success PYTHON 'the GPUs by name: busy time and the window' '
	"$AMDAHL" --store "$S" regions "$X" --kind device --json >"$TMP/r.json"
	test_eq "NVIDIA H100 80GB HBM3 0 400 1000 NVIDIA H100 80GB HBM3 1 200 1000" \
		"$(json_get "$TMP/r.json" "\" \".join(\"%s %s %s %s\" % (r[\"name\"], r[\"device\"], r[\"self_ns\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: r[\"device\"]))")"
'
# the same export linked to a run with traces: the report draws both splits
test_expect_success SQLITE3,PYTHON 'the report: the export'"'"'s phases next to the run'"'"'s trace phases' '
	R=352060eb92854d39b18812809e22c265 # ddp n=2, repeat 0: two rank traces
	test_status 0 "$AMDAHL" --store "$TMP/p.db" ingest -q "$DATA/cpu-strong-scaling/mlruns"
	test_status 0 "$AMDAHL" --store "$TMP/p.db" ingest --run "$R" "$X"
	test_status 0 "$AMDAHL" --store "$TMP/p.db" report build -o "$TMP/rep"
	"$PY" "$AMDAHL_ROOT/tests/lib/svg_stacked_columns.py" "$TMP/rep/charts/nsys_phases.svg" >"$TMP/cols"
	# the trace column: its phases over their sum, from the store; then the
	# export by hand (two GPUs, window 1000 each): 300, 200, 100, 1400 of 2000
	want=$(q "$TMP/p.db" "SELECT group_concat(printf('\''%.3f'\'', f), '\'' '\'') FROM (SELECT 1.0 * sum(p.ns) / (SELECT sum(p2.ns) FROM trace_phase p2 JOIN trace t2 ON t2.id = p2.trace_id JOIN run r2 ON r2.id = t2.run_id JOIN dict d2 ON d2.id = p2.phase_id WHERE r2.ext_id = '\''$R'\'' AND d2.s <> '\''overlap'\'') AS f FROM trace_phase p JOIN trace t ON t.id = p.trace_id JOIN run r ON r.id = t.run_id JOIN dict d ON d.id = p.phase_id WHERE r.ext_id = '\''$R'\'' AND d.s IN ('\''compute'\'', '\''communication'\'', '\''memory'\'', '\''other'\'', '\''idle'\'') GROUP BY d.s HAVING sum(p.ns) > 0 ORDER BY CASE d.s WHEN '\''compute'\'' THEN 0 WHEN '\''communication'\'' THEN 1 WHEN '\''memory'\'' THEN 2 WHEN '\''other'\'' THEN 3 ELSE 4 END)")
	test_eq "$want
0.150 0.100 0.050 0.700" "$(cat "$TMP/cols")"
'
test_expect_success SQLITE3 'a foreign SQLite file: not taken for an export; forced, said so' '
	before=$(store_digest "$S")
	sqlite3 "$TMP/other.sqlite" "CREATE TABLE notes(id INTEGER, body TEXT); INSERT INTO notes VALUES(1, '\''x'\'')"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/other.sqlite"
	test_contains "not a format amdahl reads" "$ERR"
	test_status 2 "$AMDAHL" --store "$S" ingest --format nsys-sqlite "$TMP/other.sqlite"
	test_contains "other.sqlite: no StringIds table: not an Nsight Systems export" "$ERR"
	unchanged
'
test_expect_success SQLITE3 'a kernel table without deviceId; a kernel ending before it starts' '
	before=$(store_digest "$S")
	make_export "$TMP/nodev.sqlite" "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN deviceId;"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/nodev.sqlite"
	test_contains "nodev.sqlite: table CUPTI_ACTIVITY_KIND_KERNEL has no column deviceId" "$ERR"
	make_export "$TMP/back.sqlite" "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 50 WHERE start = 500;"
	test_status 2 "$AMDAHL" --store "$S" ingest "$TMP/back.sqlite"
	test_contains "back.sqlite: a kernel row of '\''ncclDevKernel_AllReduce_Sum_f32'\'' ends before it starts" "$ERR"
	unchanged
'
# CUDA API calls summed per name (cudaLaunchKernel 20 + 30 ns, cudaMemcpyAsync
# 5 + 2 ns); a call whose nameId has no string is dropped, as a join drops
# it. Two push/pop ranges with the same start and end: the first in table
# order holds the second (as the oracle's rule), so outer's self time is 0.
test_expect_success SQLITE3,PYTHON 'CUDA API calls per name; NVTX ranges tied on start and end nest in table order' '
	make_export "$TMP/api.sqlite" "
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL,
  globalTid INTEGER, nameId INTEGER NOT NULL);
INSERT INTO StringIds VALUES(7,'\''cudaMemcpyAsync'\''),(8,'\''cudaLaunchKernel'\'');
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(10,30,1,8),(40,45,1,7),(50,80,1,8),(60,62,1,7),
  (70,75,1,99);
INSERT INTO NVTX_EVENTS VALUES(2000,2100,59,'\''outer'\'',1,NULL),(2000,2100,59,'\''inner'\'',1,NULL);"
	test_status 0 "$AMDAHL" --store "$TMP/api.db" ingest "$TMP/api.sqlite" &&
	"$AMDAHL" --store "$TMP/api.db" regions "$TMP/api.sqlite" -n 0 --json >"$TMP/r.json" &&
	test_eq "cudaLaunchKernel 2 50 50 cudaMemcpyAsync 2 7 7" \
		"$(json_get "$TMP/r.json" "\" \".join(\"%s %s %s %s\" % (r[\"name\"], r[\"calls\"], r[\"self_ns\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: r[\"name\"]) if r[\"kind\"] == \"cuda_api\")")" &&
	test_eq "inner 1 100 100 outer 1 0 100" \
		"$(json_get "$TMP/r.json" "\" \".join(\"%s %s %s %s\" % (r[\"name\"], r[\"calls\"], r[\"self_ns\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: r[\"name\"]) if r[\"name\"] in (\"inner\", \"outer\"))")"
'
test_done
