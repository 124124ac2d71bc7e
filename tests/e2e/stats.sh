#!/bin/bash
# stats.sh — `amdahl stats` against an independent oracle
# (tests/oracle/stats_oracle.py: numpy/scipy reading the MLflow files and
# trace files directly) on the real sweeps in testdata/, plus the scaling
# facts each sweep is known for and the command's edges.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
ORACLE="$AMDAHL_ROOT/tests/oracle/stats_oracle.py"
COMPARE="$AMDAHL_ROOT/tests/oracle/compare_stats.py"

# jget FILE EXPR — a value from a JSON file; `d` is the document,
# `sw(name)` a sweep, `st(name, strategy)` a strategy, `pt(name, s, n)` a point.
jget() {
  $PY - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def sw(name): return next(s for s in d["sweeps"] if s["sweep"] == name)
def st(name, strat): return next(s for s in sw(name)["strategies"] if s["strategy"] == strat)
def pt(name, strat, n): return next(p for p in st(name, strat)["points"] if p["n"] == n)
print(eval(sys.argv[2]))
EOF
}

# compare_oracle DESC AMDAHL_JSON ORACLE_JSON — one recorded check per line.
compare_oracle() {
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) pass "$1: ${line#ok - }";;
      "not ok - "*) fail "$1: ${line#not ok - }";;
      "#"*) echo "$line";;
    esac
  done < <($PY "$COMPARE" "$2" "$3")
}

# ingest_with_windows DB DIR — ingest DIR; when no trace parser recorded
# the profiler windows of DIR's trace files, record them (start/end in
# the trace table, computed by the oracle from the files) so the
# profiled-epoch rule is exercised on the real sweep either way; the same
# for itwinai's torch_profiling_averages.csv rows (op_average).
ingest_with_windows() {
  "$AMDAHL" --store "$1" ingest "$2" >/dev/null 2>&1
  if [ "$(q "$1" 'SELECT count(*) FROM trace')" = 0 ]; then
    $PY "$ORACLE" --windows-sql "$2" | sqlite3 "$1"
  fi
  if [ "$(q "$1" 'SELECT count(*) FROM op_average')" = 0 ]; then
    $PY "$ORACLE" --ops-sql "$2" | sqlite3 "$1"
  fi
}

# ---- cpu-strong-scaling: DDP and FSDP, 1..8 ranks, 3 repeats, failed runs ----
CPU="$DATA/cpu-strong-scaling/mlruns"
DB="$TMP/cpu.db"
ingest_with_windows "$DB" "$CPU"
status "stats --json on cpu-strong-scaling" 0 "$AMDAHL" --store "$DB" stats --json
echo "$OUT" >"$TMP/cpu.json"
$PY "$ORACLE" "$CPU" >"$TMP/cpu.oracle.json"
compare_oracle cpu "$TMP/cpu.json" "$TMP/cpu.oracle.json"

s1=$(jget "$TMP/cpu.json" 'pt("cpu-strong-scaling","ddp",1)["speedup"]')
s4=$(jget "$TMP/cpu.json" 'pt("cpu-strong-scaling","ddp",4)["speedup"]')
s8=$(jget "$TMP/cpu.json" 'pt("cpu-strong-scaling","ddp",8)["speedup"]')
eq "DDP speedup at 8 > at 4 > 1 ($s8 > $s4 > $s1)" yes \
  "$(awk -v a="$s8" -v b="$s4" -v c="$s1" 'BEGIN{print (a>b && b>c && c==1) ? "yes" : "no"}')"
f4=$(jget "$TMP/cpu.json" 'pt("cpu-strong-scaling","fsdp",4)["median"]')
f8=$(jget "$TMP/cpu.json" 'pt("cpu-strong-scaling","fsdp",8)["median"]')
eq "FSDP median at 8 slower than at 4 ($f8 s > $f4 s)" yes \
  "$(awk -v a="$f8" -v b="$f4" 'BEGIN{print (a>b) ? "yes" : "no"}')"
eq "the base of each strategy is its smallest n" "1.0 1.0" \
  "$(jget "$TMP/cpu.json" 'st("cpu-strong-scaling","ddp")["base"]["n"]*1.0') $(jget "$TMP/cpu.json" 'st("cpu-strong-scaling","fsdp")["base"]["n"]*1.0')"
