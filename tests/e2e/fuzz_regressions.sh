# fuzz_regressions.sh — every input in testdata/fuzz-regressions/ (each
# once crashed a fuzz target) fed to the real amdahl binary the way the
# target fed it: it must end with exit 0 or 2 — an error line, never a
# crash or a sanitizer report (this runs under ASan/UBSan in test-san).
. "$(dirname "$0")/lib.sh"

reg=$DATA/fuzz-regressions
n=0
# feed TARGET FILE: prints amdahl's exit code; stderr in $TMP/err
feed() {
  local target=$1 f=$2 run
  case $target in
    mlflow_run)  # meta.yaml ~~~ metrics/loss ~~~ params/strategy, as fuzz_mlflow_run does
      rm -rf "$TMP/mlruns"; run=$TMP/mlruns/0/run
      mkdir -p "$run/metrics" "$run/params"
      printf 'name: fuzz\nexperiment_id: 0\n' >"$TMP/mlruns/0/meta.yaml"
      python3 - "$f" "$run" <<'PY'
import sys
data = open(sys.argv[1], "rb").read().split(b"\n~~~\n")
data += [b""] * 3
for part, name in zip(data[:3], ["meta.yaml", "metrics/loss", "params/strategy"]):
    open(sys.argv[2] + "/" + name, "wb").write(part)
PY
      "$AMDAHL" --store "$TMP/s.db" ingest "$run" >/dev/null 2>"$TMP/err" ;;
    config)
      cp "$f" "$TMP/amdahl.yaml"
      mkdir -p "$TMP/empty"
      "$AMDAHL" --store "$TMP/s.db" --config "$TMP/amdahl.yaml" ingest "$TMP/empty" >/dev/null 2>"$TMP/err" ;;
    format-*)
      "$AMDAHL" --store "$TMP/s.db" ingest --format "${target#format-}" "$f" >/dev/null 2>"$TMP/err" ;;
    *) echo 99; return ;;
  esac
  echo $?
}

for dir in "$reg"/*/; do
  target=$(basename "$dir")
  for f in "$dir"*; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    rc=$(feed "$target" "$f")
    case $rc in
      0|2) if grep -q -E 'Sanitizer|runtime error' "$TMP/err"; then
             fail "$target/$(basename "$f"): no sanitizer report" "$(head -3 "$TMP/err")"
           else pass "$target/$(basename "$f"): exit $rc, no crash"; fi ;;
      99) fail "$target/$(basename "$f"): a fuzz-regressions folder this test knows how to feed" ;;
      *) fail "$target/$(basename "$f"): exit 0 or 2" "exit $rc: $(head -3 "$TMP/err")" ;;
    esac
  done
done
if [ "$n" -gt 0 ]; then pass "$n regression inputs fed"; else fail "regression inputs present"; fi
