# history.sh — `amdahl history` on histories of 24 groups (commits, tag
# git_commit) made from the bundled CPU sweep's real ddp n=8 runs by
# tests/lib/mlruns_groups.py: 3 runs a group, each a copy of a real run
# whose epoch times are multiplied by a factor drawn (seeded) from that
# configuration's own real run-to-run spread. In "nightly" every epoch
# time from commit c12 on is ×1.20 (a known slowdown); "aa" has none.
# The change point must be found at c12 and nowhere else, none in the A/A
# history, and every number must equal tests/oracle/history_oracle.py's.
test_description='history: group medians in order, change points, JSON, PNG, errors'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/lib/histories.sh"

GROUPS_PY="$AMDAHL_ROOT/tests/lib/mlruns_groups.py"
ORACLE="$AMDAHL_ROOT/tests/oracle/history_oracle.py"
CPU=$DATA/cpu-strong-scaling/mlruns/4
LABELS=$(seq -f 'c%02g' 0 23 | paste -sd,)

test_expect_success SCIPY 'setup: a history with a slowdown from c12 and an A/A history, one store' '
	history_mlruns "$AMDAHL_ROOT" "$TMP/mlruns" &&
	"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/mlruns" &&
	"$PY" "$ORACLE" "$TMP/mlruns/6" tag.git_commit 12 >"$TMP/oracle.json" &&
	"$PY" "$ORACLE" "$TMP/mlruns/7" tag.git_commit >"$TMP/oracle-aa.json" &&
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/mlruns" --exp-id 8 --name tail --runs ddp-n8 \
		--key tag.git_commit --labels "$LABELS" --slow c21=1.25 --slow c22=1.25 --slow c23=1.25 \
		--noise 5 &&
	"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/mlruns"
'

