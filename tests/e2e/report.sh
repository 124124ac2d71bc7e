#!/bin/bash
# report.sh — `amdahl report build` on the real sweeps: the PDF (page
# count, embedded DejaVu fonts, the computed figures in its text, checked
# against `amdahl stats --json`), charts as 150 dpi PNG and SVG, the
# summaries from templates, report.json, charts left out for missing data
# and the errors.
test_description='report build: PDF, charts, summaries and report.json on the real sweeps'
. "$(dirname "$0")/../test-lib.sh"

test_lazy_prereq PDFFONTS 'command -v pdffonts'

ORACLE=$AMDAHL_ROOT/tests/oracle
PYSPY_RUN=308e74e2e53c41adb92c6e48dcb6847b

# build_report STORE OUTDIR ARGS... — report build -o OUTDIR --json ARGS,
# which must exit 0; its --json output is kept in OUTDIR.build.json.
build_report() {
	local store=$1 out=$2
	shift 2
	test_status 0 "$AMDAHL" --store "$store" report build -o "$out" --json "$@"
	cp "$TMP/out" "$out.build.json"
}
# pages PDF — the page count pdfinfo reads.
pages() { pdfinfo "$1" | awk '/^Pages:/ {print $2}'; }
# text_of FILE — the text with every run of spaces and newlines one space.
text_of() { tr -s ' \n' ' ' <"$1"; }
# pdf_text PDF — the PDF's text (pdftotext, not -layout), as text_of gives it.
pdf_text() { pdftotext "$1" - | tr -s ' \n' ' '; }
# dejavu_embedded PDF — the "emb" column of pdffonts for the DejaVu fonts, once each.
dejavu_embedded() { pdffonts "$1" | awk 'NR>2 && $1 ~ /DejaVu/ {print $(NF-4)}' | sort -u; }
# png_size PNG — WIDTHxHEIGHT from the PNG header.
png_size() {
	"$PY" -c 'import struct, sys
with open(sys.argv[1], "rb") as f: h = f.read(24)
print("%dx%d" % struct.unpack(">II", h[16:24]))' "$1"
}
# px_150dpi W H — a W x H pt chart in pixels at 150 dpi (rounded up).
px_150dpi() {
	awk -v W="$1" -v H="$2" 'BEGIN{w=W*150/72; h=H*150/72; printf "%dx%d", (w==int(w))?w:int(w)+1, (h==int(h))?h:int(h)+1}'
}

# ---- cpu-strong-scaling: two strategies, 1..8 ranks, failed runs ----
test_expect_success 'setup: ingest cpu-strong-scaling and its stats --json' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null &&
	"$AMDAHL" --store "$TMP/cpu.db" stats --json >"$TMP/cpu-stats.json"
'
test_expect_success 'setup: report build exits 0 on cpu-strong-scaling' '
	build_report "$TMP/cpu.db" "$TMP/cpu"
'
test_expect_success PDFTOTEXT 'setup: cpu: the PDF'\''s text (-layout)' '
	pdftotext -layout "$TMP/cpu/report.pdf" "$TMP/cpu.txt"
'
test_expect_success PYTHON 'setup: cpu: the findings, recomputed from stats --json' '
	"$PY" "$ORACLE/report_findings.py" cpu "$TMP/cpu-stats.json" >"$TMP/cpu-expect"
'
test_expect_success 'cpu: report.pdf, summary.md, summary.html and report.json written' '
	for f in report.pdf summary.md summary.html report.json; do
		test_true "cpu: $f written" test -s "$TMP/cpu/$f"
	done
'
test_expect_success PDFINFO,PYTHON 'cpu: pdfinfo page count is what build reported' '
	test_eq "$(json_get "$TMP/cpu.build.json" "d[\"pages\"]")" "$(pages "$TMP/cpu/report.pdf")"
'
test_expect_success PDFINFO 'cpu: at least 4 pages (findings, charts, tables, appendix)' '
	np=$(pages "$TMP/cpu/report.pdf") &&
	test_true "at least 4 pages, has $np" test "$np" -ge 4
'
test_expect_success PDFFONTS 'cpu: DejaVu Sans is in the PDF' '
	test_contains "DejaVuSans" "$(pdffonts "$TMP/cpu/report.pdf")"
