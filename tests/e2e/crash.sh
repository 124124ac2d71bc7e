# crash.sh — a large ingest killed with SIGKILL at 15 points inside it
# (half of them with -j 2): after each kill the store opens, passes PRAGMA
# integrity_check, and every source is all there or absent: its metric
# points and params equal the lines and files of its run directory, and
# no fact belongs to a source that is not there. Then the same ingest
# run to the end completes the store.
# SQLite only (SQLITE_STORE): every check reads the store file itself
# (PRAGMA integrity_check, whether the file exists yet, sqlite3 on the
# file between kills). On ClickHouse the same property (a killed ingest
# leaves no source partly visible; running it again completes the store)
# is clickhouse.sh's "ingests killed at random points leave nothing
# visible; a rerun completes" and "8 processes at once, 20 killed…".
test_description='an ingest killed with SIGKILL leaves a whole store; finishing it completes the store'
test_run_alone=1 # kills and pauses at measured moments, bounds on wall time: nothing beside it (tests/lib/runner.sh)
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'every check reads the SQLite store file (integrity_check, sqlite3 between kills); clickhouse.sh kills ingests on ClickHouse'

COPIES=${CRASH_COPIES:-10}
big=$(realpath "$TMP")/big
exp=$TMP/expected.db
total="" full_ms="" mid=0 kills=0 last_mid=""
kill_stores=() kill_labels=()

# make_copies: COPIES copies of the CPU sweep, each its own experiment with
# its own run ids, and $exp: what each run directory holds (path, metric
# lines, param files)
make_copies() {
	local k m d
	mkdir -p "$big" || return 1
	for k in $(seq 1 "$COPIES"); do
		cp -r "$DATA/cpu-strong-scaling/mlruns/4" "$big/$k" &&
		sed -i "s/^name: .*/name: cpu-copy-$k/; s/^experiment_id: .*/experiment_id: '$k'/" "$big/$k/meta.yaml" || return 1
		for m in "$big/$k"/*/meta.yaml; do
			sed -i -E "s/^(run_id|run_uuid): (.*)/\1: \2-$k/; s/^experiment_id: .*/experiment_id: '$k'/" "$m" || return 1
		done
	done
	for d in "$big"/*/*/; do
		d=${d%/}
		printf '%s\t%s\t%s\n' "$d" \
			"$(find "$d/metrics" -type f -exec cat {} + 2>/dev/null | awk 'NF' | wc -l)" \
			"$(find "$d/params" -type f 2>/dev/null | wc -l)"
	done >"$TMP/expected.tsv"
	total=$(wc -l <"$TMP/expected.tsv")
	sqlite3 "$exp" "CREATE TABLE exp(path TEXT PRIMARY KEY, points INTEGER, params INTEGER);" &&
	printf '.mode tabs\n.import %s exp\n' "$TMP/expected.tsv" | sqlite3 "$exp"
}

