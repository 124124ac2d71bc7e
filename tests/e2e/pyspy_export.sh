#!/bin/bash
# pyspy_export.sh — `amdahl pyspy export --format speedscope RUN` (issue
# 35): the run's merged py-spy stacks as speedscope's file format. The
# output validates against the format's schema (tests/lib/
# speedscope.schema.json, python3-jsonschema); every frame index is a
# frame, samples and weights pair up, the weights add up to the run's
# py-spy seconds and each sample's stack is a root-to-leaf path of
# `pyspy trie` with its self seconds; and amdahl's own speedscope reader
# ingesting the export for another run gives the same trie back.
test_description='pyspy export --format speedscope: schema-valid, equal to the trie, round trip'
. "$(dirname "$0")/../test-lib.sh"

test_lazy_prereq JSONSCHEMA '"$PY" -c "import jsonschema"'
S="$TMP/s.db"
RUN=3679a94ec2214cbe8d71215b864c78ea   # an itwinai launch (ddp-1x1-scaling-1gpu, repeat 0)
OTHER=1b4f181879174abfb2088a1d6866d3fc # its repeat 1, with no py-spy file

test_expect_success 'setup: the itwinai sweep and a raw py-spy file for one run' '
	"$AMDAHL" --store "$S" ingest -q "$DATA/itwinai-layout" &&
	"$AMDAHL" --store "$S" ingest -q --run "$RUN" "$DATA/pyspy/train-raw.txt" &&
	"$AMDAHL" --store "$S" pyspy trie "$RUN" --json >"$TMP/trie.json"
'
test_expect_success 'export --format speedscope exits 0 and writes JSON' '
	test_status 0 "$AMDAHL" --store "$S" pyspy export --format speedscope "$RUN" &&
	printf "%s\n" "$OUT" >"$TMP/run.speedscope.json" &&
	test_eq "https://www.speedscope.app/file-format-schema.json" "$(json_get "$TMP/run.speedscope.json" "d[\"\$schema\"]")"
'
test_expect_success JSONSCHEMA 'the export validates against the speedscope file-format schema' '
	test_eq ok "$("$PY" -c "import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
print(\"ok\")" "$TMP/run.speedscope.json" "$AMDAHL_ROOT/tests/lib/speedscope.schema.json" 2>&1)"
'
test_expect_success PYTHON 'the samples are the trie: stacks root to leaf, weights its self seconds' '
	test_eq ok "$("$PY" - "$TMP/run.speedscope.json" "$TMP/trie.json" <<-\PYEOF
	import json, math, sys
	ss, trie = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	frames, p = ss["shared"]["frames"], ss["profiles"][0]
	bad = []
	if len(p["samples"]) != len(p["weights"]):
	    bad.append("samples and weights differ in length")
	if any(i >= len(frames) for s in p["samples"] for i in s):
	    bad.append("a frame index past the frames")
	key = lambda f: (f["name"], f.get("file"), f.get("line", 0))
	got = {}
	for s, w in zip(p["samples"], p["weights"]):
	    k = tuple(key(frames[i]) for i in s)
	    got[k] = got.get(k, 0) + w
	nodes, want = trie["nodes"], {}
	for i, n in enumerate(nodes):
	    if n["self_samples"] > 0:
	        path, j = [], i
	        while j >= 0:
	            path.append((nodes[j]["name"], nodes[j]["file"], nodes[j]["line"]))
	            j = nodes[j]["parent"]
	        k = tuple(reversed(path))
	        want[k] = want.get(k, 0) + n["self_seconds"]
	if set(got) != set(want) or any(not math.isclose(got[k], want[k], rel_tol=1e-9) for k in want):
	    bad.append("%d stacks, the trie has %d" % (len(got), len(want)))
	if not math.isclose(sum(p["weights"]), trie["seconds"], rel_tol=1e-9) or p["unit"] != "seconds":
	    bad.append("weights %r %s, trie %r s" % (sum(p["weights"]), p["unit"], trie["seconds"]))
	if not math.isclose(p["endValue"], trie["seconds"], rel_tol=1e-9):
	    bad.append("endValue %r" % p["endValue"])
	print("; ".join(bad) or "ok")
	PYEOF
	)"
