# mlflow_rest_stream.sh — the MLflow REST reader streams its file (64 KiB
# chunks through yajl): a get-history document of thousands of points,
# spread over many chunks, with duplicate keys, nested and unknown fields,
# NaN/Infinity and int64 strings, stores exactly the points Python's json
# module reads from it (first of duplicate keys); a bad point, a stray
# byte or a cut deep in the file gives one line naming the point or the
# line Python counts, and leaves the store as it was.
test_description='MLflow REST get-history streamed: points as Python reads them, errors deep in the file name their place'
. "$(dirname "$0")/../test-lib.sh"

H="$TMP/h.json"
want="" before="" cut_at="" cut_line="" bad_line=""
POINTS="SELECT d.s||'|'||m.step||'|'||m.ts_ms||'|'||CASE WHEN m.value IS NULL THEN 'NaN' ELSE printf('%.15g', m.value) END FROM metric_point m JOIN dict d ON d.id=m.key_id ORDER BY d.s, m.step"
# 4000 points, one a line (~330 KB: six chunks); every 7th repeats
# "value" (the first counts), every 5th carries a nested unknown field,
# every 11th has int64s as numbers, every 13th NaN, every 17th Infinity
GEN='import json, sys
pts = []
for i in range(4000):
    key = "loss" if i % 2 else "acc"
    v = (i % 97) / 8 + i
    p = "{\"key\": %s, \"value\": %s" % (json.dumps(key), json.dumps(v if i % 13 else "NaN"))
    if i % 17 == 0 and i: p = "{\"key\": %s, \"value\": \"Infinity\"" % json.dumps(key)
    if i % 7 == 0: p += ", \"value\": 12345"
    if i % 5 == 0: p += ", \"extra\": {\"a\": [1, {\"b\": \"c\"}, []], \"key\": \"no\"}"
    ts, step = 1795347936041 + 3 * i, i // 2
    p += (", \"timestamp\": %d, \"step\": %d}" if i % 11 == 0 else ", \"timestamp\": \"%d\", \"step\": \"%d\"}") % (ts, step)
    pts.append(p)
sys.stdout.write("{\"metrics\": [\n" + ",\n".join(pts) + "\n], \"next_page_token\": \"\"}\n")'
# Python reads the document: key|step|ts|value per point, the first of duplicate keys
ORACLE='import json, math, sys
d = json.load(open(sys.argv[1]), object_pairs_hook=lambda kv: dict(reversed(kv)))
rows = []
for m in d["metrics"]:
    v = float(m["value"]) if m["value"] not in ("NaN",) else math.nan
    t = "NaN" if math.isnan(v) else ("Inf" if v == math.inf else "%.15g" % v)
    rows.append((m["key"], int(m["step"]), "%s|%d|%d|%s" % (m["key"], int(m["step"]), int(m["timestamp"]), t)))
print("\n".join(r[2] for r in sorted(rows)))'
# a point nested 1001 deep (cJSON's limit is 1000 with the point's own
# 3); prints the bytes read through the bracket past the limit (the
# 998th: yajl counts it consumed)
DEEP='import sys
head = "{\"metrics\": [{\"key\": \"a\", \"value\": 1, \"step\": 0, \"x\": "
open(sys.argv[1], "w").write(head + "[" * 1000 + "]" * 1000 + "}]}")
print(len(head) + 998)'
# bad_history FILE NEEDLE: FILE ingested with --run into s.db exits 2 with
# one line containing NEEDLE, s.db unchanged
bad_history() {
	before=$(store_digest "$TMP/s.db")
	test_status 2 "$AMDAHL" --store "$TMP/s.db" ingest --sweep s --run r1 "$1"
	test_contains "$2" "$ERR"
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
	test_eq "$before" "$(store_digest "$TMP/s.db")"
}

test_expect_success PYTHON 'setup: a 4000-point get-history ingests (exit 0)' '
	"$PY" -c "$GEN" >"$H" &&
	test_true "over five 64 KiB chunks" test "$(wc -c <"$H")" -gt 327680 &&
	want=$("$PY" -c "$ORACLE" "$H") &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest --sweep s --run r1 "$H"
'
test_expect_success SQLITE3,PYTHON 'stored points are the points Python reads (first of duplicate keys)' '
	test_eq 4000 "$(q "$TMP/s.db" "SELECT count(*) FROM metric_point")" &&
	test_eq "$want" "$(q "$TMP/s.db" "$POINTS")"
'
test_expect_success SQLITE3 'a bad point deep in the file: its index, store unchanged' '
	sed "3501s/\"value\": [^,]*/\"value\": \"fast\"/" "$H" >"$TMP/badv.json" &&
	bad_history "$TMP/badv.json" "badv.json: history metrics[3499]: \"value\" is not a number"
'
test_expect_success SQLITE3 'a stray byte deep in the file: the line Python counts, store unchanged' '
	sed "2900s/^{/{]/" "$H" >"$TMP/stray.json" &&
	bad_line=$("$PY" -c "import json,sys
try: json.load(open(sys.argv[1]))
except json.JSONDecodeError as e: print(e.lineno)" "$TMP/stray.json") &&
	test_eq 2900 "$bad_line" &&
	bad_history "$TMP/stray.json" "stray.json: line 2900 (byte "
'
test_expect_success SQLITE3 'cut deep in the file: ends early at its last line, store unchanged' '
	cut_at=200000 &&
	head -c $cut_at "$H" >"$TMP/cut.json" &&
	cut_line=$(($(tr -cd "\n" <"$TMP/cut.json" | wc -c) + 1)) &&
	bad_history "$TMP/cut.json" "cut.json: line $cut_line (byte $cut_at): JSON ends early (truncated?)"
'
test_expect_success SQLITE3 'nesting past 1000 is invalid JSON at the bracket past it, store unchanged' '
	"$PY" -c "$DEEP" "$TMP/deep.json" >"$TMP/deep.at" &&
	bad_history "$TMP/deep.json" "deep.json: line 1 (byte $(cat "$TMP/deep.at")): invalid JSON"
'
test_done
