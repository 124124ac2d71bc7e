#!/bin/bash
# report_compare.sh — `amdahl report build --baseline A [--candidate B]` on
# the real sweeps: DDP against FSDP on cpu-strong-scaling, an A/A of that
# sweep ingested twice under two names, and fp32 against bf16 on the H100
# sweep with energy gated (a regression). Every expected string comes from
# `amdahl compare --json` with the same inputs: the verdict and every ratio
# in the PDF's text, report.json's "gate" object equal to compare's rows
# and summary, the comparison chart's bar ends and whiskers read back from
# the PNG's pixels, and `amdahl mail --dry-run` of the report directory
# carrying the gate's result.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
CPU=$DATA/cpu-strong-scaling/mlruns
GPU=$DATA/gpu-batch-sweep/mlruns

"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU"
# the store keeps a file once: the second ingest under another name goes to its own store
"$AMDAHL" --store "$TMP/a.db" ingest -q --sweep run-a "$CPU"
"$AMDAHL" --store "$TMP/b.db" ingest -q --sweep run-b "$CPU"
"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$GPU"
printf 'gate:\n  metrics:\n    energy_epoch_j:\n      direction: lower\n      threshold: 0.1\n' >"$TMP/energy.yaml"

# The gate's result in report.json's words and the PDF's word, from compare --json.
result_of() {
  "$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]
print("regression" if s["regressions"] else "insufficient" if s["insufficient"] else "pass")' "$1"
}
word_of() {
  case $1 in regression) echo FAIL;; insufficient) echo "INSUFFICIENT DATA";; *) echo PASS;; esac
}

# check NAME STORE CONFIG(or -) BUILD-ARGS... — builds the report with a
# baseline and checks it against compare --json of the same sweeps
# (CAND_DEFAULT: the reported sweep, when BUILD-ARGS name no candidate).
check() {
  local name=$1 store=$2 config=$3; shift 3
  local cfg=(); [ "$config" != - ] && cfg=(--config "$config")
  # compare takes no --sweep: drop "--sweep S" from its arguments
  local cmpargs=() a skip=0
  for a in "$@"; do
    if [ $skip = 1 ]; then skip=0; continue; fi
    [ "$a" = --sweep ] && { skip=1; continue; }
    cmpargs+=("$a")
  done
  local R=$TMP/$name
  # report build compares the reported sweep when --candidate is absent; compare needs it
  case " $* " in *" --candidate "*) ;; *) cmpargs+=(--candidate "$CAND_DEFAULT");; esac
  "$AMDAHL" --store "$store" "${cfg[@]}" compare --json "${cmpargs[@]}" >"$TMP/$name-cmp.json"
  status "$name: report build --baseline exits 0" 0 \
    "$AMDAHL" --store "$store" "${cfg[@]}" report build -o "$R" --json "$@"
  echo "$OUT" >"$TMP/$name-build.json"
  local want; want=$(result_of "$TMP/$name-cmp.json")
  eq "$name: build --json reports the gate result compare's summary gives" "$want" \
    "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("gate"))' "$TMP/$name-build.json")"

  # report.json: the gate object is compare's result
  eq "$name: report.json gate.result" "$want" \
    "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gate"]["result"])' "$R/report.json")"
  eq "$name: report.json gate rows and summary equal compare --json's" "equal" \
    "$("$PY" - "$R/report.json" "$TMP/$name-cmp.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))["gate"]
