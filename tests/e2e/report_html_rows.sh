#!/bin/bash
# report_html_rows.sh — report.html at the size of a real sweep and on a
# phone, opened in Debian's chromium (tests/browser/report_rows.mjs): a
# sweep of 1,500 runs (bench/gen_hostile.py runs) whose runs table shows
# 100 rows at a time with a pager ("Showing 100 of 1500 rows", a button
# for 100 more), sorts all its rows by a heading click (the rows shown are
# the first of report.json's run names in order, the click laid out well
# within a generous bound), filters all its rows, and shows every row
# with JavaScript off or printed; and the bundled CPU sweep's page at a
# 390 px phone viewport scrolls no wider than the screen, nor does the
# tooltip of a chart's rightmost point make it (a wide table scrolls in
# its own box; a page wider than the phone is zoomed out whole, its text
# too small to read).
test_description='report.html: a 1,500-run table pages, sorts and filters; no page-wide scroll at 390 px'
. "$(dirname "$0")/../test-lib.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
# rows NAME WORD — opens $TMP/NAME/report.html: $TMP/NAME.json
rows() {
	node "$AMDAHL_ROOT/tests/browser/report_rows.mjs" "$TMP/$1" "$2" >"$TMP/$1.json"
}
# verdict NAME PYTHON — PYTHON (with page = $TMP/NAME.json and names =
# report.json's run names, sorted) prints what is wrong, or nothing
verdict() {
	"$PY" - "$TMP/$1.json" "$TMP/$1/report.json" "$2" <<-\EOF
	import json, sys
	page = json.load(open(sys.argv[1]))
	rep = json.load(open(sys.argv[2]))
	names = sorted(r["name"] or r["id"] for s in rep["strategies"] for p in s["points"] for r in p["run_values"])
	bad = []
	exec("\n".join(line.strip() for line in sys.argv[3].splitlines()))
	print("\n".join(map(str, bad)) or "ok")
	EOF
}
test_lazy_prereq BROWSER_TIER '[ "$AMDAHL_TEST_BACKEND" != clickhouse ]'

test_expect_success 'setup: a sweep of 1,500 runs and its report' '
	"$PY" "$AMDAHL_ROOT/bench/gen_hostile.py" "$TMP/gen" runs 1500 >/dev/null &&
	"$AMDAHL" --store "$TMP/big.db" ingest -q "$TMP/gen/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/big.db" report build -o "$TMP/big" &&
	test_eq 1500 "$(json_get "$TMP/big/report.json" "sum(len(p[\"run_values\"]) for s in d[\"strategies\"] for p in s[\"points\"])")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'setup: open it in chromium' '
	rows big r1
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'the runs table holds all 1,500 runs and shows the first 100, with a pager saying so' '
	test_eq ok "$(verdict big "
	r = page[\"rows\"]
	if r[\"in_page\"] != len(names): bad.append((\"rows in the page\", r[\"in_page\"], len(names)))
	if len(r[\"shown\"]) != 100: bad.append((\"rows shown\", len(r[\"shown\"])))
	if r[\"pager\"] != \"Showing 100 of %d rows. Show 100 more\" % len(names): bad.append((\"pager\", r[\"pager\"]))")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'printed, the page holds every one of the 1,500 rows' '
	test_eq ok "$(verdict big "
	if sorted(page[\"print\"][\"shown\"]) != names: bad.append((\"rows printed\", len(page[\"print\"][\"shown\"])))")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'a click on "run" sorts all 1,500 rows (the first 100 of report.json names, then the last 100 reversed), laid out within 3 s' '
	test_eq ok "$(verdict big "
	a, d = page[\"sort\"][\"asc\"], page[\"sort\"][\"desc\"]
	if a[\"shown\"] != names[:100]: bad.append((\"ascending\", a[\"shown\"][:5], names[:5]))
	if d[\"shown\"] != names[::-1][:100]: bad.append((\"descending\", d[\"shown\"][:5], names[::-1][:5]))
	bad += [(\"sort took ms\", s[\"ms\"]) for s in (a, d) if s[\"ms\"] > 3000]")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'the pager button shows the next 100 rows in the sorted order' '
	test_eq ok "$(verdict big "
	m = page[\"more\"]
	if m[\"shown\"] != names[::-1][:200]: bad.append((\"after show more\", len(m[\"shown\"]), m[\"shown\"][:3]))
	if m[\"pager\"] != \"Showing 200 of %d rows. Show 100 more\" % len(names): bad.append((\"pager\", m[\"pager\"]))")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'the filter searches all rows: the first 100 of the runs named with r1, and the pager counts them all' '
	test_eq ok "$(verdict big "
	f = page[\"filter\"]
	want = [n for n in names[::-1] if \"r1\" in n]
	if f[\"shown\"] != want[:100]: bad.append((\"filtered\", len(f[\"shown\"]), f[\"shown\"][:3], want[:3]))
	if not (f[\"pager\"] or \"\").startswith(\"Showing 100 of %d rows that contain\" % len(want)): bad.append((\"pager\", f[\"pager\"], len(want)))")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'with JavaScript off every one of the 1,500 rows shows' '
	test_eq ok "$(verdict big "
	if sorted(page[\"nojs\"][\"shown\"]) != names: bad.append((\"rows without JavaScript\", len(page[\"nojs\"][\"shown\"])))")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'at 390 px the big page scrolls no wider than the phone' '
	test_eq ok "$(verdict big "
	n = page[\"narrow\"]
	if n[\"scroll_width\"] > n[\"client_width\"] or n[\"past_edge\"]: bad.append(n)")"
'

test_expect_success 'setup: the bundled CPU sweep report' '
	"$AMDAHL" --store "$TMP/s.db" ingest -q "$CPU" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/cpu"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'setup: open it in chromium' '
	rows cpu fsdp
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'at 390 px the page scrolls no wider than the phone; nothing reaches past its edge but inside a table box' '
	test_eq ok "$(verdict cpu "
	n = page[\"narrow\"]
	if n[\"scroll_width\"] > n[\"client_width\"] or n[\"past_edge\"]: bad.append(n)")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'at 390 px the tooltip of each chart'"'"'s rightmost target stays on the screen and widens no page' '
	test_eq ok "$(verdict cpu "
	tips = page[\"narrow_tips\"]
	if len(tips) < 4: bad.append((\"charts with targets\", len(tips)))
	bad += [t for t in tips if t[\"tip_left\"] < 0 or t[\"tip_right\"] > t[\"client_width\"] or t[\"scroll_width\"] > t[\"client_width\"]]")"
'
test_expect_success BROWSER,BROWSER_TIER,PYTHON 'its 29 runs fit one page: all shown, no pager; sorted they are report.json names' '
	test_eq ok "$(verdict cpu "
	if page[\"rows\"][\"pager\"] is not None or len(page[\"rows\"][\"shown\"]) != len(names): bad.append(page[\"rows\"])
	if page[\"sort\"][\"asc\"][\"shown\"] != names: bad.append(page[\"sort\"][\"asc\"][\"shown\"])")"
'

test_done