'
test_expect_success 'round trip: the export ingested for another run gives the same trie' '
	cp "$TMP/run.speedscope.json" "$TMP/back.speedscope.json" &&
	"$AMDAHL" --store "$S" ingest -q --run "$OTHER" "$TMP/back.speedscope.json" &&
	"$AMDAHL" --store "$S" pyspy trie "$RUN" >"$TMP/t1" &&
	"$AMDAHL" --store "$S" pyspy trie "$OTHER" >"$TMP/t2" &&
	test_true "tries differ" cmp -s "$TMP/t1" "$TMP/t2" &&
	test_true "non-empty trie" test -s "$TMP/t1"
'
# A profile of 60,000 distinct stacks (a distinct leaf each, 20 frames
# deep): the export looked each node's frame up by a scan of the frames
# so far, time in the square of them (20,000 stacks: 48 s; this: minutes).
# The bound is no timing test: a linear export takes about a second.
# Checked against the generated file itself: every stack once, its weight
# its count times one rate, each (name, file, line) one frame.
test_expect_success 'setup: a py-spy file of 60000 distinct stacks' '
	"$PY" - "$TMP/wide.txt" <<-\PYEOF &&
	import sys
	with open(sys.argv[1], "w") as f:
	    for i in range(60000):
	        fr = ["f%d_%s (/src/mod%d.py:%d)" % (j, "x" * 40, (i + j) % 50, j + 1) for j in range(19)]
	        fr.append("leaf%d (/src/leaf.py:%d)" % (i, i % 1000 + 1))
	        f.write("process 42:\"python train.py\";thread (0x1): MainThread;%s %d\n" % (";".join(fr), 1 + i % 7))
	PYEOF
	test_status 0 "$AMDAHL" --store "$TMP/wide.db" ingest -q "$TMP/wide.txt"
'
test_expect_success PYTHON 'export of 60000 distinct stacks within a 120 s bound: every stack, weight and frame' '
	test_status 0 timeout 120 "$AMDAHL" --store "$TMP/wide.db" pyspy export --format speedscope "$TMP/wide.txt" &&
	test_eq ok "$("$PY" - "$TMP/out" "$TMP/wide.txt" <<-\PYEOF
	import json, re, sys
	ss = json.load(open(sys.argv[1]))
	frames, p = ss["shared"]["frames"], ss["profiles"][0]
	want = {}
	for line in open(sys.argv[2]):
	    stack, n = line.rsplit(" ", 1)
	    fr = tuple(re.match(r"(.*) \((.*):(\d+)\)$", x).groups() for x in stack.split(";")[2:])
	    want[tuple((a, b, int(c)) for a, b, c in fr)] = int(n)
	got = {}
	for s, w in zip(p["samples"], p["weights"]):
	    got[tuple((frames[i]["name"], frames[i]["file"], frames[i]["line"]) for i in s)] = w
	keys = set((f["name"], f["file"], f["line"]) for f in frames)
	rates = set(round(want[k] / got[k], 9) for k in want if k in got)
	bad = []
	if set(got) != set(want): bad.append("stacks differ: %d exported, %d in the file" % (len(got), len(want)))
	if len(rates) != 1: bad.append("weights are not the counts times one rate: %s" % sorted(rates)[:3])
	if len(keys) != len(frames): bad.append("a frame twice")
	if keys != set(f for k in want for f in k): bad.append("frames differ")
	print("; ".join(bad) or "ok")
	PYEOF
	)"
'

test_expect_success 'an unknown format is refused with the one there is (exit 2)' '
	test_status 2 "$AMDAHL" --store "$S" pyspy export --format pprof "$RUN" &&
	test_contains "the format is speedscope" "$ERR"
'
test_done