# whole_store STORE: the invariants — integrity_check; the store opens;
# every source complete, no orphan facts. A store the kill came before
# (none, or an empty file) has nothing to check beyond its integrity.
whole_store() {
	local s=$1 bad
	if [ ! -e "$s" ]; then # killed before the store was created
		echo "$s: no store yet (killed while walking)"
		return 0
	fi
	test_eq ok "$(sqlite3 "$s" 'PRAGMA integrity_check')"
	if [ "$(sqlite3 "$s" 'SELECT count(*) FROM sqlite_master')" = 0 ]; then
		echo "$s: an empty store (killed while creating it; the next ingest creates the schema)"
		return 0
	fi
	test_status 0 "$AMDAHL" --store "$s" runs
	bad=$(sqlite3 -cmd ".load $AMDAHL_SQLEXT" "$s" "ATTACH '$exp' AS x;
    SELECT 'unknown source ' || path FROM source WHERE kind='mlflow-run' AND path NOT IN (SELECT path FROM x.exp);
    SELECT 'trace source without its trace ' || path FROM source s WHERE kind='torch-trace'
      AND (SELECT count(*) FROM trace t WHERE t.source_id=s.id) <> 1;
    SELECT 'orphan traces: ' || count(*) FROM trace WHERE source_id NOT IN (SELECT id FROM source) HAVING count(*) > 0;
    SELECT 'points ' || s.path || ' ' || (SELECT count(*) FROM metric_point m WHERE m.source_id=s.id) || ' != ' || e.points
      FROM source s JOIN x.exp e ON e.path=s.path
      WHERE (SELECT count(*) FROM metric_point m WHERE m.source_id=s.id) <> e.points;
    SELECT 'params ' || s.path FROM source s JOIN x.exp e ON e.path=s.path
      WHERE (SELECT count(*) FROM param p WHERE p.source_id=s.id) <> e.params;
    SELECT 'run missing for ' || path FROM source WHERE kind='mlflow-run' AND id NOT IN (SELECT source_id FROM run WHERE source_id IS NOT NULL);
    SELECT 'orphan points: ' || count(*) FROM metric_point WHERE source_id NOT IN (SELECT id FROM source) HAVING count(*) > 0;
    SELECT 'orphan params: ' || count(*) FROM param WHERE source_id NOT IN (SELECT id FROM source) HAVING count(*) > 0;
    SELECT 'orphan tags: ' || count(*) FROM tag WHERE source_id NOT IN (SELECT id FROM source) HAVING count(*) > 0;" 2>&1 | head -5)
	test_eq "" "$bad"
}

# kill_ingests: kill at spread-out points until 15 kills have landed inside
# the ingest (a kill before the first or after the last commit does not
# count; the delays adapt when the machine is faster or slower than the
# timing run); the stores go to kill_stores, the last one killed
# mid-ingest to last_mid
kill_ingests() {
	local i=0 scale=$full_ms s jobs delay pid n
	while [ "$mid" -lt 15 ] && [ "$i" -lt 40 ]; do
		i=$((i + 1))
		s=$TMP/kill$i.db
		jobs=1; [ $((i % 2)) = 0 ] && jobs=2
		delay=$(awk -v f="$scale" -v i="$i" 'BEGIN{printf "%.3f", f * (0.25 + 0.7 * ((i * 7) % 16) / 16) / 1000}')
		"$AMDAHL" --store "$s" ingest -q -j "$jobs" "$big" >/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		n=0
		[ -e "$s" ] && n=$(sqlite3 "$s" "SELECT count(*) FROM source WHERE kind='mlflow-run'" 2>/dev/null || echo 0)
		echo "kill $i after ${delay}s (-j $jobs): $n of $total sources in"
		if [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]; then mid=$((mid + 1)); last_mid=$s
		elif [ "$n" = "$total" ]; then scale=$((scale * 4 / 5))
		else scale=$((scale * 6 / 5)); fi
		kill_stores+=("$s")
		kill_labels+=("kill $i (-j $jobs, ${delay}s)")
	done
	kills=$i
}

test_expect_success SQLITE3,SQLITE_STORE 'setup: copies of the CPU sweep and what each run directory holds' '
	make_copies
'
test_expect_success SQLITE3,SQLITE_STORE 'expected table: one row per run directory' '
	test_eq "$((COPIES * 29))" "$(q "$exp" "SELECT count(*) FROM exp")"
'
# how long a whole ingest takes here, to spread the kills over it
test_expect_success SQLITE_STORE 'setup: the full ingest runs (timed)' '
	t0=$(date +%s%N) &&
	"$AMDAHL" --store "$TMP/full.db" ingest -q "$big" &&
	full_ms=$((($(date +%s%N) - t0) / 1000000)) &&
	echo "full ingest of $total run directories: $full_ms ms"
'
test_expect_success SQLITE3,SQLITE_STORE 'uninterrupted: integrity_check, the store opens, every source complete, no orphan facts' '
	whole_store "$TMP/full.db"
'
test_expect_success SQLITE3,SQLITE_STORE 'uninterrupted: every run directory a source' '
	test_eq "$total" "$(q "$TMP/full.db" "SELECT count(*) FROM source WHERE kind='\''mlflow-run'\''")"
'
test_expect_success SQLITE3,SQLITE_STORE 'setup: ingests killed at spread-out points' '
	kill_ingests
'
test_expect_success SQLITE3,SQLITE_STORE 'after each kill: integrity_check, the store opens, every source complete, no orphan facts' '
	for k in "${!kill_stores[@]}"; do
		echo "${kill_labels[$k]}:"
		whole_store "${kill_stores[$k]}"
	done
'
test_expect_success SQLITE_STORE '15 kills landed mid-ingest' '
	echo "of $kills kills"
	test_eq 15 "$mid"
'

# finishing after a kill gives the same content as an uninterrupted ingest
test_expect_success SQLITE_STORE 'setup: the ingest after a kill completes (exit 0)' '
	test_status 0 "$AMDAHL" --store "$last_mid" ingest -q -j 2 "$big"
'
test_expect_success SQLITE3,SQLITE_STORE 'completed after a kill: integrity_check, the store opens, every source complete, no orphan facts' '
	whole_store "$last_mid"
'
test_expect_success SQLITE3,SQLITE_STORE 'completed: same runs, points and params as uninterrupted' '
	test_eq "$(q "$TMP/full.db" "SELECT count(*), (SELECT count(*) FROM metric_point), (SELECT count(*) FROM param) FROM run")" \
		"$(q "$last_mid" "SELECT count(*), (SELECT count(*) FROM metric_point), (SELECT count(*) FROM param) FROM run")"
'

test_done
