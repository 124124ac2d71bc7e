#!/bin/bash
# report.sh — `amdahl report build` on the real sweeps: the PDF (page
# count, embedded DejaVu fonts, the computed figures in its text, checked
# against `amdahl stats --json`), charts as 150 dpi PNG and SVG, the
# summaries from templates, report.json, charts left out for missing data
# and the errors.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
# fmt V: a number as the report prints it (3-4 significant digits)
fmt_py='
def fmt(v):
    a = abs(v)
    if a >= 100: return "%.0f" % v
    if a >= 10: return "%.1f" % v
    if a >= 1: return "%.2f" % v
    if a >= 0.01: return "%.3f" % v
    return "%.2g" % v
'

build() { # STORE OUTDIR ARGS...
  local store=$1 out=$2; shift 2
  "$AMDAHL" --store "$store" report build -o "$out" --json "$@" >"$TMP/build.json" 2>"$TMP/build.err"
}
pages() { pdfinfo "$1" | awk '/^Pages:/ {print $2}'; }

# ---- cpu-strong-scaling: two strategies, 1..8 ranks, failed runs ----
S=$TMP/cpu.db
"$AMDAHL" --store "$S" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null
"$AMDAHL" --store "$S" stats --json >"$TMP/cpu-stats.json"
build "$S" "$TMP/cpu"; eq "report build exits 0 on cpu-strong-scaling" 0 $?
R=$TMP/cpu
for f in report.pdf summary.md summary.html report.json; do
  [ -s "$R/$f" ] && pass "cpu: $f written" || fail "cpu: $f written"
done
np=$(pages "$R/report.pdf")
eq "cpu: pdfinfo page count is what build reported" \
  "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["pages"])' "$TMP/build.json")" "$np"
[ "$np" -ge 4 ] && pass "cpu: at least 4 pages (findings, charts, tables, appendix)" \
  || fail "cpu: at least 4 pages" "pages: $np"
fonts=$(pdffonts "$R/report.pdf")
contains "cpu: DejaVu Sans is in the PDF" "DejaVuSans" "$fonts"
emb=$(printf '%s\n' "$fonts" | awk 'NR>2 && $1 ~ /DejaVu/ {print $(NF-4)}' | sort -u)
eq "cpu: every DejaVu font is embedded" "yes" "$emb"
pdftotext -layout "$R/report.pdf" "$TMP/cpu.txt"
text=$(tr -s ' \n' ' ' <"$TMP/cpu.txt")

# the findings, recomputed from the stats JSON
$PY - "$TMP/cpu-stats.json" >"$TMP/cpu-expect" <<EOF
import json, sys
$fmt_py
sw = json.load(open(sys.argv[1]))["sweeps"][0]
for st in sw["strategies"]:
    pts = st["points"]
    best = max(pts[1:], key=lambda p: p["speedup"])
    ci = best["speedup_ci"]
    print("%s: best speedup %.2f× (95%% CI %s–%s) at n = %g" % (st["strategy"], best["speedup"],
          fmt(ci["lo"]), fmt(ci["hi"]), best["n"]))
    last = pts[-1]
    print("%s: at its largest n = %g, efficiency is %.0f%%" % (st["strategy"], last["n"],
          last["efficiency"] * 100))
    a = st["amdahl"]
    print("serial fraction of %.1f%%" % (a["serial_fraction"] * 100))
    for p in pts:  # the configurations table: median and its interval
        print("%s–%s" % (fmt(p["ci"]["lo"]), fmt(p["ci"]["hi"])))
# the slowdown of fsdp from n=4 to n=8 (the first n slower than the one before)
f = [s for s in sw["strategies"] if s["strategy"] == "fsdp"][0]["points"]
if f[3]["median"] >= f[2]["median"]:
    print("fsdp stops scaling after n = 4: at n = 8 an epoch takes %s s" % fmt(f[3]["median"]))
# with profiler traces: the communication share at the largest n
if sw["has_traces"]:
    for st in sw["strategies"]:
        p = st["points"][-1]
        print("to %.0f%% at n = %g (profiler traces)" % (p["comm_share"] * 100, p["n"]))
EOF
while IFS= read -r want; do
  contains "cpu: PDF text has '$want'" "$want" "$text"
