#!/bin/bash
# aggregate.sh — `--aggregate mlperf` (MLPerf's rule: drop the fastest and
# the slowest run of a configuration, the mean of the rest) on stats,
# compare, gate and report build, against tests/oracle/stats_oracle.py
# --aggregate mlperf (numpy). The bundled CPU sweep has 3 runs per
# configuration, where the rule gives the median; so the store holds that
# sweep's 24 finished runs twice (tests/lib/mlruns_groups.py, the copies
# scaled by factors drawn from each configuration's own run-to-run
# spread): 6 runs per configuration, where the rule and the median differ.
test_description='--aggregate median|mlperf against the numpy oracle'
. "$(dirname "$0")/../test-lib.sh"

GROUPS_PY="$AMDAHL_ROOT/tests/lib/mlruns_groups.py"
ORACLE="$AMDAHL_ROOT/tests/oracle/stats_oracle.py"
COMPARE="$AMDAHL_ROOT/tests/oracle/compare_stats.py"
CPU=$DATA/cpu-strong-scaling/mlruns/4
DB="$TMP/pooled.db"

# oracle_med FILE STRATEGY N — the oracle's point value at (strategy, n).
oracle_med() {
	json_get "$1" "next(p[\"median\"] for p in d[\"sweeps\"][\"pooled\"][\"strategies\"][\"$2\"][\"points\"] if p[\"n\"] == $3)"
}

test_expect_success NUMPY,SCIPY 'setup: the CPU sweep twice in one experiment, 6 runs per configuration' '
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/ml" --exp-id 5 --name pooled --runs "*" --key param.copy \
		--labels a,b --noise 7 &&
	"$AMDAHL" --store "$DB" ingest -q "$TMP/ml" &&
	"$PY" "$ORACLE" "$TMP/ml" --aggregate mlperf >"$TMP/o-mlperf.json" &&
	"$PY" "$ORACLE" "$TMP/ml" >"$TMP/o-median.json"
'

