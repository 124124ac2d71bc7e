#!/bin/bash
# report_cjk.sh — names in Chinese and Japanese in the report (issue 35,
# text through Pango): the CPU sweep copied with the fsdp strategy named
# "完全シャーディング並列_DistributedDataParallelWrapper" and its runs
# "分片训练-nK". The PDF embeds a CJK-capable font (pdffonts; the
# families fontconfig lists for :lang=ja) and its text holds the names
# (so they are glyphs mapped back to the characters, not boxes); a legend
# name too long for its room is shortened at a word boundary and given
# in full in a footnote; report.html draws the names with a CJK-capable
# font (chromium's DevTools: the platform fonts of each <text>) and its
# legend entry's tooltip holds the full name.
test_description='CJK names: a CJK font embedded in the PDF, glyphs in the HTML, full names for shortened ones'
. "$(dirname "$0")/../test-lib.sh"

test_lazy_prereq PDFFONTS 'command -v pdffonts'
test_lazy_prereq CJKFONT '[ -n "$(fc-list :lang=ja family)" ]'
STRATEGY=完全シャーディング並列_DistributedDataParallelWrapper

test_expect_success 'setup: the CPU sweep with CJK names, ingested and reported' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/mlruns" &&
	rm -rf "$TMP"/mlruns/*/*/artifacts &&
	for r in "$TMP"/mlruns/*/*/; do
		grep -qx fsdp "$r/params/strategy" || continue
		printf %s "$STRATEGY" >"$r/params/strategy"
		n=$(cat "$r/tags/mlflow.runName")
		printf %s "分片训练-${n#fsdp-}" >"$r/tags/mlflow.runName"
		sed -i "s/^run_name: .*/run_name: 分片训练-${n#fsdp-}/" "$r/meta.yaml"
	done &&
	"$AMDAHL" --store "$TMP/s.db" ingest -q "$TMP/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/r"
'
# cjk_families — the font families fontconfig says cover Japanese, spaces
# removed (as a PDF names a font), one a line.
cjk_families() { fc-list :lang=ja family | tr ',' '\n' | tr -d ' ' | sort -u; }

test_expect_success PDFFONTS,CJKFONT 'the PDF embeds a font that covers Japanese and Chinese' '
	pdffonts "$TMP/r/report.pdf" | awk "NR>2 && \$(NF-4) == \"yes\" {sub(/^[A-Z]+\\+/, \"\", \$1); print \$1}" |
		sort -u >"$TMP/embedded" &&
	cjk_families >"$TMP/cjk" &&
	test_true "a CJK font among: $(tr "\n" " " <"$TMP/embedded")" \
		grep -qxFf "$TMP/cjk" "$TMP/embedded"
'
test_expect_success PDFTOTEXT,CJKFONT 'the PDF text holds the run names and the strategy in full' '
	pdftotext "$TMP/r/report.pdf" "$TMP/r.txt" &&
	test_contains "分片训练-n1" "$(cat "$TMP/r.txt")" &&
	test_contains "分片训练-n8" "$(cat "$TMP/r.txt")" &&
	test_contains "is $STRATEGY" "$(tr -d "\n" <"$TMP/r.txt")"
'
test_expect_success PDFTOTEXT,CJKFONT 'the epoch time legend shortens the strategy where words meet, footnoted' '
	test_contains "Shortened above, in full: “完全シャーディング並列…ParallelWrapper” is $STRATEGY." \
		"$(tr -d "\n" <"$TMP/r.txt")"
'
test_expect_success BROWSER,PYTHON,CJKFONT 'report.html: CJK <text> drawn with a CJK font; the legend tooltip has the full name' '
	node "$AMDAHL_ROOT/tests/browser/report_fonts.mjs" "$TMP/r" "$TMP/shot.png" >"$TMP/fonts.json" &&
	cjk_families >"$TMP/cjk" &&
	test_eq "ok" "$("$PY" - "$TMP/fonts.json" "$TMP/cjk" "$STRATEGY" <<-\PYEOF
	import json, re, sys
	page = json.load(open(sys.argv[1]))
	cjk = set(open(sys.argv[2]).read().split())
	full = sys.argv[3]
	han = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
	bad = list(page["errors"])
	if len(page["texts"]) < 2:
	    bad.append("fewer than 2 CJK <text>: %r" % page["texts"])
	for t in page["texts"]:
	    n = len(han.findall(t["text"]))
	    got = sum(f["glyphs"] for f in t["fonts"] if f["family"].replace(" ", "") in cjk)
	    if got < n:
	        bad.append("%r: %d CJK characters, %d glyphs from a CJK font (%r)" % (t["text"], n, got, t["fonts"]))
	legends = [l for l in page["legends"] if l["name"] == full]
	if not legends or any(not l["title"].startswith(full) for l in legends):
	    bad.append("no legend entry with the full name in its tooltip: %r" % page["legends"][:4])
	print("; ".join(bad) or "ok")
	PYEOF
	)"
'
test_done
