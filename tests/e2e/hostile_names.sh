#!/bin/bash
# hostile_names.sh — names a user controls (the sweep, strategies, run
# names, a param) holding markup, a </script>, quotes, backslashes,
# commas, tabs, U+2028/U+2029, an RTL mark, an emoji and a combining
# accent, through every output language: each must come out as the text
# it went in as, checked with Python's json and csv, pdftotext and the
# page chromium builds from report.html (tests/browser/report_names.mjs),
# no script of a name run. A sweep whose name reads as a selector
# ("bs=256", "sw</script>…": '<' is an operator) is that sweep once
# named: scaling, explain and report build took it for a selector of the
# unknown key 'bs' and failed.
test_description='hostile names: every output language gives the name back as it went in'
. "$(dirname "$0")/../test-lib.sh"
GEN="$AMDAHL_ROOT/tests/lib/hostile_names.py"

# The names: the first set has a comma in a strategy (a selector cannot
# say it, and compare --by refuses it in one line); the second none.
cat >"$TMP/names.py" <<'PYEOF'
import json, sys
n = {
    "sweep": "sw</script><script>window.__pwned=1</script> <b>b</b> & \"q\" 'a' \\ , e\u0301 \U0001F44D \u2028\u2029 \u200f\u05e8\u05e9\u05ea",
    "ddp": "</script><script>window.__pwned=2</script><b>bold</b> & <span foreground=\"red\">x</span>",
    "fsdp": "q'\"\\,x\ttab e\u0301 \U0001F44D\u2028\u2029 \u200f\u05e9end",
    "run": "r<b>&amp;\"',\\\u2028",
    "pkey": "p<b>,\"'\\k",
    "pval": "v</script>,\"'\\\u2028\u2029",
}
json.dump(n, open(sys.argv[1] + "/names.json", "w"))
n["fsdp"] = n["fsdp"].replace(",", "")
json.dump(n, open(sys.argv[1] + "/names2.json", "w"))
PYEOF
# name KEY [FILE] — the name KEY of names.json (or FILE)
name() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[2]))[sys.argv[1]], end="")' "$1" "${2:-$TMP/names.json}"; }
# json_has FILE KEY… — for each KEY: "KEY exact" when a string (or an
# object key) of the JSON file FILE is the name itself
json_has() {
	"$PY" - "$TMP/names.json" "$@" <<'PYEOF'
import json, sys
names, doc = json.load(open(sys.argv[1])), json.loads(open(sys.argv[2], "rb").read())
seen = set()
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            seen.add(k); walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
    elif isinstance(x, str):
        seen.add(x)
walk(doc)
print(" ".join("%s %s" % (k, "exact" if names[k] in seen else "missing") for k in sys.argv[3:]))
PYEOF
}

test_expect_success PYTHON 'setup: the CPU sweep under hostile names, and named bs=256' '
	"$PY" "$TMP/names.py" "$TMP" &&
	"$PY" "$GEN" "$DATA/cpu-strong-scaling/mlruns" "$TMP/ml" "$TMP/names.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/ml" &&
	"$PY" "$GEN" "$DATA/cpu-strong-scaling/mlruns" "$TMP/ml2" "$TMP/names2.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/h2.db" ingest -q "$TMP/ml2" &&
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/bs" &&
	sed -i "s/^name: cpu-strong-scaling\$/name: bs=256/" "$TMP/bs/4/meta.yaml" &&
	test_status 0 "$AMDAHL" --store "$TMP/bs.db" ingest -q "$TMP/bs"
'
test_expect_success 'a sweep named bs=256: scaling, explain and runs --sources read it as that sweep' '
	test_status 0 "$AMDAHL" --store "$TMP/bs.db" scaling &&
	test_contains "sweep bs=256: a scaling model per region" "$OUT" &&
	test_status 0 "$AMDAHL" --store "$TMP/bs.db" explain --strategy ddp &&
	test_contains "sweep bs=256: where the efficiency went" "$OUT" &&
	test_status 0 "$AMDAHL" --store "$TMP/bs.db" runs --sources &&
	test_eq 29 "$(grep -c mlflow-run "$TMP/out")"