test_expect_success SCIPY 'the slowdown is one change point, at c12' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --sweep nightly --json
	echo "$OUT" >"$TMP/h.json"
	test_eq "[\"c12\"]" "$(json_get "$TMP/h.json" "jdump([c[\"group\"] for c in d[\"change_points\"]])")"
	test_eq worse "$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"direction\"]")"
	test_true "permutation p <= alpha" [ "$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"p_permutation\"] <= d[\"method\"][\"alpha\"]")" = True ]
'

test_expect_success SCIPY 'groups in order with their medians, as the oracle computes them' '
	test_eq "$(json_get "$TMP/oracle.json" "jdump([[g[0], g[1]] for g in d[\"groups\"]])")" \
		"$(json_get "$TMP/h.json" "jdump([[g[\"group\"], g[\"runs\"]] for g in d[\"groups\"]])")"
	test_eq 0 "$(json_get "$TMP/h.json" "sum(abs(a - b[2]) > 1e-9 for a, b in zip([g[\"median\"] for g in d[\"groups\"]], json.load(open(\"$TMP/oracle.json\"))[\"groups\"]))")"
'

test_expect_success SCIPY 'the change point: medians before and after, ratio and divergence as the oracle; p is the search'"'"'s permutation p' '
	for f in before after; do
		test_near "$(json_get "$TMP/oracle.json" "d[\"$f\"]")" \
			"$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"$f\"][\"median\"]")" 1e-9
	done
	test_near "$(json_get "$TMP/oracle.json" "d[\"ratio\"]")" \
		"$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"ratio\"]")" 1e-9
	test_near "$(json_get "$TMP/oracle.json" "d[\"divergence\"]")" \
		"$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"divergence\"]")" 1e-9
	test_eq 12 "$(json_get "$TMP/oracle.json" "d[\"at\"]")"
	test_eq True "$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"p\"] == d[\"change_points\"][0][\"p_permutation\"]")"
	test_eq "36 36 c00 c11 c12 c23" "$(json_get "$TMP/h.json" "(lambda c: \"%d %d %s %s %s %s\" % (c[\"before\"][\"runs\"], c[\"after\"][\"runs\"], c[\"before\"][\"first_group\"], c[\"before\"][\"last_group\"], c[\"after\"][\"first_group\"], c[\"after\"][\"last_group\"]))(d[\"change_points\"][0])")"
'

test_expect_success SCIPY 'the change'"'"'s ratio interval is the step factor'"'"'s Moses interval at its exact level, as the oracle computes it' '
	for f in lo hi level; do
		test_near "$(json_get "$TMP/oracle.json" "d[\"ci\"][\"$f\"]")" \
			"$(json_get "$TMP/h.json" "d[\"change_points\"][0][\"ci\"][\"$f\"]")" 1e-9
	done
'

test_expect_success SCIPY 'one run a group, 3 after the change: the ratio interval and its exact level as the oracle'"'"'s, the level printed' '
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/mlruns" --exp-id 19 --name one-a-night --runs ddp-n8 \
		--key tag.git_commit --labels "$(seq -f "c%02g" 0 12 | paste -sd,)" --per-group 1 \
		--slow c10=1.3 --slow c11=1.3 --slow c12=1.3 --noise 1 &&
	"$AMDAHL" --store "$TMP/h3.db" ingest -q "$TMP/mlruns/19" &&
	test_status 0 "$AMDAHL" --store "$TMP/h3.db" history --by tag.git_commit --json &&
	echo "$OUT" >"$TMP/h3.json" &&
	test_eq "[\"c10\"] 10 3" "$(json_get "$TMP/h3.json" "\"%s %d %d\" % (jdump([c[\"group\"] for c in d[\"change_points\"]]), d[\"change_points\"][0][\"before\"][\"runs\"], d[\"change_points\"][0][\"after\"][\"runs\"])")" &&
	"$PY" "$ORACLE" --factor "$(json_get "$TMP/h3.json" "jdump([g[\"median\"] for g in d[\"groups\"][:10]])")" \
		"$(json_get "$TMP/h3.json" "jdump([g[\"median\"] for g in d[\"groups\"][10:]])")" >"$TMP/o3.json" &&
	for f in lo hi level; do
		test_near "$(json_get "$TMP/o3.json" "d[\"$f\"]")" \
			"$(json_get "$TMP/h3.json" "d[\"change_points\"][0][\"ci\"][\"$f\"]")" 1e-9
	done &&
	test_status 0 "$AMDAHL" --store "$TMP/h3.db" history --by tag.git_commit &&
	test_contains "$(json_get "$TMP/o3.json" "\"] (%.3g%%), permutation p\" % (100 * d[\"level\"])")" "$OUT"
'

test_expect_success SCIPY 'the A/A history has no change point' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --sweep aa --json
	echo "$OUT" >"$TMP/aa.json"
	test_eq "24 []" "$(json_get "$TMP/aa.json" "\"%d %s\" % (len(d[\"groups\"]), jdump(d[\"change_points\"]))")"
	test_eq 0 "$(json_get "$TMP/aa.json" "sum(abs(a - b[2]) > 1e-9 for a, b in zip([g[\"median\"] for g in d[\"groups\"]], json.load(open(\"$TMP/oracle-aa.json\"))[\"groups\"]))")"
'

test_expect_success SCIPY 'a regression later reverted (c08..c13 x1.20, back from c14) is two change points, found against both boundaries' '
	slow=$(for i in $(seq 8 13); do printf -- "--slow c%02d=1.20 " "$i"; done) &&
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/mlruns" --exp-id 9 --name reverted --runs ddp-n8 \
		--key tag.git_commit --labels "$LABELS" $slow --noise 3 &&
	"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --sweep reverted --json
	echo "$OUT" >"$TMP/rev.json"
	test_eq "[\"c08\",\"c14\"] [\"worse\",\"better\"]" "$(json_get "$TMP/rev.json" "\"%s %s\" % (jdump([c[\"group\"] for c in d[\"change_points\"]]), jdump([c[\"direction\"] for c in d[\"change_points\"]]))")"
	test_eq True "$(json_get "$TMP/rev.json" "all(c[\"p\"] == c[\"p_permutation\"] <= 0.05 for c in d[\"change_points\"])")"
'

test_expect_success SCIPY '--order by a numeric tag gives the order of start here' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --sweep nightly \
		--order tag.commit_time --json
	echo "$OUT" >"$TMP/ordered.json"
	test_eq "$(json_get "$TMP/h.json" "jdump([g[\"group\"] for g in d[\"groups\"]])")" \
		"$(json_get "$TMP/ordered.json" "jdump([g[\"group\"] for g in d[\"groups\"]])")"
	test_eq tag.commit_time "$(json_get "$TMP/ordered.json" "d[\"order\"]")"
'

test_expect_success SCIPY 'the table marks the change and says the method' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --sweep nightly
	test_contains "c12       3" "$OUT"
	test_contains "<- change" "$OUT"
	test_contains "1 change point (E-Divisive means, permutation test: 999 shuffles, alpha 0.05" "$OUT"
	test_contains "at c12 (worse)" "$OUT"
	test_contains "permutation p 0.001 (over every split searched)" "$OUT"
	# 3 runs a commit: the median interval is [min, max], printed with its own 75%
	test_contains "$(json_get "$TMP/h.json" "(lambda g: \"c00       3   %.4g  [%.4g, %.4g] (75%%)\" % (g[\"median\"], g[\"ci\"][\"lo\"], g[\"ci\"][\"hi\"]))(d[\"groups\"][0])")" "$OUT"
	test_contains "[min, max] covers the true median exactly 75% of the time with 3 runs" "$OUT"
	test_not_contains "Mann-Whitney" "$OUT"
'

test_expect_success SCIPY,PIL '--png writes the chart' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --sweep nightly --png "$TMP/h.png"
	# 640 x 360 points at 150 dpi, rounded up to whole pixels
	test_eq "$("$PY" -c "import math; print(math.ceil(640 * 150 / 72), math.ceil(360 * 150 / 72))")" \
		"$("$PY" -c "from PIL import Image; print(*Image.open(\"$TMP/h.png\").size)")"
'

test_expect_success SCIPY 'compare of 3 runs against 3: the ratio interval says what it covers (89%), as a seeded simulation of the same bootstrap finds' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" compare --by tag.git_commit --sweep nightly --baseline c11 --json &&
	echo "$OUT" >"$TMP/c3.json" &&
	test_eq "0.89" "$(json_get "$TMP/c3.json" "\" \".join(sorted({\"%g\" % r[\"ci\"][\"level\"] for c in d[\"comparisons\"] for r in c[\"rows\"] if r[\"ci\"] and r[\"baseline\"][\"runs\"] == 3 and r[\"candidate\"][\"runs\"] == 3}))")" &&
	test_eq ok "$("$PY" -c "
import sys, numpy as np
sys.path.insert(0, \"$AMDAHL_ROOT/tests/eval\")
from small_sample import ratio_cover2
c = np.mean([ratio_cover2(np.random.default_rng(7), d, 3, 3, 400, 1000) for d in (\"normal\", \"lognormal\")])
print(\"ok\" if abs(c - 0.89) < 3 * (0.89 * 0.11 / 800) ** 0.5 and c < 0.93 else c)")" &&
	test_status 0 "$AMDAHL" --store "$TMP/h.db" compare --by tag.git_commit --sweep nightly --baseline c11 &&
	test_contains "] (89%)" "$OUT" &&
	test_contains "a percentage after an interval is what it covers" "$OUT"
'

test_expect_success SCIPY 'compare of 4 runs against 4: the ratio interval says it covers 92%: 16,000 simulated samples of the same bootstrap with normal noise covered 92.8% (below 93%, so not "95%"); a seeded run agrees' '
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/four" --exp-id 1 --name four --runs ddp-n8 \
		--key tag.git_commit --labels a,b --per-group 4 --noise 3 &&
	"$AMDAHL" --store "$TMP/four.db" ingest -q "$TMP/four" &&
	test_status 0 "$AMDAHL" --store "$TMP/four.db" compare --by tag.git_commit --sweep four --baseline a --json &&
	echo "$OUT" >"$TMP/c4.json" &&
	test_eq "0.92" "$(json_get "$TMP/c4.json" "\" \".join(sorted({\"%g\" % r[\"ci\"][\"level\"] for c in d[\"comparisons\"] for r in c[\"rows\"] if r[\"ci\"] and r[\"baseline\"][\"runs\"] == 4 and r[\"candidate\"][\"runs\"] == 4}))")" &&
	test_eq ok "$("$PY" -c "
import sys, numpy as np
sys.path.insert(0, \"$AMDAHL_ROOT/tests/eval\")
from small_sample import ratio_cover2
c = ratio_cover2(np.random.default_rng(11), \"normal\", 4, 4, 4000, 1000)
print(\"ok\" if abs(c - 0.928) < 3 * (0.928 * 0.072 / 4000) ** 0.5 else c)")" &&
	test_status 0 "$AMDAHL" --store "$TMP/four.db" compare --by tag.git_commit --sweep four --baseline a &&
	test_contains "] (92%)" "$OUT"
'

# ---- gate --history N: the candidate group against the N before it ----
test_expect_success SCIPY 'gate --history 20: the last 3 commits, 25% slower, fail; p and ratio as the oracle' '
	test_status 1 "$AMDAHL" --store "$TMP/h.db" gate --history 20 --by tag.git_commit --sweep tail --json
	echo "$OUT" >"$TMP/g.json"
	"$PY" "$ORACLE" "$TMP/mlruns/8" tag.git_commit --odd 23 20 >"$TMP/odd.json"
	test_near "$(json_get "$TMP/odd.json" "d[\"p\"]")" "$(json_get "$TMP/g.json" "d[\"p\"]")" 1e-12
	test_near "$(json_get "$TMP/odd.json" "d[\"ratio\"]")" "$(json_get "$TMP/g.json" "d[\"ratio\"]")" 1e-12
	test_eq "regression c23 c21,c22,c23 20 c01 0.005" "$(json_get "$TMP/g.json" "\"%s %s %s %d %s %g\" % (d[\"result\"], d[\"candidate\"], \",\".join(d[\"window\"]), len(d[\"history\"]), d[\"history\"][0], d[\"alpha_night\"])")"
'
test_expect_success SCIPY 'gate --history: its false-FAIL rates per 10/20/40 checks at this history'"'"'s spread across groups (the spread as SciPy'"'"'s), in the sentence' '
	test_near "$(json_get "$TMP/odd.json" "d[\"spread\"]")" "$(json_get "$TMP/g.json" "d[\"rates\"][\"spread\"]")" 1e-12 &&
	test_eq True "$(json_get "$TMP/g.json" "(lambda r: 0 <= r[\"false_fail_10\"] <= r[\"false_fail_20\"] <= r[\"false_fail_40\"] <= 1 and 0 <= r[\"step_caught_3\"] <= 1 and r[\"histories\"] == 400)(d[\"rates\"])")" &&
	test_contains "$(json_get "$TMP/g.json" "(lambda r: \"spread across groups (%.1f%%), the rule gives a false FAIL within 10/20/40 checks without a change in %.1f/%.1f/%.1f%% of histories and catches a +10%% step within 3 checks in %.0f%%\" % (100 * r[\"spread\"], 100 * r[\"false_fail_10\"], 100 * r[\"false_fail_20\"], 100 * r[\"false_fail_40\"], 100 * r[\"step_caught_3\"]))(d[\"rates\"])")" \
		"$(json_get "$TMP/g.json" "d[\"sentence\"]")"
'
test_expect_success SCIPY 'gate --history 20: one slow commit alone passes (a change must hold for 3 groups); p as the oracle' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" gate --history 20 --by tag.git_commit --sweep tail --candidate c21 --json
	echo "$OUT" >"$TMP/g21.json"
	"$PY" "$ORACLE" "$TMP/mlruns/8" tag.git_commit --odd 21 19 >"$TMP/odd21.json"
	test_near "$(json_get "$TMP/odd21.json" "d[\"p\"]")" "$(json_get "$TMP/g21.json" "d[\"p\"]")" 1e-12
	test_eq "pass 19" "$(json_get "$TMP/g21.json" "\"%s %d\" % (d[\"result\"], len(d[\"history\"]))")"
	test_status 0 "$AMDAHL" --store "$TMP/h.db" gate --history 20 --by tag.git_commit --sweep tail --candidate c20 --json
	test_eq pass "$(echo "$OUT" | "$PY" -c "import json,sys; print(json.load(sys.stdin)[\"result\"])")"
'
test_expect_success 'gate --history 8 cannot reach alpha/10: exit 3, says how many groups would' '
	test_status 3 "$AMDAHL" --store "$TMP/h.db" gate --history 8 --by tag.git_commit --sweep tail
	test_contains "8 groups of history cannot reach it (smallest p 0.00606): 9 would" "$OUT"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" gate --history 20 --sweep tail
	test_contains "--history N needs --by KEY" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" gate --history 20 --by tag.git_commit --sweep tail --candidate c99
	test_contains "no group tag.git_commit=c99" "$ERR"
'

# ---- errors ----
test_expect_success 'history without --by is a usage error' '
	test_status 2 "$AMDAHL" --store "$TMP/h.db" history
	test_contains "--by KEY is required" "$ERR"
'
test_expect_success 'a group holding several configurations says how to narrow' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" history --by param.repeat
	test_contains "holds 8 configurations" "$ERR"
	test_contains "--sweep '"'"'strategy=ddp,n=1'"'"'" "$ERR"
'
test_expect_success 'a group key no run has names the closest' '
	test_status 2 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_comit --sweep nightly
	test_contains "closest: '"'"'git_commit'"'"'" "$ERR"
'
test_expect_success 'bad options are usage errors' '
	test_status 2 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --alpha 2
	test_contains "--alpha" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/h.db" history --by tag.git_commit --permutations 5
'

test_done
