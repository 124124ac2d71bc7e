# fuzz_regressions.sh — every input in testdata/fuzz-regressions/ (each
# once crashed a fuzz target) fed to the real amdahl binary the way the
# target fed it: it must end with exit 0 or 2 — an error line, never a
# crash or a sanitizer report (this runs under ASan/UBSan in test-san).
test_description='fuzz regression inputs end with exit 0 or 2, no crash, no sanitizer report'
. "$(dirname "$0")/../test-lib.sh"

reg=$DATA/fuzz-regressions
# feed TARGET FILE: prints amdahl's exit code (99: a folder this test
# does not know how to feed); amdahl's stderr in $TMP/feed.err
feed() {
	local target=$1 f=$2 run
	case $target in
	mlflow_run) # meta.yaml ~~~ metrics/loss ~~~ params/strategy, as fuzz_mlflow_run does
		rm -rf "$TMP/mlruns"
		run=$TMP/mlruns/0/run
		mkdir -p "$run/metrics" "$run/params"
		printf 'name: fuzz\nexperiment_id: 0\n' >"$TMP/mlruns/0/meta.yaml"
		"$PY" - "$f" "$run" <<'PY'
import sys
data = open(sys.argv[1], "rb").read().split(b"\n~~~\n")
data += [b""] * 3
for part, name in zip(data[:3], ["meta.yaml", "metrics/loss", "params/strategy"]):
    open(sys.argv[2] + "/" + name, "wb").write(part)
PY
		"$AMDAHL" --store "$TMP/s.db" ingest "$run" >/dev/null 2>"$TMP/feed.err" ;;
	config)
		cp "$f" "$TMP/amdahl.yaml"
		mkdir -p "$TMP/empty"
		"$AMDAHL" --store "$TMP/s.db" --config "$TMP/amdahl.yaml" ingest "$TMP/empty" >/dev/null 2>"$TMP/feed.err" ;;
	format-*)
		"$AMDAHL" --store "$TMP/s.db" ingest --format "${target#format-}" "$f" >/dev/null 2>"$TMP/feed.err" ;;
	*) : >"$TMP/feed.err"; echo 99; return ;;
	esac
	echo $?
}

n=0
for dir in "$reg"/*/; do
	target=$(basename "$dir")
	for f in "$dir"*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		prereq=""
		[ "$target" = mlflow_run ] && prereq=PYTHON # splits the input with python
		test_expect_success "$prereq" "$target/$(basename "$f"): fed as its fuzz target fed it, exits 0 or 2 with no sanitizer report" '
			rc=$(feed "$target" "$f")
			test_true "a fuzz-regressions folder this test knows how to feed (exit $rc)" [ "$rc" != 99 ] &&
			test_true "exit 0 or 2, not $rc: $(head -3 "$TMP/feed.err")" [ "$rc" = 0 -o "$rc" = 2 ] &&
			test_not_contains Sanitizer "$(cat "$TMP/feed.err")" &&
			test_not_contains "runtime error" "$(cat "$TMP/feed.err")"
		'
	done
done

test_expect_success 'regression inputs present' '
	test_true "$n regression inputs fed" [ "$n" -gt 0 ]
'

test_done
