#!/bin/bash
# hostile_values.sh — malformed values inside well-formed files (issue 40
# item 11), a UTF-8 byte-order mark before every text format (item 10)
# and degenerate statistics (item 15). Every hostile input is made here.
# A malformed value is refused with one line naming the file and the
# place (exit 2, the store as it was) or read by a stated rule.
test_description='hostile values: malformed fields, BOMs, degenerate statistics'
. "$(dirname "$0")/../test-lib.sh"
S="$TMP/s.db"
# refused INPUT TEXT [FILE] — ingesting INPUT exits 2 with one line
# naming FILE (INPUT) and containing TEXT; the store is unchanged
refused() {
	local before
	before=$(store_digest "$S")
	test_status 2 "$AMDAHL" --store "$S" ingest "$1" &&
	test_contains "${3:-$1}: " "$ERR" &&
	test_contains "$2" "$ERR" &&
	test_eq 1 "$(printf '%s\n' "$ERR" | grep -c .)" &&
	test_eq "$before" "$(store_digest "$S")"
}
test_expect_success 'setup: a store with one sweep' '
	"$AMDAHL" --store "$S" ingest -q "$DATA/gpu-batch-sweep"
'

# ---- 11. malformed values ----
EV='{"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": 1, "tid": 1'
trace_json() {
	printf '{"schemaVersion": 1, "deviceProperties": [], "traceEvents": [%s]}\n' "$2" >"$TMP/$1"
}
test_expect_success SQLITE3 'a trace event whose ts or dur is true, false or null: refused naming the event' '
	trace_json tstrue.pt.trace.json "$EV, \"ts\": 5, \"dur\": 1}, $EV, \"ts\": true, \"dur\": 1}" &&
	refused "$TMP/tstrue.pt.trace.json" "byte " &&
	test_contains "event 2 of traceEvents: \"ts\" is true, not a number of microseconds" "$ERR" &&
	trace_json durnull.pt.trace.json "$EV, \"ts\": 5, \"dur\": null}" &&
	refused "$TMP/durnull.pt.trace.json" "event 1 of traceEvents: \"dur\" is null, not a number of microseconds"
'
# mlflow_db DIR — an MLflow SQLite database of the CPU sweep in DIR
mlflow_db() {
	rm -rf "$1" && "$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$DATA/cpu-strong-scaling/mlruns" "$1" >/dev/null
}
test_expect_success PYTHON,SQLITE3 'an mlflow.db metric value stored as a BLOB, a timestamp as text: refused naming the metric, run and step' '
	mlflow_db "$TMP/blob" &&
	run=$(sqlite3 "$TMP/blob/mlflow.db" "SELECT run_uuid FROM metrics WHERE \"key\"='\''epoch_time_s'\'' AND step=1 ORDER BY run_uuid LIMIT 1") &&
	sqlite3 "$TMP/blob/mlflow.db" "UPDATE metrics SET value = x'\''3ff0000000000000'\'' WHERE run_uuid='\''$run'\'' AND \"key\"='\''epoch_time_s'\'' AND step=1" &&
	refused "$TMP/blob/mlflow.db" "metric epoch_time_s of run $run, step 1: value is a BLOB of 8 bytes, not a number" &&
	sqlite3 "$TMP/blob/mlflow.db" "UPDATE metrics SET value = 0.5, timestamp = '\''soon'\'' WHERE run_uuid='\''$run'\'' AND \"key\"='\''epoch_time_s'\'' AND step=1" &&
	refused "$TMP/blob/mlflow.db" "metric epoch_time_s of run $run, step 1: timestamp is text '\''soon'\'', not an integer"
'
# mlruns_edit DIR SED — a copy of an mlruns tree whose first run's
# epoch_time_s file is edited by SED; $RUN that run (its traces, units
# of their own, removed), $M that file
mlruns_edit() {
	rm -rf "$TMP/$1" && cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/$1" &&
	RUN=$(ls -d "$TMP/$1"/*/*/metrics | sort | head -1) && RUN=${RUN%/metrics} &&
	rm -rf "$RUN/artifacts" && M=$RUN/metrics/epoch_time_s &&
	sed -i "$2" "$M"
}
test_expect_success 'a metric line cut after its value in a 3-field file: refused, not a step-0 point' '
	mlruns_edit cut "2s/ [0-9]*\$//" &&
	refused "$RUN" "line 2: 2 fields where line 1 has 3 (timestamp value step): this line cut short?" "$M" &&
	mlruns_edit cut1 "1s/ [0-9]*\$//" &&
	refused "$RUN" "line 2: 3 fields where line 1 has 2 (timestamp value): that line cut short?" "$M"