'
test_expect_success PDFFONTS 'cpu: every DejaVu font is embedded' '
	test_eq "yes" "$(dejavu_embedded "$TMP/cpu/report.pdf")"
'
test_expect_success PDFTOTEXT,PYTHON 'cpu: the PDF text has every finding and interval recomputed from stats --json' '
	test_true "the oracle gave findings" test -s "$TMP/cpu-expect"
	text=$(text_of "$TMP/cpu.txt")
	while IFS= read -r want; do
		test_contains "$want" "$text"
	done <"$TMP/cpu-expect"
'
test_expect_success PDFTOTEXT 'cpu: the data gaps say energy is missing' '
	test_contains "Energy: no GPU energy or power metrics" "$(text_of "$TMP/cpu.txt")"
'
test_expect_success PDFTOTEXT,PYTHON 'cpu: with profiler traces their charts are there; without, the gap is said and no phase chart' '
	traces=$(json_get "$TMP/cpu-stats.json" "int(sweep()[\"has_traces\"])") &&
	if [ "$traces" = 1 ]; then
		for c in phase_split comm_share; do
			test_true "cpu: traces linked: $c chart" test -s "$TMP/cpu/charts/$c.png"
		done
	else
		test_contains "no PyTorch profiler traces" "$(text_of "$TMP/cpu.txt")"
		test_path_is_missing "$TMP/cpu/charts/phase_split.png"
	fi
'
test_expect_success PDFTOTEXT,PYTHON 'cpu: with a computation fraction its chart is there; without, the gap is said' '
	cfrac=$(json_get "$TMP/cpu-stats.json" "int(any(p[\"comp_fraction\"] is not None for s in sweep()[\"strategies\"] for p in s[\"points\"]))") &&
	if [ "$cfrac" = 1 ]; then
		test_true "cpu: computation fraction: its chart" test -s "$TMP/cpu/charts/compute_vs_other.png"
	else
		test_contains "Computation vs other: no" "$(text_of "$TMP/cpu.txt")"
	fi
'
test_expect_success PDFTOTEXT 'cpu: excluded epochs and why' '
	test_contains "epoch 0 (warm-up)" "$(text_of "$TMP/cpu.txt")"
'
test_expect_success PDFTOTEXT,PYTHON 'cpu: a failed run is in the appendix' '
	failed=$("$AMDAHL" --store "$TMP/cpu.db" runs --json | json_get - "first(d[\"runs\"], status=\"FAILED\")[\"id\"]") &&
	test_contains "$failed" "$(text_of "$TMP/cpu.txt")"
'
test_expect_success PDFTOTEXT,SQLITE3 'cpu: sources appendix has the store'\''s sha256' '
	sha=$(q "$TMP/cpu.db" "SELECT sha256 FROM source ORDER BY path LIMIT 1") &&
	test_contains "$sha" "$(text_of "$TMP/cpu.txt")"
'
test_expect_success 'cpu: charts epoch_time, speedup, efficiency, throughput, variance as PNG and SVG' '
	for c in epoch_time speedup efficiency throughput variance; do
		test_true "cpu: chart $c as PNG and SVG" test -s "$TMP/cpu/charts/$c.png" -a -s "$TMP/cpu/charts/$c.svg"
	done
'
test_expect_success 'cpu: no energy_epoch, gpu_util or step_breakdown chart without its data' '
	for c in energy_epoch gpu_util step_breakdown; do
		test_path_is_missing "$TMP/cpu/charts/$c.png"
	done
'
# 495 x 290 pt at 150 dpi
test_expect_success PYTHON 'cpu: PNG charts are 150 dpi' '
	test_eq "$(px_150dpi 495 290)" "$(png_size "$TMP/cpu/charts/speedup.png")"
'
test_expect_success 'cpu: SVG chart is SVG' '
	test_contains "<svg" "$(head -c 300 "$TMP/cpu/charts/speedup.svg")"
'
test_expect_success PYTHON 'cpu: summary.md has the best speedup and links the speedup chart' '
	md=$(cat "$TMP/cpu/summary.md")
	test_contains "$(sed -n 1p "$TMP/cpu-expect")" "$md"
	test_contains "(charts/speedup.png)" "$md"