c = json.load(open(sys.argv[2]))
ok = g["rows"] == c["rows"] and g["summary"] == c["summary"] and len(c["rows"]) > 0
ok = ok and g["baseline"]["sweep"] == c["baseline"]["sweep"] and g["candidate"]["sweep"] == c["candidate"]["sweep"]
print("equal" if ok else "differ: %d vs %d rows" % (len(g["rows"]), len(c["rows"])))
EOF
)"

  # the PDF: the verdict on page 1 and on the comparison page, every ratio
  pdftotext -layout "$R/report.pdf" "$TMP/$name.txt"
  local text; text=$(tr -s ' \n' ' ' <"$TMP/$name.txt")
  contains "$name: page 1 says 'gate: $(word_of "$want")'" "gate: $(word_of "$want"):" \
    "$(pdftotext -f 1 -l 1 "$R/report.pdf" - | tr -s ' \n' ' ')"
  contains "$name: page 2 is the comparison page" "Comparison with the baseline" \
    "$(pdftotext -f 2 -l 2 "$R/report.pdf" - | tr -s ' \n' ' ')"
  local missing
  missing=$("$PY" - "$TMP/$name-cmp.json" "$TMP/$name.txt" <<'EOF'
import json, sys, re
d = json.load(open(sys.argv[1]))
text = re.sub(r"\s+", " ", open(sys.argv[2]).read())
want = []
for r in d["rows"]:
    if r["ratio"] is None:
        continue
    if r["ci"]:
        want.append("%.3f [%.3f, %.3f]" % (r["ratio"], r["ci"]["lo"], r["ci"]["hi"]))
    else:
        want.append("%.3f (no CI)" % r["ratio"])
    want.append(r["verdict"])
print(len(want) // 2, [w for w in want if w not in text])
EOF
)
  eq "$name: every row's ratio [CI] and verdict from compare --json is in the PDF" \
    "$(jq_rows "$TMP/$name-cmp.json") []" "$missing"

  # summaries
  contains "$name: summary.md has the comparison section" "## Comparison with the baseline" "$(cat "$R/summary.md")"
  contains "$name: summary.html has the comparison section" "<h2>Comparison with the baseline</h2>" "$(cat "$R/summary.html")"

  # mail: the dry run of this report directory carries the result
  status "$name: mail --dry-run of the report exits 0" 0 \
    "$AMDAHL" mail --to ci@example.org --dry-run "$TMP/$name.eml" "$R"
  eq "$name: the mail's subject and text body name the gate result" "True True" \
    "$("$PY" - "$TMP/$name.eml" "$want" <<'EOF'
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
body = m.get_body(preferencelist=("plain",)).get_content()
print(("gate: " + sys.argv[2]) in m["Subject"], ("Gate:  " + sys.argv[2]) in body)
EOF
)"
}
jq_rows() { "$PY" -c 'import json,sys; print(sum(r["ratio"] is not None for r in json.load(open(sys.argv[1]))["rows"]))' "$1"; }