'
# Nsight Systems export: the tables nsys writes (as tests/e2e/nsys.sh),
# one GPU, saxpy 100-200 and a copy 300-400
nsys_export() {
	rm -f "$1"
	sqlite3 "$1" "
CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, streamId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL);
INSERT INTO StringIds VALUES(1,'saxpy');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(0,'','');
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100,200,0,7,1,1,1),(250,260,0,7,1,1,1);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(300,400,0,4096,1);
$2"
}
test_expect_success SQLITE3 'Nsight kernel rows with a TEXT, NULL or INT64_MAX time: refused naming the table and row' '
	nsys_export "$TMP/text.sqlite" "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES('\''1013000000'\'' || '\''x'\'',500,0,7,1,1,1);" &&
	refused "$TMP/text.sqlite" "table CUPTI_ACTIVITY_KIND_KERNEL row 3: start is text '\''1013000000x'\'', not an integer of nanoseconds" &&
	nsys_export "$TMP/null.sqlite" "CREATE TABLE k2 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; ALTER TABLE k2 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL; INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(NULL,500,0,7,1,1,1);" &&
	refused "$TMP/null.sqlite" "table CUPTI_ACTIVITY_KIND_KERNEL row 3: start is NULL, not an integer of nanoseconds" &&
	nsys_export "$TMP/max.sqlite" "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(500,9223372036854775807,0,7,1,1,1);" &&
	refused "$TMP/max.sqlite" "table CUPTI_ACTIVITY_KIND_KERNEL row 3: end is 9223372036854775807 ns, out of range"
