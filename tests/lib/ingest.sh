# tests/lib/ingest.sh — sourced by the ingest tests (ingest_errors.sh,
# limits.sh, name_cap.sh) after test-lib.sh: copies of one real run to
# break, and running amdahl in bounded memory.

# The run they copy: the first of the CPU sweep.
FRESH_SRC=$(ls -d "$DATA"/cpu-strong-scaling/mlruns/4/*/ | head -1)
FRESH_SRC=${FRESH_SRC%/}
FRESH_RID=$(basename "$FRESH_SRC")

# fresh_run NAME: a copy of that run at $TMP/NAME/mlruns/4/<run id>
# without its artifacts (its traces are units of their own); prints its path
fresh_run() {
	mkdir -p "$TMP/$1/mlruns/4" &&
	cp "$DATA/cpu-strong-scaling/mlruns/4/meta.yaml" "$TMP/$1/mlruns/4/" &&
	cp -r "$FRESH_SRC" "$TMP/$1/mlruns/4/" &&
	rm -rf "$TMP/$1/mlruns/4/$FRESH_RID/artifacts" &&
	echo "$TMP/$1/mlruns/4/$FRESH_RID"
}

# error_lines: the number of non-empty lines in $ERR
error_lines() { printf '%s\n' "$ERR" | grep -c .; }

# bounded NEEDLE ARGS...: amdahl ARGS, run by tests/lib/bounded_run.py with
# a 120 s timeout and 1 GiB of address space (plain builds), exits 2 with
# one error line containing NEEDLE, its peak RSS under MAX_RSS_MB (set by
# the script, with asan=1 on ASan builds)
bounded() {
	local needle=$1 rc rss secs
	shift
	read -r rc rss secs <<<"$("$PY" "$AMDAHL_ROOT/tests/lib/bounded_run.py" "$asan" "$TMP/bounded.err" "$AMDAHL" "$@")"
	ERR=$(cat "$TMP/bounded.err")
	echo "peak RSS ${rss} MB, ${secs} s"
	test_eq 2 "$rc" &&
	test_eq 1 "$(error_lines)" &&
	test_contains "$needle" "$ERR" &&
	test_true "peak RSS ${rss} MB < $MAX_RSS_MB MB" [ "${rss:-99999}" -lt "$MAX_RSS_MB" ]
}
