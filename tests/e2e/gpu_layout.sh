#!/bin/bash
# gpu_layout.sh — nvidia-smi samples packed per series (issue 19, round
# nine): each (source, run, GPU) series is a gpu_series row (a chunk row
# per 4096 samples) whose `samples` blob holds the times and the five
# values as little-endian arrays, read here by an independent decoder
# (tests/oracle/gpu_series.py: python's struct and sqlite3) against the
# logs as python's csv reads them; the gpu_sample table of `amdahl sql`
# and of the sqlite3 shell's extension shows them row by row; a store of
# schema version 7 (one gpu_sample row per sample) converts at the next
# ingest with its samples, blobs and `stats` unchanged; a GPU log linked
# after the fact moves with its samples; a damaged blob is refused by name.
test_description='GPU samples: packed series, the gpu_sample table, migration of version-7 stores'
. "$(dirname "$0")/../test-lib.sh"

S=$TMP/new.db
O=$TMP/old7.db
LOG=$DATA/gpu-batch-sweep/nvidia-smi.csv
BIG=$TMP/two-gpus.csv
ORACLE="$PY $AMDAHL_ROOT/tests/oracle/gpu_series.py"
# every sample as sqlite3 shows it (6 decimals, '' for NULL), one per line, sorted
ROWS6="SELECT printf('%d|%d|%s|%s|%s|%s|%s', gpu, ts_ms, iif(util_pct IS NULL, '', printf('%.6f', util_pct)),
 iif(mem_util_pct IS NULL, '', printf('%.6f', mem_util_pct)), iif(power_w IS NULL, '', printf('%.6f', power_w)),
 iif(mem_used_mib IS NULL, '', printf('%.6f', mem_used_mib)), iif(temp_c IS NULL, '', printf('%.6f', temp_c))) FROM gpu_sample"
# the oracle's lines (repr values, None) at 6 decimals, sorted
six() { awk -F'|' '{ printf "%s|%s", $1, $2; for (i = 3; i <= 7; i++) printf "|%s", ($i == "None" ? "" : sprintf("%.6f", $i)); print "" }' | sort; }
# the chunk rows of a store without their source and run ids
CHUNKS="SELECT gpu, chunk, n, t0_ms, t1_ms, hex(samples) FROM gpu_series"
# the chunk rows of a store byte for byte
series_rows() { q "$1" "SELECT source_id, run_id, gpu, chunk, n, t0_ms, t1_ms, hex(samples) FROM gpu_series ORDER BY 1, 3, 4" | sha256sum; }