'
test_expect_success PYTHON 'cpu: summary.html has the best speedup and embeds the SVG chart' '
	html=$(cat "$TMP/cpu/summary.html")
	test_contains "$(sed -n 1p "$TMP/cpu-expect")" "$html"
	test_contains "<img src=\"charts/speedup.svg\"" "$html"
'
test_expect_success XMLLINT 'cpu: summary.html parses' '
	test_status 0 xmllint --html --noout "$TMP/cpu/summary.html"
'
test_expect_success PYTHON 'cpu: report.json matches stats --json and lists existing charts' '
	"$PY" "$AMDAHL_ROOT/tests/lib/report_json_matches_stats.py" "$TMP/cpu/report.json" "$TMP/cpu-stats.json" "$TMP/cpu" >"$TMP/json.out" 2>&1
	test_eq "ok" "$(tail -1 "$TMP/json.out")"
'

# ---- itwinai layout: energy and utilisation, 2 runs per point ----
test_expect_success 'setup: ingest itwinai-layout' '
	"$AMDAHL" --store "$TMP/itw.db" ingest "$DATA/itwinai-layout" >/dev/null
'
test_expect_success 'setup: report build exits 0 on itwinai-layout' '
	build_report "$TMP/itw.db" "$TMP/itw"
'
test_expect_success PDFINFO 'itwinai: at least 3 pages' '
	np=$(pages "$TMP/itw/report.pdf") &&
	test_true "at least 3 pages, has $np" test "$np" -ge 3
'
test_expect_success 'itwinai: energy_epoch, energy_solution, gpu_util and speedup charts' '
	for c in energy_epoch energy_solution gpu_util speedup; do
		test_true "itwinai: $c chart" test -s "$TMP/itw/charts/$c.png"
	done
'
test_expect_success PDFTOTEXT,PYTHON 'itwinai: the speedup at n=2 is in the text' '
	want=$("$AMDAHL" --store "$TMP/itw.db" stats --json | json_get - "\"%.2f×\" % sweep()[\"strategies\"][0][\"points\"][1][\"speedup\"]") &&
	test_contains "$want" "$(pdf_text "$TMP/itw/report.pdf")"
'
test_expect_success PDFTOTEXT 'itwinai: fewer than 3 runs: no CI, said so' '
	test_contains "fewer than 3 runs" "$(pdf_text "$TMP/itw/report.pdf")"
'

# ---- gpu-batch-sweep over global_batch_size: throughput and energy per sample ----
test_expect_success 'setup: ingest gpu-batch-sweep' '
	"$AMDAHL" --store "$TMP/gpu.db" ingest "$DATA/gpu-batch-sweep" >/dev/null
'
test_expect_success 'setup: report build --axis exits 0 on gpu-batch-sweep' '
	build_report "$TMP/gpu.db" "$TMP/gpu" --axis global_batch_size
'
test_expect_success PYTHON 'setup: gpu: the findings, recomputed from stats --axis global_batch_size --json' '
	"$AMDAHL" --store "$TMP/gpu.db" stats --axis global_batch_size --json |
		"$PY" "$ORACLE/report_findings.py" gpu - >"$TMP/gpu-expect"
'
test_expect_success PDFTOTEXT,PYTHON 'gpu: the PDF text has the highest throughput per strategy and the lowest energy per sample' '
	test_true "the oracle gave findings" test -s "$TMP/gpu-expect"
	gtext=$(pdf_text "$TMP/gpu/report.pdf")
	while IFS= read -r want; do
		test_contains "$want" "$gtext"
	done <"$TMP/gpu-expect"
'
test_expect_success PDFTOTEXT 'gpu: no speedup on a batch-size axis, said so' '
	test_contains "the axis is global_batch_size, not the number of workers" "$(pdf_text "$TMP/gpu/report.pdf")"
'
test_expect_success 'gpu: no speedup chart' '
	test_path_is_missing "$TMP/gpu/charts/speedup.png"
'
test_expect_success 'gpu: throughput, energy_sample and gpu_util charts' '
	for c in throughput energy_sample gpu_util; do
		test_true "gpu: $c chart" test -s "$TMP/gpu/charts/$c.png"
	done
