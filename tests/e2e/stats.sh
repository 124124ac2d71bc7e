#!/bin/bash
# stats.sh — `amdahl stats` against an independent oracle
# (tests/oracle/stats_oracle.py: numpy/scipy reading the MLflow files and
# trace files directly) on the real sweeps in testdata/, plus the scaling
# facts each sweep is known for and the command's edges.
test_description='amdahl stats against the numpy/scipy oracle on the bundled sweeps'
. "$(dirname "$0")/../test-lib.sh"
ORACLE="$AMDAHL_ROOT/tests/oracle/stats_oracle.py"
COMPARE="$AMDAHL_ROOT/tests/oracle/compare_stats.py"

. "$AMDAHL_ROOT/tests/oracle/compare_oracle.sh" # compare_oracle

# ingest_with_windows DB DIR — ingest DIR; when no trace parser recorded
# the profiler windows of DIR's trace files, record them (start/end in
# the trace table, computed by the oracle from the files) so the
# profiled-epoch rule is exercised on the real sweep either way; the same
# for itwinai's torch_profiling_averages.csv rows (op_average).
ingest_with_windows() {
	"$AMDAHL" --store "$1" ingest "$2" >/dev/null 2>&1
	if [ "$(q "$1" 'SELECT count(*) FROM trace')" = 0 ]; then
		"$PY" "$ORACLE" --windows-sql "$2" | sqlite3 "$1"
	fi
	if [ "$(q "$1" 'SELECT count(*) FROM op_average')" = 0 ]; then
		"$PY" "$ORACLE" --ops-sql "$2" | sqlite3 "$1"
	fi
}

# ---- cpu-strong-scaling: DDP and FSDP, 1..8 ranks, 3 repeats, failed runs ----
CPU="$DATA/cpu-strong-scaling/mlruns"
DB="$TMP/cpu.db"
test_expect_success SQLITE3,NUMPY,SCIPY 'setup: ingest cpu-strong-scaling with its profiler windows' '
	ingest_with_windows "$DB" "$CPU"
'
test_expect_success 'setup: stats --json on cpu-strong-scaling (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB" stats --json &&
	cp "$TMP/out" "$TMP/cpu.json"
'
test_expect_success NUMPY,SCIPY "setup: the oracle's reading of cpu-strong-scaling" '
	"$PY" "$ORACLE" "$CPU" >"$TMP/cpu.oracle.json"
'
test_expect_success NUMPY,SCIPY 'cpu: runs left out, strategies, points, CIs and fits agree with the oracle' '
	compare_oracle "$TMP/cpu.json" "$TMP/cpu.oracle.json"
'
test_expect_success 'a median interval of 3 runs is [min, max] at its own level, 75%, not a false 95% (issue 33)' '
	test_eq "0.75 True" "$(json_get "$TMP/cpu.json" "(lambda p: \"%g %s\" % (p[\"ci\"][\"level\"], p[\"ci\"][\"lo\"] == p[\"min\"] and p[\"ci\"][\"hi\"] == p[\"max\"]))(point(\"ddp\", 1))")" &&
	test_status 0 "$AMDAHL" --store "$DB" stats &&
	test_contains "[5.541, 5.886] (75%)" "$OUT" &&
	test_contains "a percentage after an interval is its own coverage, below the stated 95%" "$OUT"
'
test_expect_success 'a speedup interval of 3 runs a side says its simulated coverage, 89% (issue 33)' '
	test_eq "0.89 0.89" "$(json_get "$TMP/cpu.json" "\"%g %g\" % (point(\"ddp\", 2)[\"speedup_ci\"][\"level\"], point(\"ddp\", 2)[\"efficiency_ci\"][\"level\"])")" &&
	test_status 0 "$AMDAHL" --store "$DB" stats &&
	test_contains "2.00 [1.71, 2.05] (89%)" "$OUT" &&
	test_contains "a speedup interval with 3 runs on a side covers about 89%" "$OUT"
'
test_expect_success 'DDP speedup at 8 > at 4 > at 1 = 1' '
	s1=$(json_get "$TMP/cpu.json" "point(\"ddp\", 1)[\"speedup\"]")
	s4=$(json_get "$TMP/cpu.json" "point(\"ddp\", 4)[\"speedup\"]")
	s8=$(json_get "$TMP/cpu.json" "point(\"ddp\", 8)[\"speedup\"]")
	test_eq "yes ($s8 > $s4 > $s1)" \
		"$(awk -v a="$s8" -v b="$s4" -v c="$s1" "BEGIN{print (a>b && b>c && c==1) ? \"yes\" : \"no\"}") ($s8 > $s4 > $s1)"
