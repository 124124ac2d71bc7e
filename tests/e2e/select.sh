# select.sh — run selectors and grouping on one experiment that holds two
# labelled arms (tests/lib/mlruns_groups.py: the bundled CPU sweep's 24
# finished runs copied twice into one experiment, param arm=baseline and
# arm=candidate, the candidate's epoch times ×1.10): pooled, the arms are
# one configuration; selected, each arm's statistics equal the oracle's
# (tests/oracle/stats_oracle.py) on an experiment holding that arm alone,
# gate compares the arms (ratio 1.10 by construction), --by splits them,
# and keys or values no run has are errors naming the closest ones.
test_description='selectors (--sweep/--baseline/--candidate KEY=VALUE,..., regions SELECTOR) and stats --by'
. "$(dirname "$0")/../test-lib.sh"

GROUPS_PY="$AMDAHL_ROOT/tests/lib/mlruns_groups.py"
ORACLE="$AMDAHL_ROOT/tests/oracle/stats_oracle.py"
CPU=$DATA/cpu-strong-scaling/mlruns/4

# med FILE STRATEGY N — the median at (strategy, n) of the first sweep of a
# stats --json document.
med() { json_get "$1" "point(\"$2\", $3)[\"median\"]"; }
# oracle_med STRATEGY N — the oracle's median at (strategy, n) of the
# baseline arm alone.
oracle_med() {
	json_get "$TMP/oracle.json" "next(p[\"median\"] for p in d[\"sweeps\"][\"ab\"][\"strategies\"][\"$1\"][\"points\"] if p[\"n\"] == $2)"
}

test_expect_success PYTHON 'setup: one experiment with two arms, and the baseline arm alone' '
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/arms" --exp-id 5 --name ab --runs "*" --key param.arm \
		--labels baseline,candidate --slow candidate=1.10 &&
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/base" --exp-id 5 --name ab --runs "*" --key param.arm \
		--labels baseline &&
	"$AMDAHL" --store "$TMP/ab.db" ingest -q "$TMP/arms" &&
	"$PY" "$ORACLE" "$TMP/base" >"$TMP/oracle.json"
'

test_expect_success PYTHON 'without a selector the two arms pool into one configuration' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" stats --json
	echo "$OUT" >"$TMP/pooled.json"
	test_eq 6 "$(json_get "$TMP/pooled.json" "point(\"ddp\", 8)[\"runs\"]")"
'

test_expect_success PYTHON 'stats on param.arm=baseline equals the oracle on the baseline arm alone' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" stats --sweep param.arm=baseline --json
	echo "$OUT" >"$TMP/base.json"
	test_eq "param.arm=baseline" "$(json_get "$TMP/base.json" "sweep()[\"sweep\"]")"
	for s in ddp fsdp; do for n in 1 2 4 8; do
		test_eq 3 "$(json_get "$TMP/base.json" "point(\"$s\", $n)[\"runs\"]")"
		test_near "$(oracle_med $s $n)" "$(med "$TMP/base.json" $s $n)" 1e-9
	done; done
'

