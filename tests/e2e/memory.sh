#!/bin/bash
# memory.sh — memory per GPU in the report from logged metrics (runs
# without profile_memory traces): the bundled CPU sweep with a
# max_memory_allocated_mb metric added to its runs, the peak chart drawn
# without a timeline (and the report saying why), and a sweep without any
# memory figure saying so in its data gaps.
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
	"$PY" - "$TMP/mlruns" >"$TMP/want.txt" <<-\EOF &&
	import glob, os, statistics, sys
	per_n = {}
	for r in glob.glob(os.path.join(sys.argv[1], "*", "*", "")):
	    f = os.path.join(r, "metrics", "max_memory_allocated_mb")
	    if not os.path.exists(f) or open(os.path.join(r, "meta.yaml")).read().find("status: 3") < 0:
	        continue
	    peak = max(float(l.split()[1]) for l in open(f)) * 2**20
	    per_n.setdefault(int(open(os.path.join(r, "params", "world_size")).read()), []).append(peak)
	out = []
	for n in sorted(per_n):
	    v = statistics.median(per_n[n])
	    x, u = (v / 2**30, "GiB") if v >= 2**30 else (v / 2**20, "MiB")
	    out.append("%.3g %s at %d" % (x, u, n))
	print("Medians: ddp: " + ", ".join(out) + ".")
	EOF
	{ [ -f "$TMP/rep/report.json" ] || "$AMDAHL" --store "$S" report build -o "$TMP/rep" >/dev/null; } &&
	test_contains "$(cat "$TMP/want.txt")" "$(json_get "$TMP/rep/report.json" "[c[\"caption\"] for c in d[\"charts\"] if c[\"name\"] == \"memory_peak\"][0]")"
'
test_expect_success 'a sweep without memory figures: the report says so' '
	"$AMDAHL" --store "$TMP/plain.db" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$TMP/plain.db" report build -o "$TMP/plain" &&
	test_eq "Memory per GPU: no trace recorded with profile_memory=True and no max_memory_allocated metric for these runs." "$(json_get "$TMP/plain/report.json" "$GAPS")"
'
test_done
