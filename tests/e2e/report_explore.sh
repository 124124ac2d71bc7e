#!/bin/bash
# report_explore.sh — the exploring parts of report.html in a real browser
# (Debian's chromium, headless, one session: tests/browser/report_explore.mjs)
# on the bundled CPU sweep, checked by tests/lib/report_explore_check.py
# against report.json and `amdahl scaling --json` of the same store: hover
# over interval and prediction bands, zoom/reset on a line chart's x axis,
# the log/linear switch of the charts the PDF draws with log axes.
test_description='report.html exploring: band tooltips, zoom, log/linear'
. "$(dirname "$0")/../test-lib.sh"

test_lazy_prereq BROWSER '[ -x /usr/bin/chromium ] && command -v node &&
	[ -d "$AMDAHL_ROOT/tests/browser/node_modules/puppeteer-core" ]'

CPU=$DATA/cpu-strong-scaling/mlruns
CHECK="$AMDAHL_ROOT/tests/lib/report_explore_check.py"

# check CHECK — report_explore_check.py's verdict must be "ok"
check() {
	test_eq "ok" "$("$PY" "$CHECK" "$1" "$TMP/page.json" "$TMP/cpu/report.json" "$TMP/scaling.json")"
}

test_expect_success 'setup: ingest the CPU sweep, build its report, its scaling models as JSON' '
	"$AMDAHL" --store "$TMP/s.db" ingest -q "$CPU" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/cpu" &&
	"$AMDAHL" --store "$TMP/s.db" scaling --json >"$TMP/scaling.json"
'
test_expect_success BROWSER,PYTHON 'setup: explore report.html in chromium' '
	mkdir -p "$TMP/shots" &&
	node "$AMDAHL_ROOT/tests/browser/report_explore.mjs" "$TMP/cpu" "$TMP/shots" >"$TMP/page.json" &&
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
test_expect_success 'without JavaScript the linear drawings stay inert (in <template>), one <svg> per chart' '
	test_eq "$(grep -c "<figure id=" "$TMP/cpu/report.html")" \
		"$("$PY" -c "import re,sys; h=open(sys.argv[1]).read(); h=re.sub(r\"<template.*?</template>\", \"\", h, flags=re.S); print(h.count(\"<svg class=\\\"chart\\\"\"))" "$TMP/cpu/report.html")" &&
	test "$(grep -c "<template class=\"alt-scale\">" "$TMP/cpu/report.html")" -ge 4
'
test_done