'
test_expect_success PYTHON 'gpu: summary.md has the energy per sample' '
	test_contains "$(sed -n "\$p" "$TMP/gpu-expect")" "$(cat "$TMP/gpu/summary.md")"
'

# the same output directory for another sweep: no charts left from the first
test_expect_success 'rebuild into a used directory exits 0; the previous report'\''s charts are gone, this one'\''s are there' '
	build_report "$TMP/cpu.db" "$TMP/gpu" --sweep cpu-strong-scaling
	test_path_is_missing "$TMP/gpu/charts/energy_sample.png"
	test_path_is_missing "$TMP/gpu/charts/gpu_util.svg"
	test_true "rebuild: this report'\''s charts are there" test -s "$TMP/gpu/charts/speedup.png"
'

# ---- dataloader-workers: the step-time breakdown ----
test_expect_success 'setup: ingest dataloader-workers' '
	"$AMDAHL" --store "$TMP/dl.db" ingest "$DATA/dataloader-workers" >/dev/null
'
test_expect_success 'setup: report build exits 0 on dataloader-workers' '
	build_report "$TMP/dl.db" "$TMP/dl" --axis num_workers
'
test_expect_success 'dataloader: step-time breakdown chart' '
	test_true "dataloader: step-time breakdown chart" test -s "$TMP/dl/charts/step_breakdown.png"
'
test_expect_success PDFTOTEXT 'dataloader: its caption is in the PDF' '
	test_contains "Training step time by phase" "$(pdf_text "$TMP/dl/report.pdf")"
'
# the data-loading share of a step, recomputed from the MLflow files:
# median over each run's logged steps, median over the runs, then share
test_expect_success PDFTOTEXT,PYTHON 'dataloader: the data-loading share is a finding' '
	want=$("$PY" "$ORACLE/dataloader_share.py" "$DATA/dataloader-workers/mlruns/7") &&
	test_contains "$want" "$(pdf_text "$TMP/dl/report.pdf")"
'
test_expect_success PDFTOTEXT 'dataloader: no epoch metric, said once' '
	test_contains "no run has a usable epoch_time_s" "$(pdf_text "$TMP/dl/report.pdf")"
'
test_expect_success PDFTOTEXT 'dataloader: no empty configuration table' '
	test_contains "No configuration has a usable value" "$(pdf_text "$TMP/dl/report.pdf")"
'
test_expect_success 'dataloader: summary.md says so too' '
	test_contains "No configuration has a usable value" "$(cat "$TMP/dl/summary.md")"
'
test_expect_success XMLLINT 'dataloader: summary.html parses' '
	test_status 0 xmllint --html --noout "$TMP/dl/summary.html"
'

# ---- py-spy samples linked to a run: the top-functions chart ----
test_expect_success 'setup: the CPU sweep with py-spy samples under one run, ingested' '
	mkdir -p "$TMP/ps" &&
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/ps/" &&
	mkdir -p "$TMP/ps/mlruns/4/$PYSPY_RUN/artifacts/py-spy" &&
	cp "$DATA/pyspy/train-raw.txt" "$TMP/ps/mlruns/4/$PYSPY_RUN/artifacts/py-spy/" &&
	"$AMDAHL" --store "$TMP/ps.db" ingest "$TMP/ps/mlruns" >/dev/null
'
test_expect_success 'setup: report build exits 0 with py-spy samples' '
	build_report "$TMP/ps.db" "$TMP/ps/out"
'
test_expect_success 'py-spy: top functions chart' '
	test_true "py-spy: top functions chart" test -s "$TMP/ps/out/charts/pyspy_top.png"
'
# the leaf functions with the most samples, counted here from the raw file
test_expect_success PDFTOTEXT,PYTHON 'py-spy: the three leaf functions with the most samples are among the top functions' '
	"$PY" "$ORACLE/pyspy_top_leaves.py" "$DATA/pyspy/train-raw.txt" >"$TMP/ps-expect" &&
	test_eq 3 "$(wc -l <"$TMP/ps-expect")" &&
	ptext=$(pdf_text "$TMP/ps/out/report.pdf") &&
	while IFS= read -r want; do
		test_contains "$want" "$ptext"
	done <"$TMP/ps-expect"