eq "failed and running launches are left out with their status" "FAILED FAILED FAILED FAILED RUNNING" \
  "$(jget "$TMP/cpu.json" '" ".join(sorted(r["excluded"] for r in sw("cpu-strong-scaling")["excluded"]))')"
eq "repeat 0 of ddp-n4 loses its profiled last epoch" "epoch 0 (warm-up), epoch 2 (profiled)" \
  "$(jget "$TMP/cpu.json" 'next(r for r in pt("cpu-strong-scaling","ddp",4)["run_values"] if r["repeat"]==0)["excluded"]')"
eq "the other repeats keep epochs 1 and 2" "2 2" \
  "$(jget "$TMP/cpu.json" '" ".join(str(r["epochs_kept"]) for r in pt("cpu-strong-scaling","ddp",4)["run_values"] if r["repeat"]>0)')"
eq "USL reports a peak n* = sqrt((1-alpha)/beta)" yes \
  "$(jget "$TMP/cpu.json" '"yes" if abs(st("cpu-strong-scaling","fsdp")["usl"]["n_peak"] - ((1-st("cpu-strong-scaling","fsdp")["usl"]["alpha"])/st("cpu-strong-scaling","fsdp")["usl"]["beta"])**0.5) < 1e-12 else "no"')"

status "stats table on cpu-strong-scaling" 0 "$AMDAHL" --store "$DB" stats
contains "table names the base with its time" "strategy fsdp (base n=1: " "$OUT"
contains "table says FSDP at 8 is slower than at 4" "n=8 is slower than n=4" "$OUT"
contains "table states the rules" "excluding epoch 0 (warm-up) and epochs overlapping a profiler trace window" "$OUT"
contains "table states the CI method" "percentile bootstrap, 4000 resamples, mt19937 seed 20260101" "$OUT"
contains "table lists a failed launch" "left out: fsdp-n1 (fsdp, repeat 0, d93f7848477a41139ea3f1d681956d13): FAILED" "$OUT"
contains "table shows the Amdahl fit" "Amdahl fit T(n) = " "$OUT"
contains "table shows the USL peak" "predicted peak at n* = " "$OUT"

# the options change what is kept, and say so
status "--keep-first --keep-profiled" 0 "$AMDAHL" --store "$DB" stats --keep-first --keep-profiled --json
echo "$OUT" >"$TMP/keep.json"
eq "--keep-first --keep-profiled keeps all 3 epochs" "3 3 3" \
  "$(jget "$TMP/keep.json" '" ".join(str(r["epochs_kept"]) for r in pt("cpu-strong-scaling","ddp",4)["run_values"])')"
