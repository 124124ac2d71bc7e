#!/bin/bash
# Nsight Systems: one export holding several processes (`nsys profile
# mpirun …`, torchrun under one session) gives each process its own rank,
# in PID order from --rank: kernels, memory copies, CUDA API calls, NVTX
# ranges and the phase split per rank, checked against sqlite3 queries of
# the same file grouped by process (globalPid >> 24, globalTid >> 24) and
# against phases worked out by hand. Before, the processes were summed:
# rank 5's NCCL kernel overlapped rank 4's compute on the shared GPU.
test_description='nsys-sqlite: one rank per process of the export'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
X="$TMP/mpi.sqlite"
P1=$((200 * 16777216)) # globalPid of PID 200 (listed first): rank 5
P0=$((100 * 16777216)) # globalPid of PID 100: rank 4
RANK="CASE WHEN globalPid >> 24 = 100 THEN 4 WHEN globalPid >> 24 = 200 THEN 5 END"
TRANK="CASE WHEN globalTid >> 24 = 100 THEN 4 WHEN globalTid >> 24 = 200 THEN 5 END"
# regions KIND — "rank name calls self_ns" lines of `regions FILE --kind KIND`
regions() {
	"$AMDAHL" --store "$S" regions "$X" --kind "$1" -n 0 --json |
		json_get - "\"\\n\".join(sorted(\"%s %s %s %s\" % (r[\"rank\"], r[\"name\"], r[\"calls\"], r[\"self_ns\"]) for r in d[\"regions\"]))"
}
test_expect_success SQLITE3 'setup: an export of two processes sharing GPU 0, ingested with --rank 4' '
	sqlite3 "$X" "
CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, streamId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, globalPid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER NOT NULL, end INTEGER NOT NULL,
  globalTid INTEGER, nameId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  text TEXT, globalTid INTEGER, textId INTEGER);
INSERT INTO StringIds VALUES(1,'\''volta_sgemm_128x64_nn'\''),(2,'\''ncclDevKernel_AllReduce_Sum_f32'\''),
  (3,'\''cudaLaunchKernel'\''),(4,'\''cudaMemcpyAsync'\'');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(0,'\'''\'','\'''\'');
INSERT INTO PROCESSES VALUES($P1,200,'\''python'\''),($P0,100,'\''python'\'');
-- PID 100: sgemm 100-300 and 500-550, a copy 600-700; PID 200: NCCL 200-400, sgemm 800-1000
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100,300,0,7,$P0,1,1),(500,550,0,7,$P0,1,1),
  (200,400,0,8,$P1,2,2),(800,1000,0,7,$P1,1,1);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(600,700,0,4096,1,$P0);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(0,10,$P0+1,3),(20,25,$P0+1,3),(590,600,$P0+2,4),
  (5,15,$P1+1,3);
INSERT INTO NVTX_EVENTS VALUES(0,1000,59,'\''train_step'\'',$P0+1,NULL),(50,450,59,'\''forward'\'',$P0+1,NULL),
  (0,900,59,'\''train_step'\'',$P1+1,NULL);
"
	test_status 0 "$AMDAHL" --store "$S" ingest --rank 4 "$X"
'
test_expect_success SQLITE3,PYTHON 'kernels per rank equal sqlite3 grouped by process' '
	test_eq "$(sqlite3 "$X" "SELECT $RANK, s.value, count(*), sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName GROUP BY 1, 2" | tr "|" " " | sort)" "$(regions kernel)"
'
test_expect_success SQLITE3,PYTHON 'CUDA API calls and memory copies per rank equal sqlite3' '
	test_eq "$(sqlite3 "$X" "SELECT $TRANK, s.value, count(*), sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId GROUP BY 1, 2" | tr "|" " " | sort)" "$(regions cuda_api)"
	test_eq "$(sqlite3 "$X" "SELECT $RANK, '\''[CUDA memcpy Host-to-Device]'\'', count(*), sum(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1" | tr "|" " ")" "$(regions memcpy)"
'
test_expect_success SQLITE3,PYTHON 'NVTX ranges per rank: totals equal sqlite3, self within the process' '
	test_eq "$(sqlite3 "$X" "SELECT $TRANK, text, count(*) FROM NVTX_EVENTS GROUP BY 1, 2" | tr "|" " " | sort)" \
		"$(regions nvtx | cut -d" " -f1-3)"
	# rank 4: train_step 1000 holds forward 400; rank 5: train_step alone
	test_eq "4 forward 1 400
4 train_step 1 600
5 train_step 1 900" "$(regions nvtx)"
'
# by hand, the export window 0-1000 on GPU 0: rank 4 compute 250 (100-300,
# 500-550), memory 100, idle 650; rank 5 communication 200, compute 200
# (800-1000), idle 600; no overlap within either process
test_expect_success PYTHON 'phases per rank by hand: no overlap across processes' '
	test_eq "4 compute 250 4 communication 0 4 memory 100 4 idle 650 4 overlap 0 5 compute 200 5 communication 200 5 memory 0 5 idle 600 5 overlap 0" \
		"$("$AMDAHL" --store "$S" regions "$X" --kind phase -n 0 --json | json_get - "\" \".join(\"%s %s %s\" % (r[\"rank\"], r[\"name\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: (r[\"rank\"], [\"compute\",\"communication\",\"memory\",\"idle\",\"overlap\"].index(r[\"name\"]))))")"
'
test_expect_success PYTHON 'without --rank the ranks start at 0' '
	test_status 0 "$AMDAHL" --store "$TMP/t.db" ingest "$X"
	test_eq "0 1" "$("$AMDAHL" --store "$TMP/t.db" regions "$X" --kind kernel -n 0 --json | json_get - "\" \".join(str(r) for r in sorted({r[\"rank\"] for r in d[\"regions\"]}))")"
'
test_done
