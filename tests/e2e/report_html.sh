#!/bin/bash
# report_html.sh — report.html, the report as one self-contained page,
# opened in Debian's chromium (headless, by puppeteer-core:
# tests/browser/report_page.mjs) on the bundled CPU sweep and on a report
# with a baseline comparison (DDP against FSDP). What the browser saw is
# checked against report.json by tests/lib/report_page_check.py: no
# request leaves the file, no console error, every chart has real <text>
# and targets, the tooltip over a point is report.json's value and
# interval, a legend click hides its series, a heading click sorts its
# column, the filter keeps the matching runs, and with JavaScript off
# every chart and table is still there. Screenshots of each chart at
# 1280 px are checked not blank (PIL). On ClickHouse the browser is not
# driven again: the two report.html built there are byte for byte those a
# SQLite store of the same ingest gives, but for the minute each was built
# in (the last case), the pages the SQLite tier opens in chromium.
test_description='report.html in a real browser: offline, real text, tooltips from report.json, toggles, sorting'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
CHECK="$AMDAHL_ROOT/tests/lib/report_page_check.py"

# page NAME — opens $TMP/NAME/report.html in chromium: $TMP/NAME.json, shots in $TMP/NAME-shots
page() {
	mkdir -p "$TMP/$1-shots" &&
	node "$AMDAHL_ROOT/tests/browser/report_page.mjs" "$TMP/$1" "$TMP/$1-shots" >"$TMP/$1.json"
}
# BROWSER_TIER: the pages are opened in chromium (the SQLite tier; on
# ClickHouse they are those pages, checked byte for byte below)
test_lazy_prereq BROWSER_TIER '[ "$AMDAHL_TEST_BACKEND" != clickhouse ]'
test_lazy_prereq CLICKHOUSE_STORE '[ "$AMDAHL_TEST_BACKEND" = clickhouse ]'
# check NAME CHECK [ARG] — report_page_check.py's verdict must be "ok"
check() {
	test_eq "ok" "$("$PY" "$CHECK" "$2" "$TMP/$1.json" "$TMP/$1/report.json" ${3:+"$3"})"
}

test_expect_success 'setup: ingest the CPU sweep and build its report' '
	"$AMDAHL" --store "$TMP/s.db" ingest -q "$CPU" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/cpu"
'
test_expect_success 'report build names report.html among its outputs and writes it' '
	test_contains "report.html" "$OUT" &&
	test -s "$TMP/cpu/report.html"
'
test_expect_success 'summary.html is a short preview: it links report.html and shows one chart, no table' '
	html=$(cat "$TMP/cpu/summary.html") &&
	test_contains "<a href=\"report.html\"><b>report.html</b></a>" "$html" &&
	test_eq 1 "$(grep -c "<img " "$TMP/cpu/summary.html")" &&
	test_contains "<img src=\"charts/speedup.svg\"" "$html" &&
	test_not_contains "<table" "$html" &&
	test_contains "$(($(json_get "$TMP/cpu/report.json" "len(d[\"charts\"])") - 1)) more charts" "$html"
