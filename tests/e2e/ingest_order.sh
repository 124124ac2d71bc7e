#!/bin/bash
# ingest_order.sh — outputs that do not depend on the order units were
# written in. `ingest -j N` writes units in whatever order its workers
# finish, so row ids (run, source, trace, dict, region) differ from -j 1's;
# an analysis that sums, fits, resamples or ranks ties in id order gave
# other last digits, bootstrap intervals, tie orders or file lists. Here
# the same files go into a store with -j 1 (one walk: ids in path order),
# into one with every unit named in reverse path order (ids reversed,
# deterministically: not left to the workers' timing) and into one with
# -j 4; every sweep's stats --json, scaling --json, regions, report.json
# and summary.md, and compare/diff/history/regions/scaling on selectors,
# are the same byte for byte. The sweeps: cpu-strong-scaling with a
# generated sweep of 3 runs × 8 rank traces (bench/gen_sweep.py: region
# fits over traces), itwinai-layout (child workers' op averages) and
# tensorboard (a run's hparams file and its events file).
test_description='ingest in any order, -j 1, reversed or -j 4: the same outputs byte for byte'
. "$(dirname "$0")/../test-lib.sh"

sw=$TMP/sw
inputs() {
	echo "$DATA/cpu-strong-scaling" "$DATA/itwinai-layout" "$DATA/tensorboard" "$sw/mlruns"
}
# units: every unit of the inputs by path — MLflow run directories,
# the files under their artifacts, TensorBoard event files
units() {
	for p in $(inputs); do
		find "$p" -regextype egrep -type d -regex '.*/(mlruns|mlflow)/[^/]+/[0-9a-f]{32}'
		find "$p" -regextype egrep -type f -regex '.*/[0-9a-f]{32}/artifacts/.*'
		find "$p" -type f -name 'events.out.tfevents.*'
	done
}

# outputs STORE DIR: what every sweep gives, and the commands on selectors
outputs() {
	local s=$1 o=$2 w
	mkdir -p "$o" &&
	q "$s" "SELECT name FROM sweep ORDER BY name" >"$o/sweeps" &&
	while read -r w; do
		"$AMDAHL" --store "$s" stats --sweep "$w" --json >"$o/stats.$w" 2>&1
		"$AMDAHL" --store "$s" scaling --sweep "$w" --json >"$o/scaling.$w" 2>&1
		"$AMDAHL" --store "$s" regions "$w" >"$o/regions.$w" 2>&1
		"$AMDAHL" --store "$s" report build --sweep "$w" -o "$o/rep.$w" >/dev/null 2>&1 &&
		sed 's/"generated":[[:space:]]*"[^"]*"//' "$o/rep.$w/report.json" >"$o/report.$w.json" &&
		sed 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9] UTC//' "$o/rep.$w/summary.md" \
			>"$o/summary.$w.md" && rm -r "$o/rep.$w" || echo "report build $w failed" >>"$o/fail"
	done <"$o/sweeps" &&
	c=cpu-strong-scaling &&
	"$AMDAHL" --store "$s" scaling --sweep "sweep=$c,strategy=ddp" --json >"$o/scaling-sel" 2>&1
	"$AMDAHL" --store "$s" regions "sweep=$c,strategy=ddp" >"$o/regions-sel" 2>&1
	"$AMDAHL" --store "$s" diff $c:ddp:8 $c:fsdp:8 --json >"$o/diff" 2>&1
	"$AMDAHL" --store "$s" compare --baseline $c:ddp --candidate $c:fsdp --json >"$o/compare" 2>&1
	"$AMDAHL" --store "$s" history --by param.repeat --sweep "sweep=$c,strategy=ddp,n=8" --json \
		>"$o/history" 2>&1
	sed -i "s#$(store_name "$s")#STORE#g" "$o"/*
}

# same A B: every output of directory A is B's, byte for byte (the ones
# that differ named, the first lines of each difference shown)
same() {
	local f bad=""
	test_eq "" "$(cat "$1/fail" "$2/fail" 2>/dev/null)" &&
	test_eq "$(ls "$1")" "$(ls "$2")" || return 1
	for f in "$1"/*; do
		cmp -s "$f" "$2/${f##*/}" || bad="$bad ${f##*/}"
	done
	test_eq "" "$bad" && return 0
	for f in $bad; do
		diff "$1/$f" "$2/$f" | head -4 >&2
	done
	return 1
}

