#!/bin/bash
# energy_ci.sh — energy and power with intervals (issue 35): every point's
# energy_epoch_ci, energy_solution_ci, energy_per_sample_ci and power_ci
# in `stats --json` are the percentile bootstrap of the runs' mean (of
# Σ energy / Σ samples, runs resampled whole), labelled with the coverage
# it has at that many runs (issue 33: 0.91 at 12), checked against numpy
# (tests/lib/energy_ci_check.py) on the GPU batch sweep (12 runs a
# point) and absent with a reason on the itwinai layout (2 runs a point);
# the report's energy charts draw them (whiskers in the PNG/PDF, data-lo
# and data-hi on report.html's targets equal to report.json's interval)
# and say so under their titles.
test_description='energy and power: bootstrap intervals as the time charts have, checked against numpy'
. "$(dirname "$0")/../test-lib.sh"

CHECK="$AMDAHL_ROOT/tests/lib/energy_ci_check.py"

test_expect_success 'setup: the GPU batch sweep and the itwinai layout, stats --json and report' '
	"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$DATA/gpu-batch-sweep" &&
	"$AMDAHL" --store "$TMP/gpu.db" stats --json >"$TMP/gpu.json" &&
	"$AMDAHL" --store "$TMP/it.db" ingest -q "$DATA/itwinai-layout" &&
	"$AMDAHL" --store "$TMP/it.db" stats --json >"$TMP/it.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/gpu.db" report build -o "$TMP/gpu"
'
test_expect_success PYTHON 'gpu: energy and power means and their bootstrap intervals equal numpy'\''s' '
	test_eq "ok" "$("$PY" "$CHECK" "$TMP/gpu.json")"
'
test_expect_success PYTHON 'itwinai: with 2 runs a point, no energy interval and the reason "n=2: no CI"' '
	test_eq "ok" "$("$PY" "$CHECK" "$TMP/it.json" few)"
'
test_expect_success PYTHON 'report.json has the same energy intervals as stats --json' '
	test_eq "ok" "$("$PY" - "$TMP/gpu.json" "$TMP/gpu/report.json" <<-\PYEOF
	import json, sys
	s = json.load(open(sys.argv[1]))["sweeps"][0]
	r = json.load(open(sys.argv[2]))
	keys = ("energy_epoch_ci", "energy_solution_ci", "energy_per_sample_ci", "power_ci")
	a = [[p[k] for k in keys] for st in s["strategies"] for p in st["points"]]
	b = [[p[k] for k in keys] for st in r["strategies"] for p in st["points"]]
	print("ok" if a == b and any(x for row in a for x in row) else "differ: %r %r" % (a, b))
	PYEOF
	)"
'
test_expect_success PYTHON 'report.html: the energy per epoch bars carry report.json'\''s interval' '
	test_eq "ok" "$("$PY" - "$TMP/gpu/report.html" "$TMP/gpu/report.json" <<-\PYEOF
	import json, re, sys
	html = open(sys.argv[1]).read()
	r = json.load(open(sys.argv[2]))
	fig = html[html.index("data-chart=\"energy_epoch\""):]
	fig = fig[:fig.index("</figure>")]
	hits = re.findall(r"<rect class=\"hit\"[^>]*>", fig)
	got = sorted((float(re.search(r"data-lo=\"([^\"]+)\"", h).group(1)),
	              float(re.search(r"data-hi=\"([^\"]+)\"", h).group(1))) for h in hits
	             if "data-lo=" in h)
	want = sorted((p["energy_epoch_ci"]["lo"], p["energy_epoch_ci"]["hi"])
	              for st in r["strategies"] for p in st["points"] if p["energy_epoch_ci"])
	ok = len(got) == len(want) > 0 and all(abs(a - c) <= 1e-3 * abs(c) and abs(b - d) <= 1e-3 * abs(d)
	                                       for (a, b), (c, d) in zip(got, want))
	print("ok" if ok else "targets %r, report.json %r" % (got, want))
	PYEOF
	)"
'
test_expect_success PDFTOTEXT 'the PDF says the energy charts show bootstrap intervals at the coverage they have (12 runs: 91%, issue 33)' '
	pdftotext "$TMP/gpu/report.pdf" - | tr -s " \n" " " >"$TMP/gpu.txt" &&
	test_contains "Energy per epoch mean over 12 runs per point, each GPU counted on its own; bars: 91% CI (its coverage at these runs)" "$(cat "$TMP/gpu.txt")" &&
	test_contains "percentile-bootstrap interval of Σ energy / Σ samples" "$(cat "$TMP/gpu.txt")"
'
test_done
