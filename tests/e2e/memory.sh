#!/bin/bash
# memory.sh — memory per GPU in the report from logged metrics (runs
# without profile_memory traces): the bundled CPU sweep with a
# max_memory_allocated_mb metric added to its runs, the peak chart drawn
# without a timeline (and the report saying why), and a sweep without any
# memory figure saying so in its data gaps; `stats --json`'s memory per
# configuration against python.
test_description='memory per GPU from max_memory_allocated metrics; the report says what is missing'
. "$(dirname "$0")/../test-lib.sh"

S="$TMP/s.db"
GAPS='"\n".join(g for g in d["gaps"] if "emory" in g)'

test_expect_success 'setup: the CPU sweep with max_memory_allocated_mb logged by every ddp run' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/mlruns" &&
	for r in "$TMP"/mlruns/*/*/; do
		[ "$(cat "$r/params/strategy" 2>/dev/null)" = ddp ] || continue
		n=$(cat "$r/params/world_size") && k=$(cat "$r/params/repeat") &&
		printf "1700000000000 %d 0\n1700000001000 %d 1\n" $((2048 / n)) $((4096 / n + 100 * k)) >"$r/metrics/max_memory_allocated_mb" || return 1
	done &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/mlruns"
'
test_expect_success PDFTOTEXT 'report: the peak memory chart from the metric, no timeline and why' '
	test_status 0 "$AMDAHL" --store "$S" report build -o "$TMP/rep" &&
	test_eq memory_peak "$(json_get "$TMP/rep/report.json" "\" \".join(c[\"name\"] for c in d[\"charts\"] if c[\"name\"].startswith(\"memory\"))")" &&
	test_eq "Memory timeline: no run has traced memory samples (only logged metrics)." "$(json_get "$TMP/rep/report.json" "$GAPS")" &&
	pdftotext "$TMP/rep/report.pdf" - >"$TMP/rep.txt" &&
	test_contains "or a logged max_memory_allocated metric" "$(cat "$TMP/rep.txt")"
'
test_expect_success PYTHON 'the medians the caption gives equal python'\''s from the metric files' '
	"$PY" "$AMDAHL_ROOT/tests/oracle/memory_peaks.py" "$TMP/mlruns" caption >"$TMP/want.txt" &&
	{ [ -f "$TMP/rep/report.json" ] || "$AMDAHL" --store "$S" report build -o "$TMP/rep" >/dev/null; } &&
	test_contains "$(cat "$TMP/want.txt")" "$(json_get "$TMP/rep/report.json" "[c[\"caption\"] for c in d[\"charts\"] if c[\"name\"] == \"memory_peak\"][0]")"
'
test_expect_success PYTHON 'stats --json: per configuration the median, least and most peak equal python'"'"'s, with the interval' '
	"$PY" "$AMDAHL_ROOT/tests/oracle/memory_peaks.py" "$TMP/mlruns" stats >"$TMP/want.txt" &&
	"$AMDAHL" --store "$S" stats --json >"$TMP/stats.json" &&
	test_eq "$(cat "$TMP/want.txt")" "$(json_get "$TMP/stats.json" "\"\\n\".join(\"%d|%d|%.0f|%.0f|%.0f\" % (p[\"n\"], a[\"runs\"], a[\"median\"], a[\"min\"], a[\"max\"]) for p in sweep()[\"memory\"][\"points\"] if p[\"strategy\"] == \"ddp\" for a in [p[\"peak_allocated\"]])")" &&
	test_eq "True|True" "$(json_get "$TMP/stats.json" "\"%s|%s\" % (sweep()[\"memory\"][\"from_metric\"], sweep()[\"memory\"][\"timeline\"] is None)")" &&
	test_eq "" "$(json_get "$TMP/stats.json" "\" \".join(\"%g\" % p[\"n\"] for p in sweep()[\"memory\"][\"points\"] for a in [p[\"peak_allocated\"]] if a[\"runs\"] >= 3 and not (a[\"ci\"] is not None and a[\"min\"] <= a[\"ci\"][\"lo\"] <= a[\"median\"] <= a[\"ci\"][\"hi\"] <= a[\"max\"]))")" &&
	test_true "some configuration has 3 runs" [ "$(json_get "$TMP/stats.json" "sum(p[\"peak_allocated\"][\"runs\"] >= 3 for p in sweep()[\"memory\"][\"points\"])")" -ge 1 ] &&
	# below 6 runs the median interval is [min, max] at its exact level (0.75 of 3 runs, 0.875 of 4, 0.9375 of 5)
	test_eq "" "$(json_get "$TMP/stats.json" "\" \".join(\"%g\" % p[\"n\"] for p in sweep()[\"memory\"][\"points\"] for a in [p[\"peak_allocated\"]] if 3 <= a[\"runs\"] < 6 and (a[\"ci\"][\"lo\"], a[\"ci\"][\"hi\"], a[\"ci\"][\"level\"]) != (a[\"min\"], a[\"max\"], 1 - 2 * 0.5 ** a[\"runs\"]))")"
'
test_expect_success 'stats --json: a sweep without memory figures has null medians and says why there is no interval' '
	"$AMDAHL" --store "$TMP/plain.db" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null &&
	"$AMDAHL" --store "$TMP/plain.db" stats --json >"$TMP/plain.json" &&
	test_eq "False|None|n=0: no CI" "$(json_get "$TMP/plain.json" "(lambda m: \"%s|%s|%s\" % (m[\"any\"], m[\"points\"][0][\"peak_allocated\"][\"median\"], m[\"points\"][0][\"peak_allocated\"][\"ci_why\"]))(sweep()[\"memory\"])")"
'
test_expect_success 'a sweep without memory figures: the report says so' '
	test_status 0 "$AMDAHL" --store "$TMP/plain.db" report build -o "$TMP/plain" &&
	test_eq "Memory per GPU: no trace recorded with profile_memory=True and no max_memory_allocated metric for these runs." "$(json_get "$TMP/plain/report.json" "$GAPS")"
'
test_done