'
test_expect_success 'FSDP median at 8 is slower than at 4' '
	f4=$(json_get "$TMP/cpu.json" "point(\"fsdp\", 4)[\"median\"]")
	f8=$(json_get "$TMP/cpu.json" "point(\"fsdp\", 8)[\"median\"]")
	test_eq "yes ($f8 s > $f4 s)" "$(awk -v a="$f8" -v b="$f4" "BEGIN{print (a>b) ? \"yes\" : \"no\"}") ($f8 s > $f4 s)"
'
test_expect_success 'the base of each strategy is its smallest n' '
	test_eq "1.0 1.0" \
		"$(json_get "$TMP/cpu.json" "strategy(\"ddp\")[\"base\"][\"n\"]*1.0") $(json_get "$TMP/cpu.json" "strategy(\"fsdp\")[\"base\"][\"n\"]*1.0")"
'
test_expect_success 'failed and running launches are left out with their status' '
	test_eq "FAILED FAILED FAILED FAILED RUNNING" \
		"$(json_get "$TMP/cpu.json" "\" \".join(sorted(r[\"excluded\"] for r in sweep()[\"excluded\"]))")"
'
test_expect_success 'repeat 0 of ddp-n4 loses its profiled last epoch' '
	test_eq "epoch 0 (warm-up), epoch 2 (profiled)" \
		"$(json_get "$TMP/cpu.json" "first(point(\"ddp\", 4)[\"run_values\"], repeat=0)[\"excluded\"]")"
'
test_expect_success 'the other repeats of ddp-n4 keep epochs 1 and 2' '
	test_eq "2 2" \
		"$(json_get "$TMP/cpu.json" "\" \".join(str(r[\"epochs_kept\"]) for r in point(\"ddp\", 4)[\"run_values\"] if r[\"repeat\"] > 0)")"
'
test_expect_success 'USL under alpha, beta >= 0: both strategies fit unconstrained with alpha < 0, so alpha = 0 and no peak (issue 33)' '
	test_eq "ddp True 0 None -0.104 fsdp True 0 None -0.197" "$(json_get "$TMP/cpu.json" "\" \".join(\"%s %s %g %s %.3f\" % (s[\"strategy\"], s[\"usl\"][\"bounded\"], s[\"usl\"][\"alpha\"], s[\"usl\"][\"n_peak\"], s[\"usl\"][\"unconstrained_alpha\"]) for s in sweep()[\"strategies\"])")"
'
test_expect_success 'stats says the unconstrained USL fit is not physical instead of predicting a peak (issue 33)' '
	test_status 0 "$AMDAHL" --store "$DB" stats &&
	test_contains "USL fit (α, β ≥ 0): α 0, β " "$OUT" &&
	test_contains "not physical unconstrained (α = -0.197 < 0): no peak predicted" "$OUT" &&
	test_not_contains "predicted peak" "$OUT"
'
test_expect_success 'stats table: the base with its time, n=8 slower than n=4, the rules and the CI method' '
	test_status 0 "$AMDAHL" --store "$DB" stats
	test_contains "strategy fsdp (base n=1: " "$OUT"
	test_contains "n=8 is slower than n=4" "$OUT"
	test_contains "excluding epoch 0 (warm-up) and epochs overlapping a profiler trace window" "$OUT"
	test_contains "percentile bootstrap, 4000 resamples, mt19937 seed 20260101" "$OUT"
'
test_expect_success 'stats table: a failed launch left out, the Amdahl fit and the USL fit' '
	test_status 0 "$AMDAHL" --store "$DB" stats
	test_contains "left out: fsdp-n1 (fsdp, repeat 0, d93f7848477a41139ea3f1d681956d13): FAILED" "$OUT"
	test_contains "Amdahl fit T(n) = " "$OUT"
	test_contains "USL fit (α, β ≥ 0): " "$OUT"
'

test_expect_success NUMPY,SCIPY 'the serial fraction'"'"'s interval says what it covers (3 runs at 4 n: 90%), as a seeded simulation of the same bootstrap on Amdahl sweeps finds' '
	test_eq "ddp 0.9 fsdp 0.9" "$(json_get "$TMP/cpu.json" "\" \".join(\"%s %g\" % (st[\"strategy\"], st[\"amdahl\"][\"serial_fraction_ci\"][\"level\"]) for s in d[\"sweeps\"] for st in s[\"strategies\"] if st[\"amdahl\"][\"serial_fraction_ci\"])")" &&
	test_eq ok "$("$PY" -c "