contains "--keep-profiled is stated" "keeping every epoch" "$(jget "$TMP/keep.json" 'sw("cpu-strong-scaling")["rules"]')"
v=$(jget "$TMP/keep.json" 'sorted(r["value"] for r in pt("cpu-strong-scaling","ddp",4)["run_values"])[0]')
want=$($PY -c "
import numpy
rows=[l.split() for l in open('$CPU/4/4702227e39104ce1aabab82ead44325c/metrics/epoch_time_s')]
print(repr(float(numpy.median([float(r[1]) for r in rows]))))")
near "a run's value is the median of all its epochs when every epoch is kept" "$want" \
  "$(jget "$TMP/keep.json" 'next(r["value"] for r in pt("cpu-strong-scaling","ddp",4)["run_values"] if r["id"]=="4702227e39104ce1aabab82ead44325c")')" 1e-12

# a run with traces whose window is unknown: its last epoch counts as profiled
cp "$DB" "$TMP/fallback.db"
sqlite3 "$TMP/fallback.db" "INSERT INTO trace(run_id, source_id) SELECT id, 0 FROM run WHERE ext_id='4702227e39104ce1aabab82ead44325c'"
"$AMDAHL" --store "$TMP/fallback.db" stats --json >"$TMP/fallback.json"
eq "traces without a window: the last epoch is taken as profiled, and the rule is named" \
  "epoch 0 (warm-up), epoch 2 (profiled) | run has traces, window unknown: last epoch" \
  "$(jget "$TMP/fallback.json" '" | ".join(next((r["excluded"], r["profiled_rule"]) for r in pt("cpu-strong-scaling","ddp",4)["run_values"] if r["id"]=="4702227e39104ce1aabab82ead44325c"))')"

# trace-derived shares: phases and collectives recorded for one run's 4
# ranks (ddp-n4 repeat 0) — compute 50% of each window, communication
# 25%; collective #1 ends 2 ms apart on ranks 0 and 3
cp "$DB" "$TMP/phase.db"
R0=0f632a7e14d34cde900d24a3703565cb
sqlite3 "$TMP/phase.db" "
DELETE FROM trace_phase WHERE trace_id IN (SELECT t.id FROM trace t JOIN run r ON r.id = t.run_id WHERE r.ext_id = '$R0');
DELETE FROM trace_collective WHERE trace_id IN (SELECT t.id FROM trace t JOIN run r ON r.id = t.run_id WHERE r.ext_id = '$R0');
DELETE FROM trace WHERE run_id IN (SELECT id FROM run WHERE strategy = 'fsdp');
INSERT OR IGNORE INTO dict(s) VALUES('compute'),('communication'),('allreduce');
INSERT INTO trace_phase SELECT t.id, d.id, (t.end_ns - t.start_ns) / 2 FROM trace t, dict d, run r
  WHERE r.id = t.run_id AND r.ext_id = '$R0' AND d.s = 'compute';
INSERT INTO trace_phase SELECT t.id, d.id, (t.end_ns - t.start_ns) / 4 FROM trace t, dict d, run r
  WHERE r.id = t.run_id AND r.ext_id = '$R0' AND d.s = 'communication';
INSERT INTO trace_collective(trace_id, name_id, seq, start_ns, dur_ns)
  SELECT t.id, d.id, 1, 1000, CASE t.rank WHEN 3 THEN 2000000 ELSE 0 END FROM trace t, dict d, run r
  WHERE r.id = t.run_id AND r.ext_id = '$R0' AND d.s = 'allreduce' AND t.rank IN (0, 3);"
"$AMDAHL" --store "$TMP/phase.db" stats --json >"$TMP/phase.json"
eq "phase shares: compute and communication of the window, comm share, straggler spread" \
  "0.5 0.25 0.333333 2" \
  "$(jget "$TMP/phase.json" '"%.6g %.6g %.6g %.6g" % (pt("cpu-strong-scaling","ddp",4)["phase_share"]["compute"], pt("cpu-strong-scaling","ddp",4)["phase_share"]["communication"], pt("cpu-strong-scaling","ddp",4)["comm_share"], pt("cpu-strong-scaling","ddp",4)["straggler_ns"]/1e6)')"
eq "no traces (fsdp's removed): no phase shares, and no profiled epoch either" "False | None | epoch 0 (warm-up)" \
  "$(jget "$TMP/phase.json" '" | ".join(str(v) for v in (pt("cpu-strong-scaling","fsdp",4)["has_trace"], pt("cpu-strong-scaling","fsdp",4)["phase_share"]["compute"], pt("cpu-strong-scaling","fsdp",4)["run_values"][0]["excluded"]))')"
status "the profile table appears with traces" 0 "$AMDAHL" --store "$TMP/phase.db" stats
contains "profile table" "comp fraction as itwinai: counts overlap twice" "$OUT"

# ---- itwinai layout: child workers folded in, 2 repeats, slower with more GPUs ----
IT="$DATA/itwinai-layout/mllogs/mlflow"
DB2="$TMP/it.db"
ingest_with_windows "$DB2" "$IT"
status "stats --json on the itwinai layout" 0 "$AMDAHL" --store "$DB2" stats --json
echo "$OUT" >"$TMP/it.json"
$PY "$ORACLE" "$IT" >"$TMP/it.oracle.json"
compare_oracle itwinai "$TMP/it.json" "$TMP/it.oracle.json"
eq "itwinai: speedup below 1 at n=2 and n=4" yes \
  "$(jget "$TMP/it.json" '"yes" if pt("mnist-scaling","torch-ddp",2)["speedup"] < 1 and pt("mnist-scaling","torch-ddp",4)["speedup"] < 1 else "no"')"
eq "itwinai: 2 runs per point give no CI, and say why" "n=2: no CI" \
  "$(jget "$TMP/it.json" 'pt("mnist-scaling","torch-ddp",2)["ci"]["why"]')"
eq "itwinai: energy from power x probing interval, per GPU and run" yes \
  "$(jget "$TMP/it.json" '"yes" if pt("mnist-scaling","torch-ddp",4)["energy_solution_j"] > 0 and sw("mnist-scaling")["has_energy"] else "no"')"
eq "itwinai: computation fraction (ATen/c10/autograd self CUDA time over all but ProfilerStep*) falls with n" yes \
  "$(jget "$TMP/it.json" '"yes" if 0 < pt("mnist-scaling","torch-ddp",4)["comp_fraction"] < pt("mnist-scaling","torch-ddp",1)["comp_fraction"] < 1 else "no"')"
status "stats table on the itwinai layout" 0 "$AMDAHL" --store "$DB2" stats
contains "itwinai: the table says plainly it is slower" "n=2 is slower than n=1 (speedup 0." "$OUT"
contains "itwinai: n=2: no CI in the table" "n=2: no CI" "$OUT"
contains "itwinai: energy table" "J/epoch/GPU" "$OUT"
contains "itwinai: a fit that cannot apply says so" "time grows with n, Amdahl's law does not describe it" "$OUT"
contains "itwinai: USL refused below 4 distinct n, with the reason" "USL fit refused: USL needs at least 4 distinct n (3 parameters), have 3" "$OUT"

# ---- gpu-batch-sweep: batch size as the axis (throughput, energy per sample) ----
GB="$DATA/gpu-batch-sweep/mlruns"
DB3="$TMP/gb.db"
ingest_with_windows "$DB3" "$GB"
status "stats --axis global_batch_size --json" 0 "$AMDAHL" --store "$DB3" stats --axis global_batch_size --json
echo "$OUT" >"$TMP/gb.json"
$PY "$ORACLE" --axis global_batch_size "$GB" >"$TMP/gb.oracle.json"
compare_oracle batch "$TMP/gb.json" "$TMP/gb.oracle.json"
eq "batch axis: no speedup, energy per sample from gpu_energy_J" "None True" \
  "$(jget "$TMP/gb.json" 'pt("gpu-batch-sweep","bf16",64)["speedup"], pt("gpu-batch-sweep","bf16",64)["energy_per_sample_j"] > 0' | tr -d '(),')"
status "stats --axis table" 0 "$AMDAHL" --store "$DB3" stats --axis global_batch_size
contains "batch axis: the table says why there is no speedup" "axis is global_batch_size, not the world size" "$OUT"
contains "batch axis: energy per sample column" "J/sample" "$OUT"

# ---- several sweeps, errors ----
"$AMDAHL" --store "$DB" ingest "$IT" >/dev/null 2>&1
status "stats with two sweeps" 0 "$AMDAHL" --store "$DB" stats
contains "both sweeps shown (cpu)" "sweep cpu-strong-scaling:" "$OUT"
contains "both sweeps shown (itwinai)" "sweep mnist-scaling:" "$OUT"
status "stats --sweep picks one" 0 "$AMDAHL" --store "$DB" stats --sweep mnist-scaling --json
eq "--sweep: one sweep in the JSON" "1 mnist-scaling" "$(echo "$OUT" | $PY -c 'import json,sys; d=json.load(sys.stdin)["sweeps"]; print(len(d), d[0]["sweep"])')"
status "unknown sweep: exit 2" 2 "$AMDAHL" --store "$DB" stats --sweep nope
contains "unknown sweep: the error names the sweeps" "no sweep named 'nope' (sweeps: cpu-strong-scaling, mnist-scaling)" "$ERR"
status "missing store: exit 2" 2 "$AMDAHL" --store "$TMP/none.db" stats
status "--resamples below 2000 refused" 2 "$AMDAHL" --store "$DB" stats --resamples 100
status "--help" 0 "$AMDAHL" stats --help
contains "--help lists --axis" "--axis P" "$OUT"
status "a metric nobody logged: runs left out with the reason" 0 "$AMDAHL" --store "$DB2" stats --metric no_such_metric
contains "missing metric named" "no no_such_metric logged" "$OUT"