test_expect_success NUMPY,SCIPY 'stats --aggregate mlperf labels its bootstrap interval with the coverage it has (6 runs: 90%, simulated), not 95%' '
	test_status 0 "$AMDAHL" --store "$DB" stats --sweep pooled --aggregate mlperf --json
	echo "$OUT" >"$TMP/mlp-levels.json"
	test_eq "[0.9]" "$(json_get "$TMP/mlp-levels.json" "jdump(sorted(set(p[\"ci\"][\"level\"] for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"] if p[\"runs\"] == 6)))")"
	test_status 0 "$AMDAHL" --store "$DB" stats --sweep pooled --aggregate mlperf
	test_contains "] (90%)" "$OUT"
	test_contains "the bootstrap interval of MLPerf'"'"'s mean covers 73% with 3 runs" "$OUT"
'

test_expect_success NUMPY,SCIPY 'stats --aggregate mlperf with 21 runs: its interval covers 93% or more there and says 95% (was "(91%)" from 7 runs on), as a seeded simulation finds' '
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/ml21" --exp-id 6 --name pooled21 --runs "*" --key param.copy \
		--labels a,b,c,d,e,f,g --noise 7 &&
	"$AMDAHL" --store "$TMP/p21.db" ingest -q "$TMP/ml21" &&
	test_status 0 "$AMDAHL" --store "$TMP/p21.db" stats --aggregate mlperf --json &&
	echo "$OUT" >"$TMP/p21.json" &&
	test_eq "[[21,0.95]]" "$(json_get "$TMP/p21.json" "jdump(sorted(set((p[\"runs\"], p[\"ci\"][\"level\"]) for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"])))")" &&
	test_eq ok "$("$PY" -c "
import sys, numpy as np
sys.path.insert(0, \"$AMDAHL_ROOT/tests/eval\")
from small_sample import mlperf_cover, mlperf_label
c = np.mean([mlperf_cover(np.random.default_rng(7), d, 21, 1200, 1000) for d in (\"normal\", \"lognormal\")])
print(\"ok\" if c >= 0.93 - 2 * (0.93 * 0.07 / 2400) ** 0.5 and mlperf_label(21) == 0.95 and mlperf_label(12) == 0.92 else c)")" &&
	test_status 0 "$AMDAHL" --store "$TMP/p21.db" stats --aggregate mlperf &&
	test_not_contains "] (9" "$OUT" &&
	test_not_contains "covers 73% with 3" "$OUT"
'

test_expect_success NUMPY,SCIPY 'the rule and the median differ on this store (else the tests below prove nothing)' '
	diff=$("$PY" -c "
import json
a = json.load(open(\"$TMP/o-mlperf.json\"))[\"sweeps\"][\"pooled\"][\"strategies\"]
b = json.load(open(\"$TMP/o-median.json\"))[\"sweeps\"][\"pooled\"][\"strategies\"]
print(sum(abs(p[\"median\"] - q[\"median\"]) > 1e-6 * q[\"median\"] for s in a
          for p, q in zip(a[s][\"points\"], b[s][\"points\"])))")
	test_eq 8 "$diff"
'

test_expect_success NUMPY,SCIPY 'stats --aggregate mlperf equals the oracle: values, intervals, speedup, fits' '
	test_status 0 "$AMDAHL" --store "$DB" stats --aggregate mlperf --json
	echo "$OUT" >"$TMP/mlperf.json"
	test_eq mlperf "$(json_get "$TMP/mlperf.json" "sweep()[\"options\"][\"aggregate\"]")"
	test_contains "Per configuration: MLPerf" "$(json_get "$TMP/mlperf.json" "sweep()[\"rules\"]")"
	"$PY" "$COMPARE" "$TMP/mlperf.json" "$TMP/o-mlperf.json" >"$TMP/cmp" ; rc=$?
	test_eq 0 "$rc" || cat "$TMP/cmp"
	test_eq 0 "$(grep -c "^not ok" "$TMP/cmp")"
'

test_expect_success NUMPY,SCIPY 'the mlperf values do not pass for the median oracle, the default ones do' '
	"$PY" "$COMPARE" "$TMP/mlperf.json" "$TMP/o-median.json" >"$TMP/cmp"
	test_eq yes "$(grep -q "^not ok" "$TMP/cmp" && echo yes)"
	test_status 0 "$AMDAHL" --store "$DB" stats --json
	echo "$OUT" >"$TMP/median.json"
	test_eq median "$(json_get "$TMP/median.json" "sweep()[\"options\"][\"aggregate\"]")"
	# intervals left out here: with the median of 6 runs the two generators
	# put fsdp n=8 speedup bounds 15% apart in width (seen; the default
	# path, as on main); stats.sh checks them on the bundled sweep
	"$PY" "$COMPARE" "$TMP/median.json" "$TMP/o-median.json" >"$TMP/cmp"
	test_eq 0 "$(grep "^not ok" "$TMP/cmp" | grep -vc "bootstrap CIs")"
'

test_expect_success NUMPY,SCIPY 'stats table: the column and the rules say MLPerf' '
	test_status 0 "$AMDAHL" --store "$DB" stats --aggregate mlperf
	test_contains "runs  MLPerf mean  95% CI" "$OUT"
	test_contains "Per configuration: MLPerf'"'"'s rule: the mean of the runs without the fastest and the slowest." "$OUT"
'

test_expect_success NUMPY,SCIPY 'compare --aggregate mlperf: each ratio is the oracle fsdp value over ddp' '
	test_status 0 "$AMDAHL" --store "$DB" compare --aggregate mlperf --baseline strategy=ddp \
		--candidate strategy=fsdp --json
	echo "$OUT" >"$TMP/cmp.json"
	test_eq mlperf "$(json_get "$TMP/cmp.json" "d[\"aggregate\"]")"
	for n in 1 2 4 8; do
		b=$(oracle_med "$TMP/o-mlperf.json" ddp $n) c=$(oracle_med "$TMP/o-mlperf.json" fsdp $n)
		test_near "$b" "$(json_get "$TMP/cmp.json" "row(\"epoch_time_s\", n=$n)[\"baseline\"][\"median\"]")" 1e-9
		test_near "$("$PY" -c "print($c / $b)")" \
			"$(json_get "$TMP/cmp.json" "row(\"epoch_time_s\", n=$n)[\"ratio\"]")" 1e-9
	done
'

test_expect_success NUMPY,SCIPY 'compare --aggregate mlperf, 3 runs against 6: the ratio interval says what it covers (90%), as a seeded simulation of the same bootstrap finds' '
	test_status 0 "$AMDAHL" --store "$DB" compare --aggregate mlperf --baseline strategy=ddp,param.copy=a \
		--candidate strategy=fsdp --json &&
	echo "$OUT" >"$TMP/cmp3.json" &&
	test_eq "3 6 0.9|3 6 0.9|3 6 0.9|3 6 0.9" "$(json_get "$TMP/cmp3.json" "\"|\".join(\"%d %d %g\" % (r[\"baseline\"][\"runs\"], r[\"candidate\"][\"runs\"], r[\"ci\"][\"level\"]) for r in d[\"rows\"] if r[\"metric\"] == \"epoch_time_s\" and r[\"ci\"])")" &&
	test_eq ok "$("$PY" -c "
import sys, numpy as np
sys.path.insert(0, \"$AMDAHL_ROOT/tests/eval\")
from small_sample import mlperf_ratio_cover
c = np.mean([mlperf_ratio_cover(np.random.default_rng(7), d, 3, 6, 400, 1000) for d in (\"normal\", \"lognormal\")])
print(\"ok\" if abs(c - 0.90) < 3 * (0.9 * 0.1 / 800) ** 0.5 and c < 0.93 else c)")" &&
	test_status 0 "$AMDAHL" --store "$DB" compare --aggregate mlperf --baseline strategy=ddp,param.copy=a \
		--candidate strategy=fsdp &&
	test_contains "] (90%)" "$OUT" &&
	test_contains "the bootstrap interval of a ratio of MLPerf means with fewer than 8 runs" "$OUT"
'

# speedup_levels FILE — "metric runs runs level|..." of a compare --json's speedup/efficiency rows.
speedup_levels() {
	json_get "$1" "\"|\".join(\"%s %d %d %g\" % (r[\"metric\"], r[\"baseline\"][\"runs\"], r[\"candidate\"][\"runs\"], r[\"ci\"][\"level\"]) for r in d[\"rows\"] if r[\"metric\"] in (\"speedup\", \"efficiency\") and r[\"ci\"])"
}

test_expect_success NUMPY,SCIPY 'compare, 6 runs a side: the speedup and efficiency rows say what their interval covers (86%, median; 81%, MLPerf), as a seeded simulation of that interval finds' '
	test_status 0 "$AMDAHL" --store "$DB" compare --baseline strategy=ddp --candidate strategy=fsdp --json &&
	echo "$OUT" >"$TMP/spd.json" &&
	test_eq "speedup 6 6 0.86|efficiency 6 6 0.86|speedup 6 6 0.86|efficiency 6 6 0.86|speedup 6 6 0.86|efficiency 6 6 0.86" \
		"$(speedup_levels "$TMP/spd.json")" &&
	test_eq "[0.95]" "$(json_get "$TMP/spd.json" "jdump(sorted(set(r[\"ci\"][\"level\"] for r in d[\"rows\"] if r[\"metric\"] == \"epoch_time_s\")))")" &&
	test_status 0 "$AMDAHL" --store "$DB" compare --aggregate mlperf --baseline strategy=ddp \
		--candidate strategy=fsdp --json &&
	echo "$OUT" >"$TMP/spd-mlp.json" &&
	test_eq "speedup 6 6 0.81|efficiency 6 6 0.81|speedup 6 6 0.81|efficiency 6 6 0.81|speedup 6 6 0.81|efficiency 6 6 0.81" \
		"$(speedup_levels "$TMP/spd-mlp.json")" &&
	test_eq ok "$("$PY" -c "
import sys, numpy as np
sys.path.insert(0, \"$AMDAHL_ROOT/tests/eval\")
from small_sample import speedup_row_cover
for which, label in ((\"median\", 0.86), (\"mlperf\", 0.81)):
    c = np.mean([speedup_row_cover(np.random.default_rng(7), d, 6, 6, 300, 500, which) for d in (\"normal\", \"lognormal\")])
    if not (abs(c - label) < 3 * (label * (1 - label) / 600) ** 0.5 and c < 0.93):
        print(which, c)
        break
else:
    print(\"ok\")")" &&
	test_status 0 "$AMDAHL" --store "$DB" compare --baseline strategy=ddp --candidate strategy=fsdp &&
	test_contains "] (86%)" "$OUT" &&
	test_contains "the speedup and efficiency rows'"'"' interval holds each side'"'"'s median at the base n fixed" "$OUT"
'

test_expect_success NUMPY,SCIPY 'compare, 2 runs at the base n: the speedup rows give no interval (never simulated; was labelled 89%)' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/base2" &&
	rm -r "$TMP/base2/4/282d71b5f16744c69d76d15137741ccb" "$TMP/base2/4/af157b024bf24ce995bc401811535eeb" &&
	"$AMDAHL" --store "$TMP/base2.db" ingest -q "$TMP/base2" &&
	test_status 0 "$AMDAHL" --store "$TMP/base2.db" compare --baseline cpu-strong-scaling:ddp \
		--candidate cpu-strong-scaling:fsdp --json &&
	echo "$OUT" >"$TMP/base2.json" &&
	test_eq "2 3 None fewer than 3 runs at the base n: no interval|4 3 None fewer than 3 runs at the base n: no interval|8 3 None fewer than 3 runs at the base n: no interval" \
		"$(json_get "$TMP/base2.json" "\"|\".join(\"%g %d %s %s\" % (r[\"n\"], r[\"baseline\"][\"runs\"], r[\"ci\"], r[\"ci_why\"]) for r in d[\"rows\"] if r[\"metric\"] == \"speedup\")")" &&
	test_eq "[0.89]" "$(json_get "$TMP/base2.json" "jdump(sorted(set(r[\"ci\"][\"level\"] for r in d[\"rows\"] if r[\"metric\"] == \"epoch_time_s\" and r[\"n\"] > 1)))")"
'

test_expect_success NUMPY,SCIPY 'gate --aggregate mlperf states the rule in the table, benchstat and CSV' '
	test_status 1 "$AMDAHL" --store "$DB" gate --aggregate mlperf --baseline strategy=ddp \
		--candidate strategy=fsdp
	test_contains "per configuration: MLPerf'"'"'s rule" "$OUT"
	test_status 1 "$AMDAHL" --store "$DB" gate --aggregate mlperf --baseline strategy=ddp \
		--candidate strategy=fsdp --format benchstat
	test_contains "half-width of the MLPerf mean'"'"'s 95% bootstrap interval" "$OUT"
	# every ± of 6 runs carries the bootstrap'"'"'s coverage at 6 runs, 90% (was: none)
	test_eq "0 22" "$(printf "%s\n" "$OUT" | "$PY" -c "
import re, sys
t = sys.stdin.read()
print(len(re.findall(r\"± \\d+%(?! \\(90%\\))\", t)), len(re.findall(r\"± \\d+% \\(90%\\)\", t)))")"
	test_status 1 "$AMDAHL" --store "$DB" gate --aggregate mlperf --baseline strategy=ddp \
		--candidate strategy=fsdp --format csv
	echo "$OUT" >"$TMP/gate.csv"
	test_eq mlperf "$("$PY" -c "import csv; print(\",\".join(sorted(set(r[\"aggregate\"] for r in csv.DictReader(open(\"$TMP/gate.csv\"))))))")"
	test_near "$(oracle_med "$TMP/o-mlperf.json" fsdp 8)" \
		"$("$PY" -c "import csv; print(next(r[\"candidate_median\"] for r in csv.DictReader(open(\"$TMP/gate.csv\")) if r[\"metric\"] == \"epoch_time_s\" and r[\"n\"] == \"8\"))")" 1e-9
'

test_expect_success NUMPY,SCIPY 'report build --aggregate mlperf: report.json and the PDF say so' '
	test_status 0 "$AMDAHL" --store "$DB" report build --aggregate mlperf -o "$TMP/rep" \
		--baseline strategy=ddp --candidate strategy=fsdp
	test_eq mlperf "$(json_get "$TMP/rep/report.json" "d[\"options\"][\"aggregate\"]")"
	test_near "$(oracle_med "$TMP/o-mlperf.json" ddp 8)" \
		"$(json_get "$TMP/rep/report.json" "next(p[\"median\"] for s in d[\"strategies\"] if s[\"strategy\"] == \"ddp\" for p in s[\"points\"] if p[\"n\"] == 8)")" 1e-9
'

test_expect_success PDFTOTEXT 'report build --aggregate mlperf: the PDF names the rule and the column' '
	pdftotext -layout "$TMP/rep/report.pdf" "$TMP/rep.txt" &&
	grep -q "MLPerf mean" "$TMP/rep.txt" &&
	grep -q "Per configuration: MLPerf" "$TMP/rep.txt" &&
	grep -q "Per configuration: the MLPerf mean of its runs" "$TMP/rep.txt" &&
	grep -q "MLPerf mean of 6 runs per point" "$TMP/rep.txt" &&
	! grep -q "the bar is the median" "$TMP/rep.txt"
'

test_expect_success 'a value that is no aggregate is refused, naming the choices' '
	test_status 2 "$AMDAHL" --store "$DB" stats --aggregate mean
	test_contains "--aggregate: '"'"'mean'"'"' is not median or mlperf" "$ERR"
	test_status 2 "$AMDAHL" --store "$DB" gate --aggregate trimmed --baseline strategy=ddp \
		--candidate strategy=fsdp
	test_contains "is not median or mlperf" "$ERR"
'

test_done
