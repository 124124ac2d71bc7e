#!/bin/bash
# report_explore.sh — the exploring parts of report.html in a real browser
# (Debian's chromium, headless, one session: tests/browser/report_explore.mjs)
# on the bundled CPU sweep, checked by tests/lib/report_explore_check.py
# against report.json and `amdahl scaling --json` of the same store: hover
# over interval and prediction bands, zoom/reset on a line chart's x axis,
# the log/linear switch of the charts the PDF draws with log axes, the
# picker of any region under each "What limits scaling", the rank traces'
# paths for the Perfetto UI, and WCAG AA contrast of every text (also on a
# report with a baseline comparison).
test_description='report.html exploring: band tooltips, zoom, log/linear, any region, Perfetto, contrast'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
CHECK="$AMDAHL_ROOT/tests/lib/report_explore_check.py"

# check CHECK — report_explore_check.py's verdict must be "ok"
check() {
	test_eq "ok" "$("$PY" "$CHECK" "$1" "$TMP/page.json" "$TMP/cpu/report.json" "$TMP/scaling.json" "$(store_file "$TMP/s.db")")"
}

test_expect_success 'setup: ingest the CPU sweep, build its report, its scaling models as JSON' '
	"$AMDAHL" --store "$TMP/s.db" ingest -q "$CPU" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/cpu" &&
	"$AMDAHL" --store "$TMP/s.db" scaling --json >"$TMP/scaling.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/cmp" \
		--baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
'
test_expect_success BROWSER,PYTHON 'setup: explore report.html in chromium' '
	mkdir -p "$TMP/shots" &&
	node "$AMDAHL_ROOT/tests/browser/report_explore.mjs" "$TMP/cpu" "$TMP/shots" "$TMP/cmp" >"$TMP/page.json" &&
	test_eq "[]" "$(json_get "$TMP/page.json" "d[\"errors\"]")"
'
test_expect_success BROWSER,PYTHON 'speedup band: each target holds and shows report.json speedup, its CI and runs' '
	check bands_speedup
'
test_expect_success BROWSER,PYTHON 'prediction bands: the ends hold and show the region model (scaling --json)' '
	check bands_limits
'
test_expect_success BROWSER,PYTHON 'zoom: dragging n = 2..8 on epoch time maps every point there, Reset zoom undoes it' '
	check zoom
'
test_expect_success BROWSER,PYTHON 'log/linear: charts with log axes switch to linear and back, same values' '
	check scale
'
test_expect_success 'without JavaScript the linear drawings stay inert (in <template>), one <svg> per figure' '
	test_eq "$(grep -c "<figure " "$TMP/cpu/report.html")" \
		"$("$PY" -c "import re,sys; h=open(sys.argv[1]).read(); h=re.sub(r\"<template.*?</template>\", \"\", h, flags=re.S); print(h.count(\"<svg class=\\\"chart\\\"\"))" "$TMP/cpu/report.html")" &&
	test "$(grep -c "<template class=\"alt-scale\">" "$TMP/cpu/report.html")" -ge 4
'
test_expect_success BROWSER,PYTHON 'picker: any region of a strategy shows its measurements, model and band (scaling --json)' '
	check picker
'
test_expect_success PYTHON 'picker data: every region of scaling --json, its predictions to six digits and their levels, each band sample labelled with what it covers; a chart without JavaScript' '
	test_eq "ok" "$("$PY" - "$TMP/cpu/report.html" "$TMP/scaling.json" <<-\EOF
	import json, re, sys
	html, sc = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
	bad, relabelled = [], 0
	figs = re.findall(r"<figure class=\"picker\" data-picker=\"limits_([^\"]*)\">(.*?)</figure>", html, re.S)
	for strategy, body in figs:
	    d = json.loads(re.search(r"<script type=\"application/json\" class=\"regions\">(.*?)</script>", body, re.S).group(1))
	    want = [r for r in sc["regions"] if r["strategy"] == strategy]
	    if [r["name"] for r in d["regions"]] != [r["name"] for r in want]:
	        bad.append("%s: regions differ" % strategy)
	    for got, r in zip(d["regions"], want):
	        for (n, v, lo, hi, lev), p in zip(got["predictions"], r["predictions"]):
	            if n != p["n"] or any(abs(a - b * 1e3) > 6e-6 * abs(b * 1e3) for a, b in ((v, p["value"]), (lo, p["ci"]["lo"]), (hi, p["ci"]["hi"]))):
	                bad.append("%s %s n=%g: %s, scaling --json %s" % (strategy, r["name"], n, (v, lo, hi), p))
	            if abs(lev - p["ci"]["level"]) > 1e-6:
	                bad.append("%s %s n=%g: level %s, scaling --json %s" % (strategy, r["name"], n, lev, p["ci"]["level"]))
	        # the band is labelled as the predictions are: the asked level
	        # up to the largest measured n, what it covers beyond it (as at
	        # the target n); the CPU sweep relabels some bands beyond n = 8
	        for (v, lo, hi, lev), n in zip(got["band"], d["band_n"][0]):
	            if n <= d["max_n"] * (1 + 1e-9) and lev != d["level"]:
	                bad.append("%s %s band n=%g: level %s inside the measured n" % (strategy, r["name"], n, lev))
	            relabelled += n > d["max_n"] * (1 + 1e-9) and lev < 0.93
	        top = max(r["predictions"], key=lambda p: p["n"])
	        if top["n"] == d["target"] and abs(got["band"][-1][3] - top["ci"]["level"]) > 1e-6:
	            bad.append("%s %s: band at the target %s, scaling --json %s" % (strategy, r["name"], got["band"][-1][3], top["ci"]["level"]))
	    if body.count("<text") < 10 or "class=\"hit\"" not in body:
	        bad.append("%s: the chart of the first region is not drawn" % strategy)
	if len(figs) != 2:
	    bad.append("%d pickers" % len(figs))
	if not relabelled:
	    bad.append("no band beyond the measured n labelled below 93%")
	print("\n".join(bad[:10]) or "ok")
	EOF
	)"
'
test_expect_success BROWSER,PYTHON 'Perfetto: the UI address as text, how to open a file, every rank trace path of the store' '
	check perfetto
'
test_expect_success BROWSER,PYTHON 'WCAG AA: every text of both reports 4.5:1 against what lies under it (3:1 large); controls fail' '
	check contrast
'
test_done