done <"$TMP/cpu-expect"
contains "cpu: the data gaps say energy is missing" "Energy: no GPU energy or power metrics" "$text"
traces=$($PY -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["sweeps"][0]["has_traces"]))' "$TMP/cpu-stats.json")
cfrac=$($PY -c '
import json, sys
sw = json.load(open(sys.argv[1]))["sweeps"][0]
print(int(any(p["comp_fraction"] is not None for s in sw["strategies"] for p in s["points"])))' "$TMP/cpu-stats.json")
if [ "$traces" = 1 ]; then
  for c in phase_split comm_share; do
    [ -s "$R/charts/$c.png" ] && pass "cpu: traces linked: $c chart" || fail "cpu: traces linked: $c chart"
  done
else
  contains "cpu: the data gaps say traces are missing" "no PyTorch profiler traces" "$text"
  [ ! -e "$R/charts/phase_split.png" ] && pass "cpu: no phase chart without traces" \
    || fail "cpu: no phase chart without traces"
fi
if [ "$cfrac" = 1 ]; then
  [ -s "$R/charts/compute_vs_other.png" ] && pass "cpu: computation fraction: its chart" \
    || fail "cpu: computation fraction: its chart"
else
  contains "cpu: the data gaps say op times are missing" "Computation vs other: no" "$text"
fi
contains "cpu: excluded epochs and why" "epoch 0 (warm-up)" "$text"
failed=$("$AMDAHL" --store "$S" runs --json | $PY -c '
import json, sys
print([r["id"] for r in json.load(sys.stdin)["runs"] if r["status"] == "FAILED"][0])')
contains "cpu: a failed run is in the appendix" "$failed" "$text"
sha=$(q "$S" "SELECT sha256 FROM source ORDER BY path LIMIT 1")
contains "cpu: sources appendix has the store's sha256" "$sha" "$text"
for c in epoch_time speedup efficiency throughput variance; do
  [ -s "$R/charts/$c.png" ] && [ -s "$R/charts/$c.svg" ] && pass "cpu: chart $c as PNG and SVG" \
    || fail "cpu: chart $c as PNG and SVG"
done
for c in energy_epoch gpu_util step_breakdown; do
  [ ! -e "$R/charts/$c.png" ] && pass "cpu: no $c chart without its data" \
    || fail "cpu: no $c chart without its data"
done
size=$($PY -c '
import struct, sys
with open(sys.argv[1], "rb") as f: h = f.read(24)
print("%dx%d" % struct.unpack(">II", h[16:24]))' "$R/charts/speedup.png")
# 495 x 290 pt at 150 dpi
eq "cpu: PNG charts are 150 dpi" "$(awk 'BEGIN{w=495*150/72; h=290*150/72; printf "%dx%d", (w==int(w))?w:int(w)+1, (h==int(h))?h:int(h)+1}')" "$size"
head -c 300 "$R/charts/speedup.svg" | grep -q '<svg' && pass "cpu: SVG chart is SVG" || fail "cpu: SVG chart is SVG"
best=$(sed -n 1p "$TMP/cpu-expect")
md=$(cat "$R/summary.md")
contains "cpu: summary.md has the best speedup" "$best" "$md"
contains "cpu: summary.md links the speedup chart" "(charts/speedup.png)" "$md"
html=$(cat "$R/summary.html")
contains "cpu: summary.html has the best speedup" "$best" "$html"
contains "cpu: summary.html embeds the SVG chart" '<img src="charts/speedup.svg"' "$html"
if xmllint --html --noout "$R/summary.html" 2>"$TMP/xml.err"; then pass "cpu: summary.html parses"
else fail "cpu: summary.html parses" "$(head -3 "$TMP/xml.err")"; fi
$PY - "$R/report.json" "$TMP/cpu-stats.json" "$R" <<'EOF' >"$TMP/json.out" 2>&1
import json, os, sys
r = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))["sweeps"][0]
assert r["sweep"] == s["sweep"], "sweep"
for a, b in zip(r["strategies"], s["strategies"]):
    for p, q in zip(a["points"], b["points"]):
        assert abs(p["median"] - q["median"]) < 1e-9, (p, q)
        assert abs(p["speedup"] - q["speedup"]) < 1e-9
for c in r["charts"]:
    assert os.path.getsize(os.path.join(sys.argv[3], c["png"])) > 0, c
    assert os.path.getsize(os.path.join(sys.argv[3], c["svg"])) > 0, c
assert len(r["left_out"]) == s["runs_excluded"], "left out"
print("ok")
EOF
eq "cpu: report.json matches stats --json and lists existing charts" "ok" "$(tail -1 "$TMP/json.out")"

# ---- itwinai layout: energy and utilisation, 2 runs per point ----
S=$TMP/itw.db
"$AMDAHL" --store "$S" ingest "$DATA/itwinai-layout" >/dev/null
build "$S" "$TMP/itw"; eq "report build exits 0 on itwinai-layout" 0 $?
[ "$(pages "$TMP/itw/report.pdf")" -ge 3 ] && pass "itwinai: at least 3 pages" || fail "itwinai: at least 3 pages"
for c in energy_epoch energy_solution gpu_util speedup; do
  [ -s "$TMP/itw/charts/$c.png" ] && pass "itwinai: $c chart" || fail "itwinai: $c chart"
done
itext=$(pdftotext "$TMP/itw/report.pdf" - | tr -s ' \n' ' ')
want=$("$AMDAHL" --store "$S" stats --json | $PY -c '
import json, sys
st = json.load(sys.stdin)["sweeps"][0]["strategies"][0]
p = st["points"][1]
print("%.2f×" % p["speedup"])')
contains "itwinai: the speedup at n=2 is in the text" "$want" "$itext"
contains "itwinai: fewer than 3 runs: no CI, said so" "fewer than 3 runs" "$itext"

# ---- gpu-batch-sweep over global_batch_size: throughput and energy per sample ----
S=$TMP/gpu.db
"$AMDAHL" --store "$S" ingest "$DATA/gpu-batch-sweep" >/dev/null
build "$S" "$TMP/gpu" --axis global_batch_size; eq "report build --axis exits 0 on gpu-batch-sweep" 0 $?
gtext=$(pdftotext "$TMP/gpu/report.pdf" - | tr -s ' \n' ' ')
"$AMDAHL" --store "$S" stats --axis global_batch_size --json | $PY -c "
import json, sys
$fmt_py
sw = json.load(sys.stdin)['sweeps'][0]
for st in sw['strategies']:
    hi = max(st['points'], key=lambda p: p['throughput'])
    print('%s: throughput is highest at global_batch_size = %g with %s samples/s' % (st['strategy'], hi['n'], fmt(hi['throughput'])))
pts = [(p['energy_per_sample_j'], st['strategy'], p['n']) for st in sw['strategies'] for p in st['points']]
e, s, n = min(pts)
print('Energy per sample is lowest for %s at global_batch_size = %g: %s J' % (s, n, fmt(e)))
" >"$TMP/gpu-expect"
while IFS= read -r want; do
  contains "gpu: PDF text has '$want'" "$want" "$gtext"
done <"$TMP/gpu-expect"
contains "gpu: no speedup on a batch-size axis, said so" "the axis is global_batch_size, not the number of workers" "$gtext"
[ ! -e "$TMP/gpu/charts/speedup.png" ] && pass "gpu: no speedup chart" || fail "gpu: no speedup chart"
for c in throughput energy_sample gpu_util; do
  [ -s "$TMP/gpu/charts/$c.png" ] && pass "gpu: $c chart" || fail "gpu: $c chart"
done
contains "gpu: summary.md has the energy per sample" "$(sed -n '$p' "$TMP/gpu-expect")" "$(cat "$TMP/gpu/summary.md")"

# the same output directory for another sweep: no charts left from the first
build "$TMP/cpu.db" "$TMP/gpu" --sweep cpu-strong-scaling
eq "rebuild into a used directory exits 0" 0 $?
[ ! -e "$TMP/gpu/charts/energy_sample.png" ] && [ ! -e "$TMP/gpu/charts/gpu_util.svg" ] \
  && pass "rebuild: charts of the previous report are gone" \
  || fail "rebuild: charts of the previous report are gone"
[ -s "$TMP/gpu/charts/speedup.png" ] && pass "rebuild: this report's charts are there" \
  || fail "rebuild: this report's charts are there"

# ---- dataloader-workers: the step-time breakdown ----
S=$TMP/dl.db
"$AMDAHL" --store "$S" ingest "$DATA/dataloader-workers" >/dev/null
build "$S" "$TMP/dl" --axis num_workers; eq "report build exits 0 on dataloader-workers" 0 $?
[ -s "$TMP/dl/charts/step_breakdown.png" ] && pass "dataloader: step-time breakdown chart" \
  || fail "dataloader: step-time breakdown chart"
dtext=$(pdftotext "$TMP/dl/report.pdf" - | tr -s ' \n' ' ')
contains "dataloader: its caption is in the PDF" "Training step time by phase" "$dtext"
# the data-loading share of a step, recomputed from the MLflow files:
# median over each run's logged steps, median over the runs, then share
$PY - "$DATA/dataloader-workers/mlruns/7" >"$TMP/dl-expect" <<'EOF'
import os, statistics, sys
root = sys.argv[1]
groups = {}
for run in os.listdir(root):
    d = os.path.join(root, run)
    if not os.path.isdir(d):
        continue
    w = float(open(os.path.join(d, "params", "num_workers")).read().strip())
    ph = {}
    for p in ("data", "forward", "backward", "optimizer"):
        f = os.path.join(d, "metrics", "profile", "train", "dl_main", "time_%s_ms" % p)
        ph[p] = statistics.median(float(l.split()[1]) for l in open(f) if l.strip())
    groups.setdefault(w, []).append(ph)
share = {}
for w, runs in groups.items():
    m = {p: statistics.median(r[p] for r in runs) for p in runs[0]}
    share[w] = m["data"] / sum(m.values())
hi = max(share, key=share.get); lo = min(share, key=share.get)
print("Loader main: data loading takes %.0f%% of a training step at num_workers = %g "
      "(single-gpu), against %.0f%% at num_workers = %g." % (share[hi] * 100, hi, share[lo] * 100, lo))
EOF
contains "dataloader: the data-loading share is a finding" "$(cat "$TMP/dl-expect")" "$dtext"
contains "dataloader: no epoch metric, said once" "no run has a usable epoch_time_s" "$dtext"
contains "dataloader: no empty configuration table" "No configuration has a usable value" "$dtext"
contains "dataloader: summary.md says so too" "No configuration has a usable value" "$(cat "$TMP/dl/summary.md")"
if xmllint --html --noout "$TMP/dl/summary.html" 2>/dev/null; then pass "dataloader: summary.html parses"
else fail "dataloader: summary.html parses"; fi

# ---- py-spy samples linked to a run: the top-functions chart ----
mkdir -p "$TMP/ps"
cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/ps/"
run=308e74e2e53c41adb92c6e48dcb6847b
mkdir -p "$TMP/ps/mlruns/4/$run/artifacts/py-spy"
cp "$DATA/pyspy/train-raw.txt" "$TMP/ps/mlruns/4/$run/artifacts/py-spy/"
S=$TMP/ps.db
"$AMDAHL" --store "$S" ingest "$TMP/ps/mlruns" >/dev/null
build "$S" "$TMP/ps/out"; eq "report build exits 0 with py-spy samples" 0 $?
[ -s "$TMP/ps/out/charts/pyspy_top.png" ] && pass "py-spy: top functions chart" || fail "py-spy: top functions chart"
ptext=$(pdftotext "$TMP/ps/out/report.pdf" - | tr -s ' \n' ' ')
# the leaf functions with the most samples, counted here from the raw file
$PY - "$DATA/pyspy/train-raw.txt" >"$TMP/ps-expect" <<'EOF'
import collections, re, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line:
        continue
    stack, n = line.rsplit(" ", 1)
    m = re.match(r"(.*) \((.*):\d+\)$", stack.split(";")[-1])
    if m:
        c[(m.group(1), m.group(2).split("/")[-1])] += int(n)
for (name, f), n in c.most_common(3):
    print("%s (%s)" % (name, f))
EOF
while IFS= read -r want; do
  contains "py-spy: '$want' is among the top functions" "$want" "$ptext"
done <"$TMP/ps-expect"
secs=$("$AMDAHL" --store "$S" pyspy top "$run" --json -n 1 | $PY -c '
import json, sys
print("%.1f" % json.load(sys.stdin)["functions"][0]["self_seconds"])')
contains "py-spy: the top self time matches 'pyspy top'" "$secs" "$ptext"
# the icicle: its PNG, read back; the root bar spans the plot (margins
# equal on both sides) and the first frame under it is as wide as its
# share of all samples, counted here from the raw file
[ -s "$TMP/ps/out/charts/pyspy_icicle.png" ] && pass "py-spy: icicle chart" || fail "py-spy: icicle chart"
contains "py-spy: the icicle is in the PDF" "Python time: call tree" "$ptext"
icicle=$($PY - "$DATA/pyspy/train-raw.txt" "$TMP/ps/out/charts/pyspy_icicle.png" <<'EOF'
import collections, re, sys
from PIL import Image
frame = re.compile(r"(.*) \((.*):\d+\)$")
roots, total = collections.Counter(), 0
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line:
        continue
    stack, n = line.rsplit(" ", 1)
    first = next((p for p in stack.split(";") if frame.match(p)), None)
    if first:
        roots[first] += int(n)
        total += int(n)
share = roots.most_common(1)[0][1] / total
im = Image.open(sys.argv[2]).convert("RGB")
W, H = im.size
grey = lambda c: all(abs(v - 115) <= 12 for v in c)
def run(y, ok, x):
    while x < W and ok(im.getpixel((x, y))):
        x += 1
    return x
y = next(y for y in range(H) if sum(grey(im.getpixel((x, y))) for x in range(0, W, 4)) > W // 8)
L = next(x for x in range(W) if grey(im.getpixel((x, y + 3))))
R = run(y + 3, grey, L)
while grey(im.getpixel((L + 1, y))):
    y += 1
while im.getpixel((L + 1, y)) == (255, 255, 255):
    y += 1
c0 = im.getpixel((L + 1, y + 3))
same = lambda c: all(abs(a - b) <= 12 for a, b in zip(c, c0))
A = run(y + 3, same, L)
print("margins %s" % ("equal" if abs(L - (W - R)) <= 2 and R - L > 0.9 * W else "L=%d R=%d W=%d" % (L, R, W)))
print("first child %s" % ("ok" if abs((A - L) - share * (R - L)) <= 2 else "%d px, want %.1f" % (A - L, share * (R - L))))
EOF
)
contains "py-spy: the icicle root spans the plot" "margins equal" "$icicle"
contains "py-spy: the icicle's first frame is as wide as its share of the samples" "first child ok" "$icicle"
contains "py-spy: the cpu report without samples says so" "Python profile: no py-spy samples" "$text"

# ---- one run: still a complete report ----
mkdir -p "$TMP/one/mlruns/4"
cp "$DATA/cpu-strong-scaling/mlruns/4/meta.yaml" "$TMP/one/mlruns/4/"
cp -r "$DATA/cpu-strong-scaling/mlruns/4/261297f6c3c643a98154776f864bae3d" "$TMP/one/mlruns/4/"
S=$TMP/one.db
"$AMDAHL" --store "$S" ingest "$TMP/one/mlruns" >/dev/null
build "$S" "$TMP/one/out"; eq "report build exits 0 on a one-run sweep" 0 $?
otext=$(pdftotext "$TMP/one/out/report.pdf" - | tr -s ' \n' ' ')
contains "one run: findings page" "Findings" "$otext"
contains "one run: says there is nothing to scale" "every strategy was run at one n only" "$otext"
contains "one run: says there is no spread" "one run per configuration" "$otext"
contains "one run: appendix of sources" "Appendix C: sources" "$otext"
[ -s "$TMP/one/out/charts/epoch_time.png" ] && pass "one run: epoch time chart" || fail "one run: epoch time chart"
for c in speedup efficiency variance; do
  [ ! -e "$TMP/one/out/charts/$c.png" ] && pass "one run: no $c chart (needs 2+ runs or n)" \
    || fail "one run: no $c chart"
done
[ -s "$TMP/one/out/summary.html" ] && pass "one run: summary.html" || fail "one run: summary.html"

# ---- errors ----
status "report build on a missing store exits 2" 2 "$AMDAHL" --store "$TMP/none.db" report build -o "$TMP/x"
status "an unknown report subcommand exits 2" 2 "$AMDAHL" --store "$TMP/cpu.db" report draw
status "an unknown sweep exits 2" 2 "$AMDAHL" --store "$TMP/cpu.db" report build --sweep nope -o "$TMP/x"
"$AMDAHL" --store "$TMP/cpu.db" ingest "$DATA/gpu-batch-sweep" >/dev/null
status "two sweeps and no --sweep exits 2" 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/x"
contains "two sweeps: the error names them" "gpu-batch-sweep" "$ERR"
: >"$TMP/file"
status "an output path that is a file exits 2" 2 "$AMDAHL" --store "$S" report build -o "$TMP/file"
status "report build --help exits 0" 0 "$AMDAHL" report build --help
contains "help names the outputs" "summary.html" "$OUT"
