# gate.sh — `amdahl compare` and `amdahl gate` on the real sweeps in
# testdata/: A/A comparisons (must never say regression), DDP against FSDP
# on the CPU sweep and fp32 against bf16 on the H100 batch sweep (real
# differences, found in the right direction where the run counts allow,
# "insufficient data" with exit 3 where 3 vs 3 cannot reach alpha), a
# higher-is-better metric, every p-value against SciPy's mannwhitneyu, the
# JUnit file through xmllint, the Markdown table's shape, and exit codes.
. "$AMDAHL_ROOT/tests/e2e/lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
GPU=$DATA/gpu-batch-sweep/mlruns
PY=/usr/bin/python3

"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU"
"$AMDAHL" --store "$TMP/rerun.db" ingest -q --sweep rerun "$CPU"
"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$GPU"

# js FILE EXPR — evaluates a Python expression over the JSON document d.
js() { "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
row() { # row FILE METRIC N FIELD-EXPR  (r is the row)
  js "$1" "[$4 for r in d['rows'] if r['metric']=='$2' and r['n']==$3][0]"
}

# Every row with a test: U and p equal SciPy's (same method) within 1e-9.
scipy_check() {
  "$PY" - "$1" <<'EOF'
import json, sys, math
from scipy.stats import mannwhitneyu
d = json.load(open(sys.argv[1]))
worst, n = 0.0, 0
for r in d["rows"]:
    if "p" not in r:
        continue
    x, y = r["candidate"]["values"], r["baseline"]["values"]
    s = mannwhitneyu(x, y, alternative="two-sided", method=r["method"], use_continuity=True)
    p = s.pvalue if not math.isnan(s.pvalue) else 1.0  # all values equal
    worst = max(worst, abs(p - r["p"]), abs(s.statistic - r["u"]))
    n += 1
print(n, "ok" if worst <= 1e-9 and n > 0 else "worst %g" % worst)
EOF
}

# ---- usage and input errors: exit 2 ----
status "gate --help exits 0" 0 "$AMDAHL" gate --help
contains "gate help names the exit codes" "3 insufficient data" "$OUT"
status "compare --help exits 0" 0 "$AMDAHL" compare --help
status "gate without --candidate is a usage error" 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling
status "an unknown sweep is an input error" 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline nope --candidate cpu-strong-scaling
contains "the error names the sweep" "nope" "$ERR"
status "an unknown strategy is an input error" 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:zero3
contains "the error names the strategy" "zero3" "$ERR"
status "SWEEP: with an empty strategy is a usage error" 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling: --candidate cpu-strong-scaling
status "a missing baseline store is an input error" 2 "$AMDAHL" --store "$TMP/cpu.db" gate --baseline-store "$TMP/none.db" --baseline rerun --candidate cpu-strong-scaling
printf 'gate:\n  metrics:\n    epoch_time_s:\n      direction: sideways\n' >"$TMP/bad.yaml"
status "a bad direction in amdahl.yaml is an input error" 2 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/bad.yaml" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
contains "the error names the key" "gate.metrics.epoch_time_s.direction" "$ERR"
printf 'gate:\n  metrics:\n    train_loss: {threshold: 0.1}\n' >"$TMP/nodir.yaml"
status "an extra metric without a direction is an input error" 2 "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/nodir.yaml" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
status "--junit belongs to gate, not compare" 2 "$AMDAHL" --store "$TMP/cpu.db" compare --baseline cpu-strong-scaling --candidate cpu-strong-scaling --junit "$TMP/x.xml"

# ---- A/A 1: the CPU sweep against a second ingest of itself (3 vs 3) ----
status "A/A on the same runs: exit 3 (3 vs 3 cannot reach 0.05), not 1" 3 \
  "$AMDAHL" --store "$TMP/cpu.db" gate --baseline-store "$TMP/rerun.db" --baseline rerun --candidate cpu-strong-scaling --json
echo "$OUT" >"$TMP/aa1.json"
eq "A/A on the same runs: no regression" "[]" "$(js "$TMP/aa1.json" "[r for r in d['rows'] if r['verdict']=='regression']")"
eq "A/A on the same runs: every ratio is 1 and every p is 1" "True" \
  "$(js "$TMP/aa1.json" "all(r['ratio']==1 and r['p']==1 for r in d['rows'])")"
eq "A/A on the same runs: every gated row is insufficient" "True" \
  "$(js "$TMP/aa1.json" "all(r['verdict']=='insufficient data' for r in d['rows'] if r['gated'])")"
eq "A/A: both strategies and four n per strategy matched" "ddp:1,2,4,8 fsdp:1,2,4,8" \
  "$(js "$TMP/aa1.json" "' '.join(s+':'+','.join('%g'%n for n in sorted({r['n'] for r in d['rows'] if r['strategy']==s and r['metric']=='epoch_time_s'})) for s in ('ddp','fsdp'))")"
eq "A/A same runs: p-values equal SciPy's (2 strategies x 4 time, 4 throughput, 3 speedup, 3 efficiency)" "28 ok" "$(scipy_check "$TMP/aa1.json")"

# ---- A/A 2: the H100 sweep's repeats split in two halves (repeats 0+1 vs 2) ----
for half in a b; do mkdir -p "$TMP/$half/mlruns/1"; cp "$GPU/1/meta.yaml" "$TMP/$half/mlruns/1/"; done
for d in "$GPU"/1/*/; do
  [ -f "$d/params/repeat" ] || continue
  if [ "$(cat "$d/params/repeat")" = 2 ]; then cp -r "$d" "$TMP/b/mlruns/1/"; else cp -r "$d" "$TMP/a/mlruns/1/"; fi
done
"$AMDAHL" --store "$TMP/halves.db" ingest -q --sweep half-a "$TMP/a/mlruns"
"$AMDAHL" --store "$TMP/halves.db" ingest -q --sweep half-b "$TMP/b/mlruns"
status "A/A on split repeats (8 vs 4 per strategy): gate passes, exit 0" 0 \
  "$AMDAHL" --store "$TMP/halves.db" gate --baseline half-a --candidate half-b --json
echo "$OUT" >"$TMP/aa2.json"
eq "A/A split: 8 vs 4 runs in each gated row" "True" \
  "$(js "$TMP/aa2.json" "all(r['baseline']['runs']==8 and r['candidate']['runs']==4 for r in d['rows'] if r['gated'])")"
eq "A/A split: the four gated rows form the Holm family" "4 4" \
  "$(js "$TMP/aa2.json" "'%d %d' % (d['summary']['gated'], d['summary']['holm_family'])")"
eq "A/A split: no row (gated or shown) says regression or worse" "0" \
  "$(js "$TMP/aa2.json" "sum(r['verdict'] in ('regression','worse') for r in d['rows'])")"
eq "A/A split: p-values equal SciPy's" "12 ok" "$(scipy_check "$TMP/aa2.json")"

# ---- DDP against FSDP on the CPU sweep (3 runs per point) ----
status "DDP vs FSDP: 3 vs 3 everywhere, exit 3 (insufficient data)" 3 \
  "$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json
echo "$OUT" >"$TMP/ddp.json"
eq "DDP vs FSDP: 11 gated rows (time and throughput at 4 n, speedup at 3)" "11" "$(js "$TMP/ddp.json" "d['summary']['gated']")"
eq "DDP vs FSDP: insufficient says 6 runs per side would do across 11 rows" "6" \
  "$(row "$TMP/ddp.json" epoch_time_s 8 "r['runs_needed_per_side']")"
eq "DDP vs FSDP n=8: FSDP is slower (ratio > 1.5)" "True" "$(row "$TMP/ddp.json" epoch_time_s 8 "r['ratio']>1.5")"
eq "DDP vs FSDP n=8: FSDP has less throughput (ratio < 0.67)" "True" "$(row "$TMP/ddp.json" throughput 8 "r['ratio']<0.67")"
eq "DDP vs FSDP n=8: FSDP scales worse (speedup ratio < 0.67)" "True" "$(row "$TMP/ddp.json" speedup 8 "r['ratio']<0.67")"
eq "DDP vs FSDP n=8: the runs separate completely (exact p = 2/20)" "0.1 exact" \
  "$(row "$TMP/ddp.json" epoch_time_s 8 "'%g %s' % (r['p'], r['method'])")"
eq "DDP vs FSDP: p-values equal SciPy's" "14 ok" "$(scipy_check "$TMP/ddp.json")"
status "compare exits 0 on the same input" 0 \
  "$AMDAHL" --store "$TMP/cpu.db" compare --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
contains "compare prints the ratio with its interval (as in --json)" \
  "$(row "$TMP/ddp.json" epoch_time_s 8 "'%.3f [%.3f, %.3f]' % (r['ratio'], r['ci']['lo'], r['ci']['hi'])")" "$OUT"

# Where the run count allows: one gated row, alpha 0.1 (3 vs 3 reaches p = 0.1).
printf 'gate:\n  alpha: 0.1\n' >"$TMP/a10.yaml"
status "FSDP against DDP at n=8, epoch time, alpha 0.1: regression, exit 1" 1 \
  "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:ddp \
  --candidate cpu-strong-scaling:fsdp --n 8 --only epoch_time_s --json
echo "$OUT" >"$TMP/one.json"
eq "the one gated row is a regression with Holm p 0.1" "regression 0.1" \
  "$(row "$TMP/one.json" epoch_time_s 8 "'%s %g' % (r['verdict'], r['p_adjusted'])")"
status "DDP against FSDP at n=8 (swapped): improvement, exit 0" 0 \
  "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:fsdp \
  --candidate cpu-strong-scaling:ddp --n 8 --only epoch_time_s --json
eq "swapped: improvement" "improvement" "$(echo "$OUT" >"$TMP/sw.json"; row "$TMP/sw.json" epoch_time_s 8 "r['verdict']")"
# throughput: higher is better, so less of it is the regression
status "FSDP throughput at n=8 (higher is better): regression, exit 1" 1 \
  "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:ddp \
  --candidate cpu-strong-scaling:fsdp --n 8 --only throughput --json
eq "throughput row: direction higher, verdict regression" "higher regression" \
  "$(echo "$OUT" >"$TMP/tp.json"; row "$TMP/tp.json" throughput 8 "r['direction']+' '+r['verdict']")"
status "DDP throughput against FSDP at n=8: improvement, exit 0" 0 \
  "$AMDAHL" --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:fsdp \
  --candidate cpu-strong-scaling:ddp --n 8 --only throughput
contains "the table shows the improvement" "improvement" "$OUT"

# ---- fp32 against bf16 on the H100 batch sweep ----
status "fp32 vs bf16 per batch size: 3 vs 3, exit 3" 3 \
  "$AMDAHL" --store "$TMP/gpu.db" gate --axis global_batch_size --baseline gpu-batch-sweep:fp32 \
  --candidate gpu-batch-sweep:bf16 --json
echo "$OUT" >"$TMP/bs.json"
eq "batch axis: 8, 16, 32, 64 compared" "[8, 16, 32, 64]" \
  "$(js "$TMP/bs.json" "sorted({int(r['n']) for r in d['rows']})")"
eq "batch axis: speedup is shown, not gated (8 gated rows)" "8" "$(js "$TMP/bs.json" "d['summary']['gated']")"
eq "b=64: bf16 epochs are shorter (ratio < 0.5)" "True" "$(row "$TMP/bs.json" epoch_time_s 64 "r['ratio']<0.5")"
eq "b=64: bf16 has more throughput (ratio > 2)" "True" "$(row "$TMP/bs.json" throughput 64 "r['ratio']>2")"
eq "b=64: insufficient; 6 per side would do (5 vs 5 gives 0.0079 > 0.05/8)" "insufficient data 6" \
  "$(row "$TMP/bs.json" epoch_time_s 64 "r['verdict']+' '+str(r['runs_needed_per_side'])")"
eq "batch axis: p-values equal SciPy's (4 b x 6 metrics + speedup, efficiency at 3 b)" "30 ok" "$(scipy_check "$TMP/bs.json")"

# On the world-size axis each strategy is one configuration of 12 runs (3 per
# batch size on both sides): energy per epoch, listed in amdahl.yaml, is gated.
printf 'gate:\n  metrics:\n    energy_epoch_j:\n      direction: lower\n      threshold: 0.1\n' >"$TMP/energy.yaml"
status "bf16 against fp32, energy gated: improvement, exit 0" 0 \
  "$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" gate --baseline gpu-batch-sweep:fp32 \
  --candidate gpu-batch-sweep:bf16 --json
echo "$OUT" >"$TMP/en.json"
eq "energy per epoch: 12 vs 12, gated, improvement, ratio < 0.5" "12 12 True improvement True" \
  "$(row "$TMP/en.json" energy_epoch_j 1 "'%d %d %s %s %s' % (r['baseline']['runs'], r['candidate']['runs'], r['gated'], r['verdict'], r['ratio']<0.5)")"
eq "energy: Holm p below 0.05 across 3 gated rows" "3 True" \
  "$(js "$TMP/en.json" "'%d %s' % (d['summary']['gated'], [r for r in d['rows'] if r['metric']=='energy_epoch_j'][0]['p_adjusted']<0.05)")"
eq "energy per run is shown, not gated: 'better', not 'improvement'" "False better" \
  "$(row "$TMP/en.json" energy_run_j 1 "'%s %s' % (r['gated'], r['verdict'])")"
eq "energy gate: p-values equal SciPy's (6 metrics)" "6 ok" "$(scipy_check "$TMP/en.json")"
status "fp32 against bf16, energy gated: regression, exit 1" 1 \
  "$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" gate --baseline gpu-batch-sweep:bf16 \
  --candidate gpu-batch-sweep:fp32 --junit "$TMP/gate.xml" --markdown "$TMP/gate.md"
contains "the terminal says FAIL" "gate: FAIL" "$OUT"

# ---- JUnit and Markdown ----
status "the JUnit file parses as XML" 0 xmllint --noout "$TMP/gate.xml"
eq "one test case per row" "$(grep -c '<testcase ' "$TMP/gate.xml")" \
  "$("$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" compare --baseline gpu-batch-sweep:bf16 --candidate gpu-batch-sweep:fp32 --json | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)["rows"]))')"
eq "one failure, on energy per epoch" "1 amdahl.gate.energy_epoch_j" \
  "$(xmllint --xpath 'count(//failure)' "$TMP/gate.xml") $(xmllint --xpath 'string(//testcase[failure]/@classname)' "$TMP/gate.xml")"
want=$("$AMDAHL" --store "$TMP/gpu.db" --config "$TMP/energy.yaml" compare --baseline gpu-batch-sweep:bf16 \
  --candidate gpu-batch-sweep:fp32 --json | "$PY" -c 'import json,sys
r=[r for r in json.load(sys.stdin)["rows"] if r["metric"]=="energy_epoch_j" and r["verdict"]=="regression"][0]
print("ratio %.3f [%.3f, %.3f]" % (r["ratio"], r["ci"]["lo"], r["ci"]["hi"]))')
contains "the failure carries the numbers (as in compare --json)" "$want" "$(xmllint --xpath 'string(//failure/@message)' "$TMP/gate.xml")"
"$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --junit "$TMP/ins.xml" >/dev/null
eq "insufficient rows are skipped test cases with the reason, none fails" "11 0" \
  "$(xmllint --xpath "count(//skipped[starts-with(@message,'insufficient data')])" "$TMP/ins.xml") $(xmllint --xpath 'count(//failure)' "$TMP/ins.xml")"
md_shape() { # every table line has as many cells as the header; a separator row follows it
  awk -F'|' '/^\|/{n++; c=NF; if(n==1)h=c; else if(c!=h)bad=1; if(n==2 && $0 !~ /^\| ---/)bad=1} END{print (n>2 && !bad) ? "ok" : "bad"}' "$1"
}
eq "the Markdown table is well formed" "ok" "$(md_shape "$TMP/gate.md")"
contains "the Markdown says FAIL and bolds the regression" "**regression**" "$(cat "$TMP/gate.md")"
export GITHUB_STEP_SUMMARY="$TMP/summary.md"
echo "earlier step" >"$GITHUB_STEP_SUMMARY"
"$AMDAHL" --store "$TMP/halves.db" gate --baseline half-a --candidate half-b >/dev/null
"$AMDAHL" --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp >/dev/null
unset GITHUB_STEP_SUMMARY
eq "GITHUB_STEP_SUMMARY is appended to, not replaced" "earlier step|### amdahl gate: PASS|### amdahl gate: INSUFFICIENT DATA" \
  "$(grep -E '^(earlier|###)' "$TMP/summary.md" | paste -sd'|')"

# ---- a configuration on one side only: listed as missing; fails only with --require-all ----
mkdir -p "$TMP/no8/mlruns/4"; cp "$CPU/4/meta.yaml" "$TMP/no8/mlruns/4/"
for d in "$CPU"/4/*/; do
  [ -f "$d/params/world_size" ] && [ "$(cat "$d/params/world_size")" = 8 ] && continue
  cp -r "$d" "$TMP/no8/mlruns/4/"
done
"$AMDAHL" --store "$TMP/no8.db" ingest -q --sweep no8 "$TMP/no8/mlruns"
status "n=8 only in the baseline: missing, not a failure (exit 3 for 3 vs 3)" 3 \
  "$AMDAHL" --store "$TMP/no8.db" gate --baseline-store "$TMP/cpu.db" --baseline cpu-strong-scaling --candidate no8 --json
echo "$OUT" >"$TMP/no8.json"
eq "n=8 rows are missing, with the side named" "missing only in the baseline" \
  "$(row "$TMP/no8.json" epoch_time_s 8 "r['verdict']+' '+r['note']")"
eq "the candidate's own speedups still compare at n=2 and 4" "[2, 4]" \
  "$(js "$TMP/no8.json" "sorted({int(r['n']) for r in d['rows'] if r['metric']=='speedup' and r['verdict']!='missing'})")"
status "with --require-all the missing configuration fails the gate" 1 \
  "$AMDAHL" --store "$TMP/no8.db" gate --baseline-store "$TMP/cpu.db" --baseline cpu-strong-scaling --candidate no8 --require-all
