# tests/lib/ingest.sh — sourced by the ingest tests (ingest_errors.sh,
# limits.sh) after test-lib.sh: copies of one real run to break.

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