# pixels FILE.png CMP.json — the comparison chart's bars read back: every
# bar starts at the column of ratio 1, its far end and its whiskers lie at
# 1 + s·(value − 1) for one scale s across all rows (within 2 px), in
# chart order (gated rows grouped by metric), in the verdict's colour.
pixels() {
  "$PY" - "$1" "$2" <<'EOF'
import json, sys
from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
W, H = img.size
px = img.load()
d = json.load(open(sys.argv[2]))
rows = [r for r in d["rows"] if r["gated"] and r["verdict"] != "missing" and r["ratio"] is not None]
order = []
for r in rows:
    if r["metric"] not in order:
        order.append(r["metric"])
rows.sort(key=lambda r: order.index(r["metric"]))  # stable: compare's order within a metric
colour = {"regression": (0xD5, 0x5E, 0x00), "improvement": (0x00, 0x9E, 0x73),
          "no change": (0x00, 0x72, 0xB2), "insufficient data": (115, 115, 115)}
def near(p, c, t=12):
    return all(abs(p[i] - c[i]) <= t for i in range(3))
# rectangles of each verdict colour: runs in consecutive pixel rows that
# overlap (a whisker across a bar splits its rows, not the bar)
rects = []
for name, c in colour.items():
    open_ = []  # [y0, y1, {y: [x0, x1]}, x0, x1]
    for y in range(H):
        x = 0
        while x < W:
            if near(px[x, y], c):
                x0 = x
                while x < W and near(px[x, y], c):
                    x += 1
                if x - x0 >= 2:
                    a, b = x0, x - 1
                    hit = None
                    for r in open_:  # r[3], r[4]: its extent so far
                        if y - r[1] <= 4 and a <= r[4] + 3 and b >= r[3] - 3:
                            hit = r
                            break
                    if hit is None:
                        hit = [y, y, {}, a, b]
                        open_.append(hit)
                    span = hit[2].get(y, [a, b])
                    hit[2][y] = [min(span[0], a), max(span[1], b)]
                    hit[1], hit[3], hit[4] = y, min(hit[3], a), max(hit[4], b)
            x += 1
    def med(v):
        v = sorted(v)
        return v[len(v) // 2]
    for y0, y1, spans, _, _ in open_:
        if y1 - y0 >= 8:
            rects.append((name, y0, y1, med([s[0] for s in spans.values()]),
                          med([s[1] for s in spans.values()])))
# the column of ratio 1, roughly: where most bars have an edge
edges = [e for r in rects for e in (r[3], r[4])]
guess = max(edges, key=lambda e: (sum(abs(f - e) <= 4 for f in edges), -e))
found = sorted([r for r in rects if min(abs(r[3] - guess), abs(r[4] - guess)) <= 5], key=lambda r: r[1])
moving = [r for r in rows if abs(r["ratio"] - 1) > 0.02]
errs = []
if len(found) != len(moving):
    errs.append("bars: %d found for %d rows" % (len(found), len(moving)))
else:
    # far ends (pixel boundaries) against ratio - 1: fit end = X1 + s (ratio - 1)
    pts = []
    for r, f in zip(moving, found):
        if r["verdict"] != f[0]:
            errs.append("%s n=%g: colour %s, verdict %s" % (r["metric"], r["n"], f[0], r["verdict"]))
        right = abs(f[3] - guess) < abs(f[4] - guess)
        if right != (r["ratio"] > 1):
            errs.append("%s n=%g: bar on the wrong side of 1" % (r["metric"], r["n"]))
        pts.append((r["ratio"] - 1, f[4] + 1 if right else f[3]))
    n = len(pts)
    mx = sum(a for a, _ in pts) / n
    my = sum(b for _, b in pts) / n
    sxx = sum((a - mx) ** 2 for a, _ in pts)
    s = sum((a - mx) * (b - my) for a, b in pts) / sxx if sxx > 0 else 0
    X1 = my - s * mx
    if s <= 0 or abs(X1 - guess) > 3:
        errs.append("scale %g px per unit, ratio 1 at x=%.1f (bars meet at %d)" % (s, X1, guess))
    for (a, b), r in zip(pts, moving):
        if abs(X1 + a * s - b) > 2:
            errs.append("%s n=%g: bar end at x=%.1f, expected %.1f" % (r["metric"], r["n"], b, X1 + a * s))
    # whiskers: dark caps at the interval's ends, above and below the bar's middle
    for r, f in zip(moving, found):
        if not r["ci"]:
            continue
        ym = (f[1] + f[2]) // 2
        for v in (r["ci"]["lo"], r["ci"]["hi"]):
            x = X1 + s * (v - 1)
            dark = [xx for xx in range(int(x) - 2, int(x) + 3) if 0 <= xx < W and
                    max(px[xx, ym - 4]) < 90 and max(px[xx, ym + 4]) < 90]
            if not dark:
                errs.append("%s n=%g: no whisker cap at %.3f (x=%.0f)" % (r["metric"], r["n"], v, x))
print("%d bars ok" % len(found) if not errs else "; ".join(errs[:4]))
EOF
}

# ---- DDP against FSDP on the CPU sweep (3 vs 3 runs) ----
check ddp "$TMP/cpu.db" - --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp
eq "ddp: 3 vs 3 per configuration cannot reach 0.05: insufficient" "insufficient" \
  "$(result_of "$TMP/ddp-cmp.json")"
eq "ddp: the comparison chart's bars lie where the ratios put them" \
  "$("$PY" -c 'import json,sys; print(sum(r["gated"] and r["ratio"] is not None and abs(r["ratio"]-1)>0.02 for r in json.load(open(sys.argv[1]))["rows"]))' "$TMP/ddp-cmp.json") bars ok" \
  "$(pixels "$TMP/ddp/charts/comparison.png" "$TMP/ddp-cmp.json")"
[ -s "$TMP/ddp/charts/comparison.svg" ] && pass "ddp: charts/comparison.svg written" \
  || fail "ddp: charts/comparison.svg written"
eq "ddp: report.json names the comparison chart" "charts/comparison.png" \
  "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gate"]["png"])' "$TMP/ddp/report.json")"