'
test_expect_success 'report.html refers to nothing outside itself (no src, link, import or remote URL)' '
	test_eq "" "$(grep -oiE "<(script|img|iframe)[^>]* src=|<link |@import|url\((https?:)?//|href=\"https?:" "$TMP/cpu/report.html")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'setup: open report.html in chromium' '
	page cpu
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'no request leaves file:// (only the page itself), none failed' '
	check cpu offline
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'no console error, no uncaught exception' '
	check cpu console
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'every chart of report.json is on the page with <text> (its title) and targets' '
	check cpu charts
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'the tooltip over each target hovered says its value and interval' '
	check cpu tooltips
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'epoch time: each point holds and shows report.json median, 95% CI and runs' '
	check cpu points epoch_time
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'speedup: each point holds and shows report.json speedup, its CI and runs' '
	check cpu points speedup
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'a legend click hides its series and its targets; a second shows them' '
	check cpu toggle
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'every table column sorts ascending then descending' '
	check cpu sort
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'the runs table sorted by run holds report.json runs' '
	check cpu runs_sorted
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'the filter box keeps exactly the fsdp runs' '
	check cpu filter fsdp
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'with JavaScript off every chart (text, targets) and table is there' '
	check cpu nojs
'
test_expect_success BROWSER,BROWSER_TIER,PIL 'each chart screenshot at 1280 px is wide and not blank' '
	test_eq "ok" "$("$PY" - "$TMP"/cpu-shots/*.png <<-\EOF
	import sys
	from PIL import Image
	bad = []
	for p in sys.argv[1:]:
	    im = Image.open(p).convert("RGB")
	    px = list(im.getdata())
	    ink = sum(1 for r, g, b in px if r + g + b < 600) / len(px)
	    colours = len(set(px))
	    if im.width < 600 or ink < 0.01 or colours < 20:
	        bad.append("%s: %dx%d ink %.3f colours %d" % (p, im.width, im.height, ink, colours))
	print("\n".join(bad) or "ok")
	EOF
	)"
'

test_expect_success 'a strategy named with markup is text in the SVG, the tooltips and the tables, never markup' '
	rm -rf "$TMP/markup" && cp -r "$CPU" "$TMP/markup" &&
	for f in $(grep -rlx fsdp "$TMP/markup" --include=strategy); do
		printf "%s" "<img src=y onerror=alert(1)>&" >"$f"; done &&
	"$AMDAHL" --store "$TMP/m.db" ingest -q "$TMP/markup" &&
	test_status 0 "$AMDAHL" --store "$TMP/m.db" report build -o "$TMP/hostile" &&
	test_not_contains "<img src=y" "$(cat "$TMP/hostile/report.html")" &&
	test_contains "&lt;img src=y onerror=alert(1)&gt;&amp;</text>" "$(cat "$TMP/hostile/report.html")" &&
	test_contains "data-name=\"&lt;img src=y onerror=alert(1)&gt;&amp;\"" "$(cat "$TMP/hostile/report.html")" &&
	test_contains "&lt;img src=y onerror=alert(1)&gt;&amp;</td>" "$(cat "$TMP/hostile/report.html")"
'

# ---- a report with a baseline comparison ----
test_expect_success 'setup: report build --baseline ddp --candidate fsdp' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/cmp" \
		--baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'setup: open the compared report in chromium' '
	page cmp
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'compared: offline, no console error, every chart there' '
	check cmp offline && check cmp console && check cmp charts
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'compared: each comparison bar holds a gated row ratio and CI from report.json' '
	check cmp comparison
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'compared: tooltips, toggles and sorting work' '
	check cmp tooltips && check cmp toggle && check cmp sort
'
# unstamped FILE: report.html without the minute it was built (the one
# line "· amdahl VERSION, YYYY-MM-DD HH:MM UTC</p>"), which differs when
# the two builds fall in different minutes
unstamped() {
	test_eq 1 "$(grep -cE "· amdahl [^ ,]+, [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC</p>$" "$1")" &&
	sed -E "s/(· amdahl [^ ,]+, )[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC(<\/p>)$/\1BUILT\2/" "$1"
}
test_expect_success CLICKHOUSE_STORE 'on ClickHouse both pages the SQLite tier opens in chromium are byte for byte those a SQLite store of the same ingest gives (but the minute of the build)' '
	"$AMDAHL_CH_REAL" --store "$TMP/local.db" ingest -q "$CPU" &&
	"$AMDAHL_CH_REAL" --store "$TMP/local.db" report build -o "$TMP/local-cpu" >/dev/null &&
	"$AMDAHL_CH_REAL" --store "$TMP/local.db" report build -o "$TMP/local-cmp" \
		--baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp >/dev/null &&
	for r in cpu cmp; do
		unstamped "$TMP/local-$r/report.html" >"$TMP/local-$r.html" &&
		unstamped "$TMP/$r/report.html" >"$TMP/$r.html" &&
		cmp "$TMP/local-$r.html" "$TMP/$r.html" || return 1
	done
'
test_done
