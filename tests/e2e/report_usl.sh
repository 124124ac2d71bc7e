#!/bin/bash
# report_usl.sh — the USL fit drawn on the speedup chart: one dotted curve
# per strategy whose fit exists, at S(n) = X(n)/X(b) with
# X(n) = γn/(1 + α(n−1) + βn(n−1)) and the parameters `amdahl stats --json`
# prints. The curve's points are read from charts/speedup.svg and mapped
# back through the ideal line (S = n/b on log2-log2 axes: its ends fix the
# axis mapping), independently of the chart code
# (tests/lib/usl_curves_on_chart.py).
test_description='report build: the USL fit on the speedup chart'
. "$(dirname "$0")/../test-lib.sh"

test_expect_success 'setup: ingest the CPU sweep, its stats and its report' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	"$AMDAHL" --store "$TMP/cpu.db" stats --json >"$TMP/stats.json" &&
	"$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/r" >/dev/null
'

test_expect_success PYTHON 'both strategies have a USL fit (stats --json)' '
	test_eq "True True" "$(json_get "$TMP/stats.json" "\" \".join(str(s[\"usl\"][\"ok\"]) for s in sweep()[\"strategies\"])")"
'

test_expect_success PYTHON 'the USL curves lie at X(n)/X(b) of the fitted parameters (within 0.5 pt)' '
	test_eq "ddp ok fsdp ok" "$("$PY" "$AMDAHL_ROOT/tests/lib/usl_curves_on_chart.py" "$TMP/r/charts/speedup.svg" "$TMP/stats.json")"
'

test_expect_success PDFTOTEXT 'the speedup chart'\''s caption names the USL fit' '
	pdftotext "$TMP/r/report.pdf" "$TMP/r.txt" &&
	test_contains "the dotted line is the Universal Scalability Law fit" "$(tr -s " \n" " " <"$TMP/r.txt")"
'

test_done