import sys, numpy as np
sys.path.insert(0, \"$AMDAHL_ROOT/tests/eval\")
from small_sample import serial_cover
c = np.mean([serial_cover(np.random.default_rng(7), d, (1, 2, 4, 8), 3, 400, 1000) for d in (\"normal\", \"lognormal\")])
print(\"ok\" if 0.90 - 3 * (0.9 * 0.1 / 800) ** 0.5 < c < 0.93 else c)")" &&
	test_status 0 "$AMDAHL" --store "$DB" stats &&
	test_contains "$(json_get "$TMP/cpu.json" "next(\"serial fraction %.3f [%.3f, %.3f] (90%%)\" % (a[\"serial_fraction\"], a[\"serial_fraction_ci\"][\"lo\"], a[\"serial_fraction_ci\"][\"hi\"]) for s in d[\"sweeps\"] for st in s[\"strategies\"] for a in [st[\"amdahl\"]] if st[\"strategy\"] == \"ddp\")")" "$OUT"
'

# the options change what is kept, and say so
test_expect_success 'setup: stats --keep-first --keep-profiled --json (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB" stats --keep-first --keep-profiled --json &&
	cp "$TMP/out" "$TMP/keep.json"
'
test_expect_success '--keep-first --keep-profiled keeps all 3 epochs, and says so' '
	test_eq "3 3 3" \
		"$(json_get "$TMP/keep.json" "\" \".join(str(r[\"epochs_kept\"]) for r in point(\"ddp\", 4)[\"run_values\"])")"
	test_contains "keeping every epoch" "$(json_get "$TMP/keep.json" "sweep()[\"rules\"]")"
'
test_expect_success NUMPY "a run's value is the median of all its epochs when every epoch is kept" '
	want=$("$PY" -c "import numpy, sys; print(repr(float(numpy.median([float(l.split()[1]) for l in open(sys.argv[1])]))))" \
		"$CPU/4/4702227e39104ce1aabab82ead44325c/metrics/epoch_time_s") &&
	test_near "$want" \
		"$(json_get "$TMP/keep.json" "first(point(\"ddp\", 4)[\"run_values\"], id=\"4702227e39104ce1aabab82ead44325c\")[\"value\"]")" 1e-12
'

# a run with traces whose window is unknown: its last epoch counts as profiled
# the next five cases read rows written into a copy of the store file with sqlite3
test_expect_success SQLITE3,SQLITE_STORE 'traces without a window: the last epoch is taken as profiled, and the rule is named' '
	cp "$DB" "$TMP/fallback.db" &&
	sqlite3 "$TMP/fallback.db" "INSERT INTO trace(run_id, source_id) SELECT id, 0 FROM run WHERE ext_id='\''4702227e39104ce1aabab82ead44325c'\''" &&
	"$AMDAHL" --store "$TMP/fallback.db" stats --json >"$TMP/fallback.json"
	test_eq "epoch 0 (warm-up), epoch 2 (profiled) | run has traces, window unknown: last epoch" \
		"$(json_get "$TMP/fallback.json" "(lambda r: r[\"excluded\"] + \" | \" + r[\"profiled_rule\"])(first(point(\"ddp\", 4)[\"run_values\"], id=\"4702227e39104ce1aabab82ead44325c\"))")"
'

# trace-derived shares: phases and collectives recorded for one run's 4
# ranks (ddp-n4 repeat 0) — compute 50% of each window, communication
# 25%; collective #1 starts 2 ms apart on ranks 0 and 3 (rank 3 arrives
# last) and ends together: the straggler spread is that of the arrivals,
# 2 ms (issue 34; the spread of the ends, which it was, reads 0 here)
R0=0f632a7e14d34cde900d24a3703565cb
test_expect_success SQLITE3,SQLITE_STORE 'setup: phases and collectives for ddp-n4 repeat 0; no traces for fsdp' '
	cp "$DB" "$TMP/phase.db" &&
	sqlite3 "$TMP/phase.db" "
DELETE FROM trace_phase WHERE trace_id IN (SELECT t.id FROM trace t JOIN run r ON r.id = t.run_id WHERE r.ext_id = '\''$R0'\'');
DELETE FROM trace_collective WHERE trace_id IN (SELECT t.id FROM trace t JOIN run r ON r.id = t.run_id WHERE r.ext_id = '\''$R0'\'');
DELETE FROM trace WHERE run_id IN (SELECT id FROM run WHERE strategy = '\''fsdp'\'');
INSERT OR IGNORE INTO dict(s) VALUES('\''compute'\''),('\''communication'\''),('\''allreduce'\'');
INSERT INTO trace_phase SELECT t.id, d.id, (t.end_ns - t.start_ns) / 2 FROM trace t, dict d, run r
  WHERE r.id = t.run_id AND r.ext_id = '\''$R0'\'' AND d.s = '\''compute'\'';
INSERT INTO trace_phase SELECT t.id, d.id, (t.end_ns - t.start_ns) / 4 FROM trace t, dict d, run r
  WHERE r.id = t.run_id AND r.ext_id = '\''$R0'\'' AND d.s = '\''communication'\'';
INSERT INTO trace_collective(trace_id, name_id, seq, start_ns, dur_ns)
  SELECT t.id, d.id, 1, CASE t.rank WHEN 3 THEN 2001000 ELSE 1000 END,
  CASE t.rank WHEN 3 THEN 0 ELSE 2000000 END FROM trace t, dict d, run r
  WHERE r.id = t.run_id AND r.ext_id = '\''$R0'\'' AND d.s = '\''allreduce'\'' AND t.rank IN (0, 3);" &&
	"$AMDAHL" --store "$TMP/phase.db" stats --json >"$TMP/phase.json"
'
test_expect_success SQLITE3,SQLITE_STORE 'phase shares: compute and communication of the window, comm share, straggler spread' '
	test_eq "0.5 0.25 0.333333 2" \
		"$(json_get "$TMP/phase.json" "(lambda p: \"%.6g %.6g %.6g %.6g\" % (p[\"phase_share\"][\"compute\"], p[\"phase_share\"][\"communication\"], p[\"comm_share\"], p[\"straggler_ns\"] / 1e6))(point(\"ddp\", 4))")"
'
test_expect_success SQLITE3,SQLITE_STORE "no traces (fsdp's removed): no phase shares, and no profiled epoch either" '
	test_eq "False | None | epoch 0 (warm-up)" \
		"$(json_get "$TMP/phase.json" "(lambda p: \" | \".join(str(v) for v in (p[\"has_trace\"], p[\"phase_share\"][\"compute\"], p[\"run_values\"][0][\"excluded\"])))(point(\"fsdp\", 4))")"
'
test_expect_success SQLITE3,SQLITE_STORE 'the profile table appears with traces' '
	test_status 0 "$AMDAHL" --store "$TMP/phase.db" stats
	test_contains "comp fraction as itwinai: counts overlap twice" "$OUT"
'

# ---- itwinai layout: child workers folded in, 2 repeats, slower with more GPUs ----
IT="$DATA/itwinai-layout/mllogs/mlflow"
DB2="$TMP/it.db"
test_expect_success SQLITE3,NUMPY,SCIPY 'setup: ingest the itwinai layout with its profiler windows' '
	ingest_with_windows "$DB2" "$IT"
'
test_expect_success 'setup: stats --json on the itwinai layout (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB2" stats --json &&
	cp "$TMP/out" "$TMP/it.json"
'
test_expect_success NUMPY,SCIPY "setup: the oracle's reading of the itwinai layout" '
	"$PY" "$ORACLE" "$IT" >"$TMP/it.oracle.json"
'
test_expect_success NUMPY,SCIPY 'itwinai: runs left out, strategies, points, CIs and fits agree with the oracle' '
	compare_oracle "$TMP/it.json" "$TMP/it.oracle.json"
'
test_expect_success 'itwinai: speedup below 1 at n=2 and n=4' '
	test_eq yes "$(json_get "$TMP/it.json" "\"yes\" if point(\"torch-ddp\", 2)[\"speedup\"] < 1 and point(\"torch-ddp\", 4)[\"speedup\"] < 1 else \"no\"")"
'
test_expect_success 'itwinai: 2 runs per point give no CI, and say why' '
	test_eq "n=2: no CI" "$(json_get "$TMP/it.json" "point(\"torch-ddp\", 2)[\"ci_why\"]")"
'
test_expect_success 'itwinai: energy from power x probing interval, per GPU and run' '
	test_eq yes "$(json_get "$TMP/it.json" "\"yes\" if point(\"torch-ddp\", 4)[\"energy_solution_j\"] > 0 and sweep()[\"has_energy\"] else \"no\"")"
'
test_expect_success 'itwinai: computation fraction (ATen/c10/autograd self CUDA time over all but ProfilerStep*) falls with n' '
	test_eq yes "$(json_get "$TMP/it.json" "\"yes\" if 0 < point(\"torch-ddp\", 4)[\"comp_fraction\"] < point(\"torch-ddp\", 1)[\"comp_fraction\"] < 1 else \"no\"")"
'
test_expect_success 'itwinai table: says plainly it is slower, n=2 has no CI, energy per GPU' '
	test_status 0 "$AMDAHL" --store "$DB2" stats
	test_contains "n=2 is slower than n=1 (speedup 0." "$OUT"
	test_contains "n=2: no CI" "$OUT"
	test_contains "J/epoch/GPU" "$OUT"
'
test_expect_success 'itwinai table: a fit that cannot apply says so; USL refused below 4 distinct n, with the reason' '
	test_status 0 "$AMDAHL" --store "$DB2" stats
	test_contains "time grows with n, Amdahl'\''s law does not describe it" "$OUT"
	test_contains "USL fit refused: USL needs at least 4 distinct n (3 parameters), have 3" "$OUT"
'

# ---- gpu-batch-sweep: batch size as the axis (throughput, energy per sample) ----
GB="$DATA/gpu-batch-sweep/mlruns"
DB3="$TMP/gb.db"
test_expect_success SQLITE3,NUMPY,SCIPY 'setup: ingest gpu-batch-sweep with its profiler windows' '
	ingest_with_windows "$DB3" "$GB"
'
test_expect_success 'setup: stats --axis global_batch_size --json (exit 0)' '
	test_status 0 "$AMDAHL" --store "$DB3" stats --axis global_batch_size --json &&
	cp "$TMP/out" "$TMP/gb.json"
'
test_expect_success NUMPY,SCIPY "setup: the oracle's reading of gpu-batch-sweep, batch size as the axis" '
	"$PY" "$ORACLE" --axis global_batch_size "$GB" >"$TMP/gb.oracle.json"
'
test_expect_success NUMPY,SCIPY 'batch: runs left out, strategies, points and CIs agree with the oracle' '
	compare_oracle "$TMP/gb.json" "$TMP/gb.oracle.json"
'
test_expect_success 'batch axis: no speedup, energy per sample from gpu_energy_J' '
	test_eq "None True" \
		"$(json_get "$TMP/gb.json" "(lambda p: \"%s %s\" % (p[\"speedup\"], p[\"energy_per_sample_j\"] > 0))(point(\"bf16\", 64))")"
'
test_expect_success 'batch axis table: says why there is no speedup, energy per sample column' '
	test_status 0 "$AMDAHL" --store "$DB3" stats --axis global_batch_size
	test_contains "axis is global_batch_size, not the world size" "$OUT"
	test_contains "J/sample" "$OUT"
'

# ---- several sweeps, errors ----
test_expect_success 'setup: the itwinai layout ingested into the cpu-strong-scaling store too' '
	"$AMDAHL" --store "$DB" ingest "$IT" >/dev/null 2>&1
'
test_expect_success 'stats with two sweeps shows both' '
	test_status 0 "$AMDAHL" --store "$DB" stats
	test_contains "sweep cpu-strong-scaling:" "$OUT"
	test_contains "sweep mnist-scaling:" "$OUT"
'
test_expect_success 'stats --sweep picks one: one sweep in the JSON' '
	test_status 0 "$AMDAHL" --store "$DB" stats --sweep mnist-scaling --json
	test_eq "1 mnist-scaling" "$(json_get "$TMP/out" "\"%d %s\" % (len(d[\"sweeps\"]), d[\"sweeps\"][0][\"sweep\"])")"
'
test_expect_success 'unknown sweep: exit 2, the error names the sweeps' '
	test_status 2 "$AMDAHL" --store "$DB" stats --sweep nope
	test_contains "no sweep named '\''nope'\'' (sweeps: cpu-strong-scaling, mnist-scaling)" "$ERR"
'
test_expect_success 'missing store: exit 2' '
	test_status 2 "$AMDAHL" --store "$TMP/none.db" stats
'
test_expect_success '--resamples below 2000 refused (exit 2)' '
	test_status 2 "$AMDAHL" --store "$DB" stats --resamples 100
'
test_expect_success '--help exits 0 and lists --axis' '
	test_status 0 "$AMDAHL" stats --help
	test_contains "--axis P" "$OUT"
'
test_expect_success 'a metric nobody logged: exit 2 naming it, nothing printed (issue 39; was exit 0, every run left out)' '
	test_status 2 "$AMDAHL" --store "$DB2" stats --metric no_such_metric
	test_contains "metric '\''no_such_metric'\'' is in no run of" "$ERR"
	test_eq "" "$OUT"
'

test_done