'
test_expect_success PYTHON 'a sweep named bs=256: report build writes its report, report.json naming it' '
	test_status 0 "$AMDAHL" --store "$TMP/bs.db" report build -o "$TMP/rep-bs" &&
	test_eq bs=256 "$(json_get "$TMP/rep-bs/report.json" "(lambda s: s[\"name\"] if isinstance(s, dict) else s)(d[\"sweep\"])")"
'
test_expect_success PYTHON 'stats --json and runs --json: sweep and strategies exactly' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" stats --json &&
	test_eq "sweep exact ddp exact fsdp exact" "$(json_has "$TMP/out" sweep ddp fsdp)" &&
	test_status 0 "$AMDAHL" --store "$TMP/h.db" runs --json &&
	test_eq "sweep exact ddp exact fsdp exact" "$(json_has "$TMP/out" sweep ddp fsdp)"
'
test_expect_success PYTHON 'keys --json: the param key and its value exactly' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" keys --json &&
	test_eq "pkey exact pval exact" "$(json_has "$TMP/out" pkey pval)"
'
test_expect_success PYTHON 'report build on a sweep whose name holds "<": report.json carries every name exactly' '
	test_status 0 "$AMDAHL" --store "$TMP/h.db" report build -o "$TMP/rep" &&
	test_eq "sweep exact ddp exact fsdp exact" "$(json_has "$TMP/rep/report.json" sweep ddp fsdp)"
'
test_expect_success PDFTOTEXT 'the PDF shows the markup strategy as text, not as Pango markup' '
	pdftotext "$TMP/rep/report.pdf" "$TMP/rep.txt" &&
	test_contains "$(name ddp | cut -c1-60)" "$(cat "$TMP/rep.txt")" &&
	test_contains "Sweep sw</script><script>window.__pwned=1</script> <b>b</b> & \"q\" '"'"'a'"'"' \\ , " "$(cat "$TMP/rep.txt")"
'
test_expect_success BROWSER,PYTHON 'report.html in chromium: no script of a name ran, no error, names as text' '
	timeout 300 node "$AMDAHL_ROOT/tests/browser/report_names.mjs" "$TMP/rep" >"$TMP/page.json" &&
	test_eq "[] None" "$(json_get "$TMP/page.json" "str(d[\"errors\"]) + \" \" + str(d[\"pwned\"])")" &&
	test_eq "Scaling report: $(name sweep)" "$(json_get "$TMP/page.json" "d[\"title\"]")" &&
	"$PY" -c "import json, sys
names, page = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(0 if all(names[k] in page[\"texts\"] for k in (\"ddp\", \"fsdp\")) else 1)" "$TMP/names.json" "$TMP/page.json"
'
test_expect_success 'compare --by strategy: a strategy with a comma is refused in one line, naming it' '
	test_status 2 "$AMDAHL" --store "$TMP/h.db" compare --by strategy &&
	test_contains "has a comma, which a selector cannot say" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)"
'
test_expect_success PYTHON 'compare --format csv: Python'\''s csv reads the strategies back exactly, every row whole' '
	test_status 0 "$AMDAHL" --store "$TMP/h2.db" compare --baseline repeat=0 --candidate repeat=1 --format csv &&
	"$PY" -c "import csv, json, sys
names, rows = json.load(open(sys.argv[1])), list(csv.reader(open(sys.argv[2], newline=\"\")))
cells = {c for r in rows[1:] for c in r[1:3]}
sys.exit(0 if len({len(r) for r in rows}) == 1 and cells == {names[\"ddp\"], names[\"fsdp\"]} else 1)" "$TMP/names2.json" "$TMP/out"
'
test_expect_success 'an experiment name with an escaped NUL ("a\0b"): its runs refused naming file, line and column, not cut to "a"' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/nul" &&
	sed -i "s/^name: cpu-strong-scaling\$/name: \"cpu\\\\0tail\"/" "$TMP/nul/4/meta.yaml" &&
	test_eq "name: \"cpu\\0tail\"" "$(grep "^name:" "$TMP/nul/4/meta.yaml")" &&
	test_status 2 "$AMDAHL" --store "$TMP/nul.db" ingest -q "$TMP/nul" &&
	test_contains "$TMP/nul/4/meta.yaml: line 6 column 7: a NUL character (\\0) in a value" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$TMP/nul.db" runs &&
	test_not_contains "sweep cpu" "$OUT"
'
test_expect_success 'amdahl.yaml: a key with an escaped NUL is named, not read as its start' '
	printf "mail:\n  \"to\\\\0x\": a@example.org\n" >"$TMP/nul.yaml" &&
	test_status 2 "$AMDAHL" --config "$TMP/nul.yaml" --store "$TMP/h.db" runs &&
	test_contains "$TMP/nul.yaml: line 2 column 3: a NUL character (\\0) in a value" "$ERR"
'
test_done