test_expect_success PYTHON 'gate param.arm=baseline against param.arm=candidate: every time ratio is the inserted 1.10' '
	test_status 3 "$AMDAHL" --store "$TMP/ab.db" gate --baseline param.arm=baseline \
		--candidate param.arm=candidate --json
	echo "$OUT" >"$TMP/gate.json"
	test_eq 8 "$(json_get "$TMP/gate.json" "len([r for r in d[\"rows\"] if r[\"metric\"] == \"epoch_time_s\"])")"
	test_eq "[1.1]" "$(json_get "$TMP/gate.json" "sorted(set(round(r[\"ratio\"], 9) for r in d[\"rows\"] if r[\"metric\"] == \"epoch_time_s\"))")"
	test_eq "[3]" "$(json_get "$TMP/gate.json" "sorted(set(r[\"baseline\"][\"runs\"] for r in d[\"rows\"]))")"
	test_status 3 "$AMDAHL" --store "$TMP/ab.db" gate --baseline param.arm=baseline \
		--candidate param.arm=candidate
	test_contains "baseline param.arm=baseline, candidate param.arm=candidate" "$OUT"
'

test_expect_success PYTHON 'strategy=ddp against strategy=fsdp inside one arm compares them by n' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" compare --baseline "param.arm=baseline,strategy=ddp" \
		--candidate "param.arm=baseline,strategy=fsdp" --n 8 --json
	echo "$OUT" >"$TMP/cmp.json"
	want=$("$PY" -c "print($(oracle_med fsdp 8) / $(oracle_med ddp 8))")
	test_near "$want" "$(json_get "$TMP/cmp.json" "row(\"epoch_time_s\", n=8)[\"ratio\"]")" 1e-9
'

test_expect_success PYTHON 'stats --by param.arm gives the arms in order, 24 runs each' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" stats --by param.arm --json
	echo "$OUT" >"$TMP/by.json"
	test_eq "baseline:24 candidate:24" \
		"$(json_get "$TMP/by.json" "\" \".join(\"%s:%d\" % (s[\"group\"], s[\"runs_total\"]) for s in d[\"sweeps\"])")"
	test_near "$(oracle_med ddp 8)" \
		"$(json_get "$TMP/by.json" "[p for p in d[\"sweeps\"][0][\"strategies\"][0][\"points\"] if p[\"n\"] == 8][0][\"median\"]")" 1e-9
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" stats --by param.arm
	test_contains "group param.arm=candidate" "$OUT"
'

test_expect_success PYTHON 'runs: numbers compare as numbers, dates pick the later arm' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "param.arm=candidate,n>=4" --json
	echo "$OUT" >"$TMP/runs.json"
	test_eq "12 [4, 8]" "$(json_get "$TMP/runs.json" "\"%d %s\" % (len(d[\"runs\"]), sorted(set(r[\"n\"] for r in d[\"runs\"])))")"
	cand_start=$(q "$TMP/ab.db" "SELECT min(r.start_ms) FROM run r JOIN param p ON p.run_id = r.id JOIN dict d ON d.id = p.key_id AND d.s = \"arm\" WHERE p.value = \"candidate\"")
	day=$(date -u -d "@$(( cand_start / 1000 - 60 ))" +%Y-%m-%dT%H:%M:%S)
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "since=$day" --json
	echo "$OUT" >"$TMP/since.json"
	test_eq 24 "$(json_get "$TMP/since.json" "len(d[\"runs\"])")"
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "until=$day,tag.mlflow.runName~ddp-n*" --json
	echo "$OUT" >"$TMP/until.json"
	test_eq 12 "$(json_get "$TMP/until.json" "len(d[\"runs\"])")"
'

test_expect_success PYTHON 'compare --by param.arm: the candidate arm against the first, ratios 1.10' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" compare --by param.arm --json
	echo "$OUT" >"$TMP/cmpby.json"
	test_eq "param.arm baseline candidate" "$(json_get "$TMP/cmpby.json" "\"%s %s %s\" % (d[\"by\"], d[\"baseline\"], \" \".join(c[\"group\"] for c in d[\"comparisons\"]))")"
	test_eq "[1.1]" "$(json_get "$TMP/cmpby.json" "sorted(set(round(r[\"ratio\"], 9) for r in d[\"comparisons\"][0][\"rows\"] if r[\"metric\"] == \"epoch_time_s\"))")"
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" compare --by param.arm --baseline candidate --sweep n=8
	test_contains "== param.arm=baseline against param.arm=candidate ==" "$OUT"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" compare --by param.arm --baseline nope
	test_contains "no group param.arm=nope (groups: baseline, candidate)" "$ERR"
'

test_expect_success PYTHON 'compare --by --format csv: one header, each row led by its groups, the JSON'"'"'s numbers' '
	"$PY" "$GROUPS_PY" "$CPU" "$TMP/three" --exp-id 9 --name three --runs "ddp-n*" --key param.arm \
		--labels a,b,c --slow b=1.10 --slow c=1.30 &&
	"$AMDAHL" --store "$TMP/three.db" ingest -q "$TMP/three" &&
	test_status 0 "$AMDAHL" --store "$TMP/three.db" compare --by param.arm --format csv
	echo "$OUT" >"$TMP/by.csv"
	"$AMDAHL" --store "$TMP/three.db" compare --by param.arm --json >"$TMP/by.json"
	test_eq 1 "$(grep -c "^baseline_group,group,metric," "$TMP/by.csv")"
	test_eq "$(json_get "$TMP/by.json" "sum(len(c[\"rows\"]) for c in d[\"comparisons\"])")" \
		"$("$PY" -c "import csv, sys; print(len(list(csv.DictReader(open(sys.argv[1])))))" "$TMP/by.csv")"
	test_eq "ok" "$("$PY" - "$TMP/by.json" "$TMP/by.csv" "$AMDAHL_ROOT/tests/lib" <<-\EOF
		import csv, json, sys
		sys.path.insert(0, sys.argv[3])
		from verdict_words import shown
		d = json.load(open(sys.argv[1]))
		rows = list(csv.DictReader(open(sys.argv[2], newline="")))
		want = [(d["baseline"], c["group"], r) for c in d["comparisons"] for r in c["rows"]]
		bad = [c for (b, g, r), c in zip(want, rows)
		       if (c["baseline_group"], c["group"], c["metric"], float(c["n"]), c["verdict"]) !=
		          (b, g, r["metric"], r["n"], shown(r))
		       or abs(float(c["ratio"]) - r["ratio"]) > 1e-12 * r["ratio"]
		       or abs(float(c["baseline_median"]) - r["baseline"]["median"]) > 1e-12 * r["baseline"]["median"]]
		print("ok" if len(want) == len(rows) and not bad else bad)
	EOF
	)"
	test_eq "b 1.1 c 1.3" "$("$PY" -c "
import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x[\"metric\"] == \"epoch_time_s\"]
print(\" \".join(\"%s %s\" % (g, \" \".join(sorted(set(str(round(float(x[\"ratio\"]), 9)) for x in r if x[\"group\"] == g)))) for g in (\"b\", \"c\")))" "$TMP/by.csv")"
'

test_expect_success PYTHON 'regions SELECTOR: the rows of the sweep'"'"'s configurations it picks, the same numbers' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	"$AMDAHL" --store "$TMP/cpu.db" regions cpu-strong-scaling -n 0 --json >"$TMP/reg-sweep.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" regions "strategy=ddp,n>=4" -n 0 --json
	echo "$OUT" >"$TMP/reg-sel.json"
	test_eq selection "$(json_get "$TMP/reg-sel.json" "d[\"of\"]")"
	want=$(json_get "$TMP/reg-sweep.json" "jdump([r for r in d[\"regions\"] if r[\"strategy\"] == \"ddp\" and r[\"n\"] >= 4])")
	test_true "the sweep has such rows" [ "$(json_get "$TMP/reg-sweep.json" "len([r for r in d[\"regions\"] if r[\"strategy\"] == \"ddp\" and r[\"n\"] >= 4]) > 10")" = True ]
	test_eq "$want" "$(json_get "$TMP/reg-sel.json" "jdump(d[\"regions\"])")"
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" regions "strategy=fsdp,n=2" -n 2
	test_contains "regions of selection strategy=fsdp,n=2" "$OUT"
	test_eq 2 "$(echo "$OUT" | grep -c "^fsdp  *2 ")"
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" regions "strategy=dpp"
	test_contains "closest: '"'"'ddp'"'"'" "$ERR"
'

# ---- errors: one line naming the closest, exit 2, nothing written ----
test_expect_success 'an unknown key names the closest key' '
	before=$(store_digest "$TMP/ab.db")
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --sweep "strategi=ddp"
	test_contains "unknown key '"'"'strategi'"'"'; closest: '"'"'strategy'"'"'" "$ERR"
	test_eq "$before" "$(store_digest "$TMP/ab.db")"
'
test_expect_success 'a param no run has names the closest params' '
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" gate --baseline param.amr=baseline --candidate param.arm=candidate
	test_contains "no run has a param '"'"'amr'"'"'; closest: '"'"'arm'"'"'" "$ERR"
'
test_expect_success 'a value that matches nothing names the closest values' '
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" compare --baseline param.arm=basline --candidate param.arm=candidate
	test_contains "no run matches '"'"'param.arm=basline'"'"'; closest: '"'"'baseline'"'"'" "$ERR"
	test_contains "values: baseline, candidate" "$ERR"
'
test_expect_success 'a term that empties what the earlier ones left says so' '
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --sweep "strategy=ddp,n>8"
	test_contains "of the 24 runs the terms before '"'"'n>8'"'"' leave, none matches" "$ERR"
'
# runs lists: a selector whose values match nothing is an empty list
# (exit 0), its reason a note; a key no run has is still an error.
test_expect_success 'runs: a selector that matches nothing is an empty list, exit 0, the reason noted' '
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "strategy=ddp,n>8"
	test_eq "" "$OUT"
	test_eq "amdahl runs: note: $(store_name "$TMP/ab.db"): selector '"'"'strategy=ddp,n>8'"'"': of the 24 runs the terms before '"'"'n>8'"'"' leave, none matches '"'"'n>8'"'"' (values: 1, 2, 4, 8)" "$ERR"
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "param.arm=basline" --json
	test_eq 0 "$(printf "%s\n" "$OUT" | json_get - "len(d[\"runs\"])")"
	test_contains "closest: '"'"'baseline'"'"'" "$ERR"
	test_status 0 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "strategy=ddp,param.arm=candidate,n>=2"
	test_contains "sweep " "$OUT"
'
test_expect_success 'runs: a key no run has, or a malformed term, is still exit 2 naming the closest' '
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "strategy=ddp,param.amr=baseline"
	test_contains "no run has a param '"'"'amr'"'"'; closest: '"'"'arm'"'"'" "$ERR"
	test_eq "" "$OUT"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "tag.git_comit=abc"
	test_contains "no run has a tag" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "strategi=ddp"
	test_contains "unknown key '"'"'strategi'"'"'; closest: '"'"'strategy'"'"'" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" runs --sweep "n>eight"
	test_contains "is not a number" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" runs --sweep cpu-strong
	test_contains "no sweep named '"'"'cpu-strong'"'"' in $(store_name "$TMP/ab.db") (sweeps: " "$ERR"
'
test_expect_success 'bad terms: not a number, not a date, no operator, empty term' '
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --sweep "n>eight"
	test_contains "'"'"'eight'"'"' is not a number" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --sweep "since=2026-13-40"
	test_contains "is not a date" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --sweep "n>=4,,strategy=ddp"
	test_contains "empty term" "$ERR"
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --sweep "status=DONE"
	test_contains "no status '"'"'DONE'"'"'" "$ERR"
'
test_expect_success '--by a key no run has names the closest' '
	test_status 2 "$AMDAHL" --store "$TMP/ab.db" stats --by tag.git_comit
	test_contains "no run has a tag" "$ERR"
'

test_done