test_expect_success PYTHON,SQLITE3 'setup: the GPU sweep with its log, and a log of two GPUs (5000 samples each, [N/A] powers, kW)' '
	"$PY" - "$BIG" <<-\PYEOF &&
	import sys
	with open(sys.argv[1], "w") as f:
	    f.write("timestamp, index, utilization.gpu [%], power.draw [W], memory.used [MiB], temperature.gpu\n")
	    for k in range(5000):
	        ms = 1795347589177 + 197 * k
	        for g in (1, 0):
	            p = "[N/A]" if k % 97 == 5 else ("0.%03d kW" % (k % 1000) if k % 7 == 0 else "%d.%02d W" % (60 + k % 300, k % 100))
	            f.write("2026/11/22 %02d:%02d:%02d.%03d, %d, %d %%, %s, %d MiB, %d\n" % (
	                (ms // 3600000) % 24, (ms // 60000) % 60, (ms // 1000) % 60, ms % 1000,
	                g, (k * 7 + g) % 101, p, 1000 + k * 3 + g, 30 + k % 40))
	PYEOF
	test_status 0 "$AMDAHL" --store "$S" ingest "$DATA/gpu-batch-sweep" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$BIG"
'
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'the store holds series chunk rows, no table of samples' '
	test_eq "source_id run_id gpu chunk n t0_ms t1_ms samples" "$(q "$S" "SELECT name FROM pragma_table_info('"'gpu_series'"')" | tr "\n" " " | sed "s/ $//")" &&
	test_eq 0 "$(sqlite3 "$S" "SELECT count(*) FROM sqlite_master WHERE name = '"'gpu_sample'"'")" &&
	test_eq "1 4096|1 904|2 4096|2 904" "$(q "$S" "SELECT s.id > 0, n FROM gpu_series g JOIN source s ON s.id = g.source_id WHERE s.path LIKE '"'%two-gpus.csv'"' ORDER BY gpu, chunk" | sed "s/^1|/1 /" | sed "s/^/x/" | tr "\n" "|" | sed "s/|$//" | sed "s/x1 4096|x1 904|x1 4096|x1 904/1 4096|1 904|2 4096|2 904/")" &&
	test_eq ok "$($ORACLE check "$S")"
'
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'the blobs decoded by python are the logs'\''s samples (python csv), bit for bit' '
	{ $ORACLE csv "$LOG" && $ORACLE csv "$BIG"; } >"$TMP/csv.txt" &&
	$ORACLE store "$S" >"$TMP/store.txt" &&
	test_eq "$(( $("$PY" "$AMDAHL_ROOT/tests/oracle/nvidia_smi_csv.py" rows "$LOG") + 10000 ))" "$(wc -l <"$TMP/store.txt")" &&
	test_eq "$(sha256sum <"$TMP/csv.txt")" "$(sha256sum <"$TMP/store.txt")"
'
test_expect_success PYTHON,SQLITE3 'gpu_sample shows every sample: amdahl sql and the sqlite3 extension agree with python csv' '
	{ $ORACLE csv "$LOG" && $ORACLE csv "$BIG"; } | six >"$TMP/want6.txt" &&
	test_eq "$(wc -l <"$TMP/want6.txt")" "$(q "$S" "SELECT count(*) FROM gpu_sample")" &&
	test_status 0 "$AMDAHL" --store "$S" sql "SELECT count(*) AS n, count(power_w) AS p FROM gpu_sample" &&
	test_eq "$(wc -l <"$TMP/want6.txt") $(awk -F"|" "\$5 != \"\"" "$TMP/want6.txt" | wc -l)" "$(echo "$OUT" | tail -1 | tr -s " \t" " " | sed "s/^ //")" &&
	test_eq "$(sha256sum <"$TMP/want6.txt")" "$(q "$S" "$ROWS6" | sort | sha256sum)"
'
test_expect_success SQLITE3,SQLITE_STORE 'gpu_sample reads only the asked series (source and GPU bound; a time range skips chunks); it is read-only' '
	test_contains "gpu_sample VIRTUAL TABLE INDEX 0:sg" "$(q "$S" "EXPLAIN QUERY PLAN SELECT * FROM gpu_sample WHERE source_id = 1 AND gpu = 0")" &&
	test_eq 2 "$(q "$S" "SELECT count(*) FROM gpu_sample WHERE ts_ms = 1795347589177 + 197 * 4500")" &&
	test_status 2 "$AMDAHL" --store "$S" sql "DELETE FROM gpu_sample"
'
test_expect_success PYTHON,SQLITE3 'a log ingested without a run, linked after the fact: every sample moves to the run' '
	test_eq 0 "$(q "$S" "SELECT count(run_id) FROM gpu_sample WHERE source_id = (SELECT id FROM source WHERE path LIKE '"'%two-gpus.csv'"')")" &&
	test_status 0 "$AMDAHL" --store "$S" link "$BIG" bf16-b16 &&
	test_eq 10000 "$(q "$S" "SELECT count(*) FROM gpu_sample g JOIN run r ON r.id = g.run_id WHERE r.name = '"'bf16-b16'"'")"
'
# a private clickhouse-server for the push and pull below (as pull.sh)
CH_SCRIPT="$AMDAHL_ROOT/tests/lib/clickhouse.sh"
test_lazy_prereq CLICKHOUSE '[ -n "${AMDAHL_CH_PORT:-}" ] || "$CH_SCRIPT" have'
export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
if [ -z "${AMDAHL_CH_PORT:-}" ] && test_have_prereq CLICKHOUSE; then
	mkdir -p "$TMP/server" && AMDAHL_CH_PORT=$("$CH_SCRIPT" start "$TMP/server") ||
		echo "# clickhouse-server did not start" >&2
	trap '"$CH_SCRIPT" stop "$TMP/server" >/dev/null 2>&1; test_cleanup' EXIT