# FSDP is slower at every n: every epoch-time ratio above 1, every throughput ratio below
eq "ddp: FSDP epochs are longer (ratio > 1) and throughput lower (< 1) at every n" "True True" \
  "$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["gate"]["rows"]
print(all(x["ratio"]>1 for x in r if x["metric"]=="epoch_time_s"), all(x["ratio"]<1 for x in r if x["metric"]=="throughput"))' "$TMP/ddp/report.json")"
n_plain=$("$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/plain" --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["pages"])')
eq "ddp: the comparison adds one page" "$((n_plain + 1))" \
  "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["pages"])' "$TMP/ddp-build.json")"

# ---- A/A: the sweep ingested twice under two names, run-b against run-a ----
CAND_DEFAULT=run-b check aa "$TMP/b.db" - --baseline run-a --baseline-store "$TMP/a.db"
eq "A/A: every ratio is 1 and no row says regression or worse" "True 0" \
  "$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["gate"]["rows"]
print(all(x["ratio"]==1 for x in r), sum(x["verdict"] in ("regression","worse") for x in r))' "$TMP/aa/report.json")"
eq "A/A: the candidate defaults to the reported sweep" "run-b" \
  "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["gate"]["candidate"]["sweep"])' "$TMP/aa/report.json")"
eq "A/A: every gated row is charted at ratio 1 (bars of no length)" "0" \
  "$("$PY" -c 'import json,sys; print(sum(r["gated"] and abs(r["ratio"]-1)>0.02 for r in json.load(open(sys.argv[1]))["rows"]))' "$TMP/aa-cmp.json")"

# ---- fp32 against bf16 on the H100 sweep, energy per epoch gated: FAIL ----
check gpu "$TMP/gpu.db" "$TMP/energy.yaml" --baseline gpu-batch-sweep:bf16 --candidate gpu-batch-sweep:fp32
eq "gpu: energy per epoch regressed (compare says so)" "regression" "$(result_of "$TMP/gpu-cmp.json")"
eq "gpu: the comparison chart's bars lie where the ratios put them, regression in vermillion" \
  "$("$PY" -c 'import json,sys; print(sum(r["gated"] and r["ratio"] is not None and abs(r["ratio"]-1)>0.02 for r in json.load(open(sys.argv[1]))["rows"]))' "$TMP/gpu-cmp.json") bars ok" \
  "$(pixels "$TMP/gpu/charts/comparison.png" "$TMP/gpu-cmp.json")"
want=$("$PY" -c 'import json,sys
r=[r for r in json.load(open(sys.argv[1]))["rows"] if r["verdict"]=="regression"][0]
print("%s %s→%s n=%g ratio %.3f [%.3f, %.3f]" % (r["metric"], r["strategy"], r["candidate_strategy"], r["n"], r["ratio"], r["ci"]["lo"], r["ci"]["hi"]))' "$TMP/gpu-cmp.json")
contains "gpu: the findings sentence names the regressed row with its ratio" "$want" \
  "$(pdftotext -f 1 -l 1 "$TMP/gpu/report.pdf" - | tr -s ' \n' ' ')"

# ---- a rebuild without --baseline drops the comparison ----
"$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/ddp" >/dev/null
[ ! -e "$TMP/ddp/charts/comparison.png" ] && pass "rebuild without --baseline removes charts/comparison.png" \
  || fail "rebuild without --baseline removes charts/comparison.png"
eq "rebuild without --baseline: no gate in report.json" "False" \
  "$("$PY" -c 'import json,sys; print("gate" in json.load(open(sys.argv[1])))' "$TMP/ddp/report.json")"

# ---- errors ----
status "an unknown baseline sweep: exit 2" 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" --baseline nope
contains "the error names the sweep" "nope" "$ERR"
status "--candidate without --baseline: usage error" 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" \
  --candidate cpu-strong-scaling:fsdp
status "SWEEP: with an empty strategy: usage error" 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" \
  --baseline cpu-strong-scaling:
status "a missing baseline store: exit 2" 2 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/e" \
  --baseline run-a --baseline-store "$TMP/none.db"