test_expect_success PYTHON 'setup: a sweep of 3 runs × 8 rank traces' '
	(cd "$AMDAHL_ROOT" && /usr/bin/python3 bench/gen_sweep.py "$sw" 3 8 >/dev/null) &&
	test_eq 24 "$(find "$sw" -name "*.pt.trace.json.gz" | wc -l)"
'

test_expect_success PYTHON,SQLITE3 'setup: the same files at -j 1, one unit at a time in reverse order, and -j 4' '
	"$AMDAHL" --store "$TMP/fwd.db" ingest -q -j 1 $(inputs) &&
	units | sort -r >"$TMP/units" &&
	test "$(wc -l <"$TMP/units")" -gt 100 &&
	"$AMDAHL" --store "$TMP/rev.db" ingest -q -j 1 $(cat "$TMP/units") 2>/dev/null &&
	"$AMDAHL" --store "$TMP/j4.db" ingest -q -j 4 $(inputs) &&
	test_eq "$(q "$TMP/fwd.db" "SELECT count(*) FROM source")" "$(q "$TMP/rev.db" "SELECT count(*) FROM source")" &&
	test_eq "$(q "$TMP/fwd.db" "SELECT count(*) FROM region")" "$(q "$TMP/rev.db" "SELECT count(*) FROM region")" &&
	outputs "$TMP/fwd.db" "$TMP/o-fwd" && outputs "$TMP/rev.db" "$TMP/o-rev" &&
	outputs "$TMP/j4.db" "$TMP/o-j4" &&
	test_eq "cpu-strong-scaling mnist-scaling tb-sweep" "$(cat "$TMP/o-fwd/sweeps" | tr "\n" " " | sed "s/ $//")"
'

# (on ClickHouse a store read numbers sources by path and runs as they
# come: both stores read alike, the comparison below holds trivially)
test_expect_success PYTHON,SQLITE3,SQLITE_STORE 'the reversed store numbers its runs and files otherwise' '
	ids="SELECT group_concat(ext_id) FROM (SELECT ext_id FROM run ORDER BY id)" &&
	test "$(q "$TMP/fwd.db" "$ids")" != "$(q "$TMP/rev.db" "$ids")" &&
	paths="SELECT group_concat(path) FROM (SELECT path FROM source ORDER BY id)" &&
	test "$(q "$TMP/fwd.db" "$paths")" != "$(q "$TMP/rev.db" "$paths")"
'

test_expect_success PYTHON,SQLITE3 'stats --json, scaling --json, regions, report.json and summary.md: the same in reverse order' '
	same "$TMP/o-fwd" "$TMP/o-rev"
'

test_expect_success PYTHON,SQLITE3 'and the same at -j 4' '
	same "$TMP/o-fwd" "$TMP/o-j4"
'

test_expect_success PYTHON,SQLITE3 'the fits are there to compare: region models of cpu-strong-scaling, op fractions of mnist-scaling, both files of a TensorBoard run' '
	test_contains "\"regions\"" "$(cat "$TMP/o-fwd/scaling.cpu-strong-scaling")" &&
	test_contains "\"comp_fraction\"" "$(cat "$TMP/o-fwd/stats.mnist-scaling")" &&
	test_eq 2 "$(grep -c "tb-sweep/dp-n1-r0/.*events.out.tfevents" "$TMP/o-fwd/report.tb-sweep.json")"
'

test_done