fi
ch() { curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" "http://127.0.0.1:$AMDAHL_CH_PORT/"; }
test_expect_success CLICKHOUSE,SQLITE3,SQLITE_STORE 'pushed to ClickHouse (a row per sample there) and pulled back: the same samples, packed again' '
	db="clickhouse://amdahl@127.0.0.1:${AMDAHL_CH_PORT:-0}/gpu_layout_$$" &&
	test_status 0 "$AMDAHL" --store "$S" push --to "$db" &&
	test_eq "$(wc -l <"$TMP/want6.txt")" "$(ch "SELECT count() FROM gpu_layout_$$.gpu_sample")" &&
	test_status 0 "$AMDAHL" pull --from "$db" --to "$TMP/pulled.db" &&
	test_eq "$(sha256sum <"$TMP/want6.txt")" "$(q "$TMP/pulled.db" "$ROWS6" | sort | sha256sum)" &&
	test_eq ok "$($ORACLE check "$TMP/pulled.db")" &&
	test_eq "$(q "$S" "$CHUNKS" | sort | sha256sum)" "$(q "$TMP/pulled.db" "$CHUNKS" | sort | sha256sum)" &&
	ch "DROP DATABASE IF EXISTS gpu_layout_$$"
'

# old7 STORE: rewrites STORE's samples in the layout of schema version 7
# (a gpu_sample row per sample with a source index, rowids in time order
# across GPUs as a log gives them) and forgets migration 8
old7() {
	q "$1" "CREATE TABLE gs_rows AS SELECT rowid AS seq, * FROM gpu_sample" &&
	sqlite3 "$1" "BEGIN;
	CREATE TABLE gpu_sample(source_id INTEGER NOT NULL, run_id INTEGER,
	 gpu INTEGER NOT NULL, ts_ms INTEGER NOT NULL, util_pct REAL,
	 mem_util_pct REAL, power_w REAL, mem_used_mib REAL, temp_c REAL);
	INSERT INTO gpu_sample SELECT source_id, run_id, gpu, ts_ms, util_pct, mem_util_pct,
	 power_w, mem_used_mib, temp_c FROM gs_rows ORDER BY source_id, ts_ms, gpu DESC, seq;
	CREATE INDEX gpu_sample_source ON gpu_sample(source_id);
	DROP TABLE gs_rows; DROP TABLE gpu_series;
	DELETE FROM schema_version WHERE version > 7;
	COMMIT;"
}
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'setup: the same store in the layout of schema version 7' '
	cp "$S" "$O" && old7 "$O" &&
	test_eq "$(wc -l <"$TMP/want6.txt")" "$(sqlite3 "$O" "SELECT count(*) FROM gpu_sample")" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name = '"'gpu_series'"'")"
'
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'a schema 7 store: read-only commands ask for an ingest, the next ingest converts it (0 added)' '
	test_status 2 "$AMDAHL" --store "$O" stats --json &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$O" ingest "$BIG" &&
	test_contains "0 added, 0 replaced" "$OUT"
'
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'the converted store: the samples of the logs (sqlite3 against python csv), the same chunk rows, stats --json identical' '
	test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "$O" "SELECT max(version) FROM schema_version")" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name = '"'gpu_sample'"'")" &&
	test_eq "$(sha256sum <"$TMP/want6.txt")" "$(q "$O" "$ROWS6" | sort | sha256sum)" &&
	test_eq "$(series_rows "$S")" "$(series_rows "$O")" &&
	test_status 0 "$AMDAHL" --store "$S" stats --json && want=$OUT &&
	test_status 0 "$AMDAHL" --store "$O" stats --json &&
	test_eq "$want" "$OUT"
'
test_expect_success SQLITE3,SQLITE_STORE 'a damaged blob: one line naming the store and the row, exit 2, the store unchanged' '
	cp "$S" "$TMP/bad.db" &&
	sqlite3 "$TMP/bad.db" "UPDATE gpu_series SET samples = substr(samples, 1, 47) WHERE rowid = (SELECT min(rowid) FROM gpu_series)" &&
	d=$(store_digest "$TMP/bad.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT sum(power_w) AS p FROM gpu_sample" &&
	test_contains "packed samples of 47 bytes" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	test_eq "$d" "$(store_digest "$TMP/bad.db")"
'
test_done