'
test_expect_success PDFTOTEXT,PYTHON 'py-spy: the top self time matches "pyspy top"' '
	secs=$("$AMDAHL" --store "$TMP/ps.db" pyspy top "$PYSPY_RUN" --json -n 1 | json_get - "\"%.1f\" % d[\"functions\"][0][\"self_seconds\"]") &&
	test_contains "$secs" "$(pdf_text "$TMP/ps/out/report.pdf")"
'
# the icicle: its PNG, read back; the root bar spans the plot (margins
# equal on both sides) and the first frame under it is as wide as its
# share of all samples, counted here from the raw file
test_expect_success 'py-spy: icicle chart' '
	test_true "py-spy: icicle chart" test -s "$TMP/ps/out/charts/pyspy_icicle.png"
'
test_expect_success PDFTOTEXT 'py-spy: the icicle is in the PDF' '
	test_contains "Python time: call tree" "$(pdf_text "$TMP/ps/out/report.pdf")"
'
test_expect_success PIL 'py-spy: the icicle root spans the plot; its first frame is as wide as its share of the samples' '
	icicle=$("$PY" "$AMDAHL_ROOT/tests/lib/pyspy_icicle_png.py" "$DATA/pyspy/train-raw.txt" "$TMP/ps/out/charts/pyspy_icicle.png")
	test_contains "margins equal" "$icicle"
	test_contains "first child ok" "$icicle"
'
test_expect_success PDFTOTEXT 'py-spy: the cpu report without samples says so' '
	test_contains "Python profile: no py-spy samples" "$(text_of "$TMP/cpu.txt")"
'

# ---- one run: still a complete report ----
test_expect_success 'setup: a sweep of one run, ingested' '
	mkdir -p "$TMP/one/mlruns/4" &&
	cp "$DATA/cpu-strong-scaling/mlruns/4/meta.yaml" "$TMP/one/mlruns/4/" &&
	cp -r "$DATA/cpu-strong-scaling/mlruns/4/261297f6c3c643a98154776f864bae3d" "$TMP/one/mlruns/4/" &&
	"$AMDAHL" --store "$TMP/one.db" ingest "$TMP/one/mlruns" >/dev/null
'
test_expect_success 'setup: report build exits 0 on a one-run sweep' '
	build_report "$TMP/one.db" "$TMP/one/out"
'
test_expect_success PDFTOTEXT 'one run: findings page, nothing to scale, no spread, appendix of sources' '
	otext=$(pdf_text "$TMP/one/out/report.pdf")
	test_contains "Findings" "$otext"
	test_contains "every strategy was run at one n only" "$otext"
	test_contains "one run per configuration" "$otext"
	test_contains "Appendix C: sources" "$otext"
'
test_expect_success 'one run: epoch time chart' '
	test_true "one run: epoch time chart" test -s "$TMP/one/out/charts/epoch_time.png"
'
test_expect_success 'one run: no speedup, efficiency or variance chart (needs 2+ runs or n)' '
	for c in speedup efficiency variance; do
		test_path_is_missing "$TMP/one/out/charts/$c.png"
	done
'
test_expect_success 'one run: summary.html' '
	test_true "one run: summary.html" test -s "$TMP/one/out/summary.html"
'

# ---- errors ----
test_expect_success 'report build on a missing store exits 2' '
	test_status 2 "$AMDAHL" --store "$TMP/none.db" report build -o "$TMP/x"
'
test_expect_success 'an unknown report subcommand exits 2' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report draw
'
test_expect_success 'an unknown sweep exits 2' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build --sweep nope -o "$TMP/x"
'
test_expect_success 'two sweeps and no --sweep exits 2; the error names them' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest "$DATA/gpu-batch-sweep" >/dev/null &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/x"
	test_contains "gpu-batch-sweep" "$ERR"
'
test_expect_success 'an output path that is a file exits 2' '
	: >"$TMP/file" &&
	test_status 2 "$AMDAHL" --store "$TMP/one.db" report build -o "$TMP/file"
'
test_expect_success 'report build --help exits 0 and names the outputs' '
	test_status 0 "$AMDAHL" report build --help
	test_contains "summary.html" "$OUT"
'

test_done