'
test_expect_success SQLITE3,PYTHON 'an Nsight kernel whose name id has no string: counted as (unnamed), in the kernel sum and the compute phase' '
	nsys_export "$TMP/unnamed.sqlite" "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(500,550,0,7,1,99,99);" &&
	test_status 0 "$AMDAHL" --store "$TMP/u.db" ingest "$TMP/unnamed.sqlite" &&
	"$AMDAHL" --store "$TMP/u.db" regions "$TMP/unnamed.sqlite" -n 0 --json >"$TMP/r.json" &&
	test_eq "(unnamed) 1 50 saxpy 2 110" \
		"$(json_get "$TMP/r.json" "\" \".join(\"%s %s %s\" % (r[\"name\"], r[\"calls\"], r[\"total_ns\"]) for r in sorted(d[\"regions\"], key=lambda r: r[\"name\"]) if r[\"kind\"] == \"kernel\")")" &&
	"$AMDAHL" --store "$TMP/u.db" regions "$TMP/unnamed.sqlite" --kind phase -n 0 --json >"$TMP/p.json" &&
	test_eq 160 "$(json_get "$TMP/p.json" "[r[\"total_ns\"] for r in d[\"regions\"] if r[\"name\"] == \"compute\"][0]")" &&
	"$AMDAHL" --store "$TMP/u.db" regions "$TMP/unnamed.sqlite" -n 0 --json >"$TMP/all.json" &&
	test_eq ok "$("$PY" "$AMDAHL_ROOT/tests/oracle/regions_oracle.py" nsys "$TMP/unnamed.sqlite" "$TMP/all.json" 2>&1)"
'
# ---- 10. a UTF-8 byte-order mark before every text format ----
# Every text format's conformance fixture (tests/fixtures/formats; the
# trace's gunzipped, every file of the MLflow run directory marked) is
# ingested plain, with a mark (EF BB BF) and gzipped with a mark, at the
# same path: the stores are the same but for the source's size and hash.
FIX=$AMDAHL_ROOT/tests/fixtures/formats
BINARY="cprofile mlflow-sqlite nsys-sqlite tensorboard"
# plain_copy NAME DST — the fixture of NAME as text (the trace gunzipped)
plain_copy() {
	rm -rf "$2"
	if [ "$1" = torch-trace ]; then gzip -dc "$FIX/$1/input" >"$2"; else cp -r "$FIX/$1/input" "$2"; fi
}
# mark FILE [gz] — FILE with a UTF-8 byte-order mark first (then gzipped)
mark() {
	{ printf '\357\273\277'; cat "$1"; } >"$1.bom" &&
	if [ -n "${2:-}" ]; then gzip -c "$1.bom" >"$1"; rm -f "$1.bom"; else mv "$1.bom" "$1"; fi
}
# facts STORE — the store's dump, the source's size, hash and time zeroed
facts() {
	cp "$(_test_store_file "$1")" "$1.copy" &&
	sqlite3 "$1.copy" "UPDATE source SET size = 0, sha256 = '', ingested_at = 0; UPDATE schema_version SET applied_at = 0" &&
	sqlite3 "$1.copy" .dump
}
for n in $(ls "$FIX"); do
	case " $BINARY " in *" $n "*) continue ;; esac
	test_expect_success SQLITE3 "$n: a UTF-8 byte-order mark first, plain and gzipped, ingests as without it" '
		mkdir -p "$TMP/bom/'"$n"'" && in=$TMP/bom/'"$n"'/input &&
		plain_copy '"$n"' "$in" &&
		"$AMDAHL" --store "$TMP/bom-'"$n"'-0.db" ingest "$in" >/dev/null 2>&1;
		test_eq 1 "$(q "$TMP/bom-'"$n"'-0.db" "SELECT count(*) FROM source")" &&
		for v in mark gz; do
			plain_copy '"$n"' "$in" &&
			if [ -d "$in" ]; then
				find "$in" -type f | while read -r f; do mark "$f" ${v#mark}; done
			else
				mark "$in" ${v#mark}
			fi &&
			test_status 0 "$AMDAHL" --store "$TMP/bom-'"$n"'-$v.db" ingest "$in" &&
			test_eq "$(facts "$TMP/bom-'"$n"'-0.db")" "$(facts "$TMP/bom-'"$n"'-$v.db")" || return 1
		done
	'
done

# An error after a byte-order mark names the file's own byte: the mark's
# three bytes counted, as `cmp` counts them (the same file without the
# mark fails 3 bytes earlier).
for n in torch-trace pyspy-speedscope mlflow-rest; do
	test_expect_success PYTHON "$n: a JSON error after a byte-order mark names the file's byte" '
		plain_copy '"$n"' "$TMP/bomerr-in" &&
		"$PY" -c "import sys; b=open(sys.argv[1],\"rb\").read(); k=len(b)//2; open(sys.argv[2],\"wb\").write(b[:k]+b\"#\"+b[k+1:]); open(sys.argv[3],\"wb\").write(b\"\\xef\\xbb\\xbf\"+b[:k]+b\"#\"+b[k+1:])" \
			"$TMP/bomerr-in" "$TMP/bomerr-'"$n"'.json" "$TMP/bomerr-'"$n"'-marked.json" &&
		test_status 2 "$AMDAHL" --store "$TMP/bomerr.db" ingest "$TMP/bomerr-'"$n"'.json" &&
		b0=$(echo "$ERR" | grep -o "byte [0-9]*" | head -1 | cut -d" " -f2) &&
		test_status 2 "$AMDAHL" --store "$TMP/bomerr.db" ingest "$TMP/bomerr-'"$n"'-marked.json" &&
		b1=$(echo "$ERR" | grep -o "byte [0-9]*" | head -1 | cut -d" " -f2) &&
		test -n "$b0" && test_eq $((b0 + 3)) "$b1"
	'
done

# ---- 15. degenerate statistics ----
# mk_run ROOT NAME STRATEGY N VALUE... — a finished MLflow run of sweep
# "deg" (ROOT/mlruns/1) whose epoch_time_s is VALUE... (epoch 0 first)
mk_run() {
	local root=$1 name=$2 strategy=$3 n=$4 d i=0 t=1795000000000
	shift 4
	mkdir -p "$root/mlruns/1" &&
	printf "experiment_id: '1'\nlifecycle_stage: active\nname: deg\n" >"$root/mlruns/1/meta.yaml" &&
	d=$root/mlruns/1/$(printf '%s' "$name" | sha256sum | cut -c1-32) &&
	mkdir -p "$d/params" "$d/metrics" "$d/tags" &&
	printf "run_name: %s\nrun_uuid: %s\nexperiment_id: '1'\nlifecycle_stage: active\nstatus: 3\nstart_time: %s\nend_time: %s\n" \
		"$name" "${d##*/}" $t $((t + 1000)) >"$d/meta.yaml" &&
	printf '%s' "$strategy" >"$d/params/strategy" &&
	printf '%s' "$n" >"$d/params/world_size" &&
	for v in "$@"; do
		printf '%s %s %s\n' $((t + i)) "$v" $i >>"$d/metrics/epoch_time_s"
		i=$((i + 1))
	done
}
# finite_json FILE — FILE is JSON without NaN or Infinity, and every
# interval {lo, hi} has lo <= hi
finite_json() {
	"$PY" -c '
import json, sys
def refuse(c):
    raise ValueError("a non-finite number: " + c)
def walk(x, at):
    if isinstance(x, dict):
        if isinstance(x.get("lo"), (int, float)) and isinstance(x.get("hi"), (int, float)) and x["lo"] > x["hi"]:
            sys.exit("inverted interval at %s: %r" % (at, x))
        for k, v in x.items():
            walk(v, at + "." + k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            walk(v, "%s[%d]" % (at, i))
walk(json.load(open(sys.argv[1]), parse_constant=refuse), "")
' "$1"
}
# no_nan — neither $OUT nor $ERR prints nan or inf as a result (an input
# value named as why an epoch was left out, "impossible epoch_time_s:
# inf", is not one)
no_nan() {
	test_true "no nan or inf in: $OUT$ERR" \
		sh -c '! printf "%s\n%s\n" "$1" "$2" | sed -E "s/impossible [a-z_]+: [-+]?(nan|inf)//g" |
			grep -Eiwq "[-+]?(nan|inf|infinity)"' - "$OUT" "$ERR"
}
test_expect_success 'setup: degenerate sweeps: one run, all-equal times, a single n, 1e308 with 1e-308, NaN and inf epochs, zero times' '
	mk_run "$TMP/deg/one" r1 ddp 1 2.0 2.0 2.0 &&
	for n in 1 2 4; do for r in 0 1 2; do
		mk_run "$TMP/deg/equal" r$n-$r ddp $n 2.0 2.0 2.0 &&
		mk_run "$TMP/deg/zero" r$n-$r ddp $n 0 0 0 &&
		mk_run "$TMP/deg/nonfinite" r$n-$r ddp $n NaN Infinity 1.0 -Infinity || return 1
	done; done &&
	for r in 0 1 2; do mk_run "$TMP/deg/single" r$r ddp 4 1.0 1.1 0.9 || return 1; done &&
	mk_run "$TMP/deg/huge" a ddp 1 1e308 1e308 && mk_run "$TMP/deg/huge" b ddp 2 1e-308 1e-308 &&
	mk_run "$TMP/deg/huge" c ddp 4 1e308 1e-308 &&
	for n in 1 2; do for r in 0 1 2; do
		mk_run "$TMP/deg/gate" a$n$r a $n 1.0 1.0$r 1.1 &&
		mk_run "$TMP/deg/gate" b$n$r b $n 0 0 -1 || return 1
	done; done &&
	for s in one equal zero nonfinite single huge gate; do
		"$AMDAHL" --store "$TMP/deg-$s.db" ingest -q "$TMP/deg/$s" || return 1
	done
'
for s in one equal zero nonfinite single huge; do
	test_expect_success "degenerate sweep '$s': stats and runs print defined numbers or say why not" '
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" stats && no_nan &&
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" stats --json &&
		printf "%s\n" "$OUT" >"$TMP/deg.json" && finite_json "$TMP/deg.json" &&
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" runs && no_nan &&
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" runs --json &&
		printf "%s\n" "$OUT" >"$TMP/deg.json" && finite_json "$TMP/deg.json"
	'
done
for s in one equal nonfinite single huge; do
	test_expect_success "degenerate sweep '$s': compare and gate against itself: finite JSON, no inverted interval" '
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" compare --baseline deg --candidate deg --json &&
		printf "%s\n" "$OUT" >"$TMP/c.json" && finite_json "$TMP/c.json" &&
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" compare --baseline deg --candidate deg && no_nan &&
		"$AMDAHL" --store "$TMP/deg-'"$s"'.db" gate --baseline deg --candidate deg --json >"$TMP/g.json" 2>"$TMP/err";
		test_true "gate exit 0 or 3 (insufficient data)" test $? = 0 -o $? = 3 &&
		finite_json "$TMP/g.json"
	'
	test_expect_success PDFTOTEXT "degenerate sweep '$s': report build: no nan or inf in the PDF, finite report.json" '
		rm -rf "$TMP/rep" &&
		test_status 0 "$AMDAHL" --store "$TMP/deg-'"$s"'.db" report build -o "$TMP/rep" &&
		finite_json "$TMP/rep/report.json" &&
		OUT=$(pdftotext "$TMP/rep/report.pdf" -) && ERR= && no_nan
	'
done
test_expect_success 'a sweep whose every epoch is impossible: compare and gate name the runs left out (was: "share no configuration")' '
	test_status 2 "$AMDAHL" --store "$TMP/deg-zero.db" gate --baseline deg --candidate deg &&
	test_contains "amdahl gate: baseline '\''deg'\'': no run to compare: all 9 runs were left out (r" "$ERR" &&
	test_contains ": no epoch left after the rules (epoch 0 (warm-up), epoch 1 (impossible epoch_time_s: 0)" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_status 2 "$AMDAHL" --store "$TMP/deg-zero.db" scaling &&
	test_eq "amdahl scaling: $(store_name "$TMP/deg-zero.db"): sweep deg has no profiler traces of counted runs" "$ERR"
'
test_expect_success 'all-equal times: the Amdahl fit says why it has no R² (was: R² nan)' '
	test_status 0 "$AMDAHL" --store "$TMP/deg-equal.db" stats &&
	test_contains "Amdahl fit T(n) = 2 + 0/n: serial fraction 1.000" "$OUT" &&
	test_contains "(no R²: T(n) is the same at every n)" "$OUT"
'
test_expect_success 'times of 1e308 and 1e-308: the Amdahl fit is finite (was: R² -nan; -inf + inf/n)' '
	test_status 0 "$AMDAHL" --store "$TMP/deg-huge.db" stats --json &&
	printf "%s\n" "$OUT" >"$TMP/huge.json" &&
	test_eq "-5e+307 1.4285714285714e+308 0.893" "$(json_get "$TMP/huge.json" "\"%g %.14g %.3f\" % tuple(d[\"sweeps\"][0][\"strategies\"][0][\"amdahl\"][k] for k in (\"a\", \"b\", \"r2\"))")"
'
test_expect_success NUMPY 'the 1e308 fit equals numpy least squares of T/1e308 on 1/n, scaled back' '
	test_eq "-5e+307 1.4285714285714e+308" "$("$PY" -c "
import numpy as np
n = np.array([1.0, 2.0, 4.0]); t = np.array([1.0, 0.0, 0.0])  # 1e308, then 1e-308 twice (epoch 0 left out)
c1, c0 = np.polyfit(1 / n, t, 1)
print(\"%g %.14g\" % (c0 * 1e308, c1 * 1e308))")"
'
test_expect_success 'a candidate whose every epoch is impossible: gate and compare say so, not "no strategy"' '
	test_status 2 "$AMDAHL" --store "$TMP/deg-gate.db" gate --baseline deg:a --candidate deg:b &&
	test_eq "amdahl gate: sweep '\''deg'\'', strategy '\''b'\'': no run to compare: all 6 runs were left out (b10: no epoch left after the rules (epoch 0 (warm-up), epoch 1 (impossible epoch_time_s: 0), epoch 2 (impossible epoch_time_s: -1)))" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/deg-gate.db" compare --baseline deg:a --candidate deg:b &&
	test_contains "no run to compare: all 6 runs were left out" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/deg-gate.db" gate --baseline deg:a --candidate deg:c &&
	test_contains "sweep '\''deg'\'' has no strategy '\''c'\''" "$ERR"
'
test_expect_success 'a sweep of one run: the heading says "1 run" (was: "1 runs")' '
	test_status 0 "$AMDAHL" --store "$TMP/deg-one.db" stats &&
	test_contains "sweep deg: epoch_time_s by n (world size), 1 run (0 left out)" "$OUT"
'
test_expect_success 'zero noise: a perfectly scaling sweep gets a USL fit, α = β = 0 (was: did not converge); flat times get α = 1' '
	for n in 1 2 4 8; do
		mk_run "$TMP/deg/perfect" p$n ddp $n 9 $((8 / n)) $((8 / n)) &&
		mk_run "$TMP/deg/flat" f$n ddp $n 9 2.0 2.0 || return 1
	done &&
	"$AMDAHL" --store "$TMP/deg-perfect.db" ingest -q "$TMP/deg/perfect" &&
	"$AMDAHL" --store "$TMP/deg-flat.db" ingest -q "$TMP/deg/flat" &&
	test_status 0 "$AMDAHL" --store "$TMP/deg-perfect.db" stats && no_nan &&
	test_contains "USL fit: α 0, β 0, γ 0.125; no peak (β = 0: throughput rises with n throughout)" "$OUT" &&
	test_status 0 "$AMDAHL" --store "$TMP/deg-flat.db" stats && no_nan &&
	test_contains "USL fit: α 1, β 0, γ 0.5; no peak: α = 1, β = 0, throughput is the same at every n" "$OUT"
'
test_expect_success 'one run a side, a single n: gate says the data are insufficient (exit 3), JSON finite' '
	test_status 3 "$AMDAHL" --store "$TMP/deg-single.db" gate --baseline deg:ddp --candidate deg:ddp --json &&
	printf "%s\n" "$OUT" >"$TMP/g.json" && finite_json "$TMP/g.json"
'

test_done
