# clickhouse_cluster.sh — the ClickHouse backend on a real cluster: ZooKeeper
# and four clickhouse-server processes as 2 shards × 2 replicas
# (tests/lib/ch_cluster.sh, on 127.0.0.1 with private directories and
# ports). A store URL naming the cluster (?cluster=amdahl2x2) makes
# ReplicatedMergeTree tables on every node and Distributed tables over
# them, one ingest attempt's rows on one shard; every command's --json
# is byte-identical to a SQLite store's of the same sweeps, read through
# either replica. Faults: a replica down during an ingest (the ingest
# completes, nothing committed is lost, the replica catches up), a
# replica killed (SIGKILL) in the middle of one (it completes or fails
# cleanly, reads go on, a rerun makes every unit whole), a whole
# shard down (reads fail in one line, never a partial answer; after a
# restart everything is there), the client killed at random points of
# an ingest 20 times (no half unit visible), the node the client talks
# to paused (SIGSTOP: the client stops within its limit, in one line),
# and a read-only user; clickhouse+https to a node with a self-signed
# certificate (AMDAHL_CLICKHOUSE_CACERT). Skipped (with the reason) where no cluster can be
# run. A bounded tier: a few minutes.
test_description='the ClickHouse backend on a 2 × 2 cluster: identical output, faults'
test_native_backend=1 # compares the two backends itself, in either mode
. "$(dirname "$0")/../test-lib.sh"

CL_SCRIPT="$AMDAHL_ROOT/tests/lib/ch_cluster.sh"
test_lazy_prereq CLUSTER '"$CL_SCRIPT" have'
CLDIR="$TMP/cluster"
trap '"$CL_SCRIPT" stop "$CLDIR" >/dev/null 2>&1; rm -rf "$TMP"' EXIT
export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
port() { cat "$CLDIR/$1/port"; }
# url DB [NODE] — the store URL of database DB on the cluster, through NODE
url() { echo "clickhouse://amdahl@127.0.0.1:$(port "${2:-s1r1}")/$1?cluster=amdahl2x2"; }
# on NODE SQL — SQL on one node as the default user (not logged as amdahl's)
on() { curl -sS --data-binary "$2" "http://127.0.0.1:$(port "$1")/"; }

# same_json DB NODE CMD… — CMD's --json on the cluster through NODE and on
# $TMP/DB.db, byte for byte, the same exit status (store names aside).
same_json() {
	db=$1 node=$2; shift 2
	"$AMDAHL" --store "$(url "$db" "$node")" "$@" --json | sed "s|$(url "$db" "$node")|STORE|g" >"$TMP/ch.out"
	s1=${PIPESTATUS[0]}
	"$AMDAHL" --store "$TMP/$db.db" "$@" --json | sed "s|$TMP/$db.db|STORE|g" >"$TMP/sq.out"
	s2=${PIPESTATUS[0]}
	test_eq "$s2" "$s1" && test_true "SQLite answered" [ -s "$TMP/sq.out" ] &&
	{ cmp -s "$TMP/sq.out" "$TMP/ch.out" || diff "$TMP/sq.out" "$TMP/ch.out" | head -10 >&2; } &&
	test_true "$* --json is byte-identical (through $node)" cmp -s "$TMP/sq.out" "$TMP/ch.out"
}

# sync DB — every replica has fetched what its shard holds. A replica
# started again after a SIGKILL is not at once a member: its old
# ZooKeeper session's is_active node lives until the session times out
# ("appears to be already active"), and until then it pulls nothing into
# its queue, so SYSTEM SYNC REPLICA alone returns at once with the
# replica behind. So first wait (up to 180 s) until on every node each of
# DB's replicated tables has both replicas active, has pulled its
# shard's whole log (log_pointer past log_max_index; both 0: a table
# whose log has no entry) and has an empty queue; then SYNC REPLICA, whose answer must be empty (not an exception).
sync() {
	for n in s1r1 s1r2 s2r1 s2r2; do
		i=0
		while :; do
			behind=$(on "$n" "SELECT count() FROM system.replicas WHERE database = '$1' AND (is_readonly OR is_session_expired OR active_replicas < total_replicas OR (log_pointer <= log_max_index AND log_pointer + log_max_index > 0) OR queue_size > 0)" 2>&1)
			[ "$behind" = 0 ] && break
			i=$((i + 1))
			if [ $i -ge 360 ]; then
				echo "# sync $1: $n still behind after 180 s: $behind" >&2
				on "$n" "SELECT table, is_readonly, active_replicas, total_replicas, log_pointer, log_max_index, queue_size FROM system.replicas WHERE database = '$1' FORMAT TSV" >&2
				return 1
			fi
			sleep 0.5
		done
		for t in source metric_point run; do
			r=$(on "$n" "SYSTEM SYNC REPLICA $1.${t}_local" 2>&1)
			[ -z "$r" ] || { echo "# sync $1: $n $t: $r" >&2; return 1; }
		done
	done
}

if test_have_prereq CLUSTER; then
	# node s1r1 also speaks TLS, with a self-signed certificate
	mkdir -p "$CLDIR" &&
	{ ! test_have_prereq OPENSSL || "$AMDAHL_ROOT/tests/lib/ch_tls.sh" "$CLDIR/s1r1" ||
		rm -f "$CLDIR/s1r1/config.d/https.xml"; } &&
	"$CL_SCRIPT" start "$CLDIR" >/dev/null || echo "# the cluster did not start" >&2
else
	echo "# skipping: no cluster here (Debian packages clickhouse-server, zookeeper)" >&2
fi

SWEEPS="dataloader-workers gpu-batch-sweep pyspy"

test_expect_success CLUSTER 'setup: ingest bundled sweeps into the cluster and into SQLite' '
	for d in $SWEEPS; do
		"$AMDAHL" --store "$(url all)" ingest -q "$DATA/$d" &&
		"$AMDAHL" --store "$TMP/all.db" ingest -q "$DATA/$d" || return 1
	done
'

test_expect_success CLUSTER 'replicated local tables, Distributed tables; each attempt on one shard, on both its replicas' '
	test_eq "ReplicatedMergeTree" "$(on s2r2 "SELECT engine FROM system.tables WHERE database = '"'"'all'"'"' AND name = '"'"'metric_point_local'"'"'")" &&
	test_eq "Distributed" "$(on s2r2 "SELECT engine FROM system.tables WHERE database = '"'"'all'"'"' AND name = '"'"'metric_point'"'"'")" &&
	sync all &&
	for n in s1r1 s1r2 s2r1 s2r2; do
		on $n "SELECT DISTINCT src FROM all.metric_point_local UNION ALL SELECT DISTINCT src FROM all.run_local UNION ALL SELECT id FROM all.source_local" | sort -u >"$TMP/src.$n" || return 1
	done &&
	test_true "shard 1 holds attempts" [ -s "$TMP/src.s1r1" ] &&
	test_true "shard 2 holds attempts" [ -s "$TMP/src.s2r1" ] &&
	test_true "the replicas of shard 1 hold the same attempts" cmp -s "$TMP/src.s1r1" "$TMP/src.s1r2" &&
	test_true "the replicas of shard 2 hold the same attempts" cmp -s "$TMP/src.s2r1" "$TMP/src.s2r2" &&
	test_eq "" "$(comm -12 "$TMP/src.s1r1" "$TMP/src.s2r1")" &&
	n_sq=$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) AS n FROM metric_point" | tail -1) &&
	n_ch=$(on s2r1 "SELECT count() FROM all.metric_point WHERE src IN (SELECT * FROM all.committed)" 2>&1) &&
	test_true "SQLite counted points" [ "$n_sq" -gt 1000 ] &&
	test_eq "$n_sq" "$n_ch"
'

test_expect_success CLUSTER 'every command reads the same through either replica of either shard' '
	same_json all s1r1 runs &&
	same_json all s1r1 stats &&
	same_json all s2r2 stats --sweep dataloader-workers &&
	same_json all s1r2 gate --baseline gpu-batch-sweep --candidate gpu-batch-sweep &&
	same_json all s2r1 compare --baseline gpu-batch-sweep --candidate gpu-batch-sweep &&
	same_json all s1r1 scaling --sweep gpu-batch-sweep &&
	same_json all s2r2 regions gpu-batch-sweep &&
	same_json all s1r1 pyspy top "$DATA/pyspy/calendarbot.dump.json" -n 0
'

test_expect_success CLUSTER 'report build on the cluster writes the same report.json' '
	"$AMDAHL" --store "$(url all)" report build --sweep gpu-batch-sweep -o "$TMP/rch" &&
	"$AMDAHL" --store "$TMP/all.db" report build --sweep gpu-batch-sweep -o "$TMP/rsq" &&
	sed -E "s/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC/DATE/g" "$TMP/rch/report.json" >"$TMP/rch.json" &&
	sed -E "s/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC/DATE/g" "$TMP/rsq/report.json" >"$TMP/rsq.json" &&
	test_true "report.json is the same" cmp -s "$TMP/rsq.json" "$TMP/rch.json"
'

test_expect_success CLUSTER 're-ingesting the same bytes adds nothing; a read-only user reads the same and may not ingest' '
	"$AMDAHL" --store "$(url all)" ingest "$DATA/dataloader-workers" >"$TMP/re.out" 2>&1 &&
	test_contains "0 added, 0 replaced" "$(cat "$TMP/re.out")" &&
	ro="clickhouse://reader@127.0.0.1:$(port s2r1)/all?cluster=amdahl2x2" &&
	"$AMDAHL" --store "$(url all)" stats --json >"$TMP/rw.json" &&
	"$AMDAHL" --store "$ro" stats --json >"$TMP/ro.json" &&
	test_true "stats --json as reader is byte-identical" cmp -s "$TMP/rw.json" "$TMP/ro.json" &&
	test_status 2 "$AMDAHL" --store "$ro" ingest -q "$DATA/itwinai-layout" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_contains "$ro" "$ERR"
'

# clickhouse+https on the cluster: node s1r1 has a self-signed certificate
# (tests/lib/ch_tls.sh); the client verifies it with the CA file named by
# AMDAHL_CLICKHOUSE_CACERT, the nodes talk to each other as before
# (their TCP port). An ingest over TLS creates the cluster's tables and
# reads the same as SQLite, over TLS and through another shard's replica.
# Before the fault cases: a node paused past ZooKeeper's session has its
# session expire, and its next distributed DDL may fail once with
# "Session expired" (the SIGSTOP case retries for that; this one is about access).
test_expect_success CLUSTER,OPENSSL 'clickhouse+https on the cluster with a self-signed certificate' '
	tls="clickhouse+https://amdahl@127.0.0.1:$(cat "$CLDIR/s1r1/https_port")/tls?cluster=amdahl2x2" &&
	AMDAHL_CLICKHOUSE_CACERT="$CLDIR/s1r1/tls.crt" "$AMDAHL" --store "$tls" ingest -q "$DATA/dataloader-workers" &&
	"$AMDAHL" --store "$TMP/tls.db" ingest -q "$DATA/dataloader-workers" &&
	AMDAHL_CLICKHOUSE_CACERT="$CLDIR/s1r1/tls.crt" "$AMDAHL" --store "$tls" stats --json >"$TMP/tls.json" &&
	"$AMDAHL" --store "$TMP/tls.db" stats --json >"$TMP/tls-sq.json" &&
	test_true "stats over TLS are SQLite'"'"'s" cmp -s "$TMP/tls-sq.json" "$TMP/tls.json" &&
	test_eq 2 "$(on s2r2 "SELECT count() FROM system.tables WHERE database = '"'"'tls'"'"' AND name IN ('"'"'run'"'"', '"'"'run_local'"'"')")" &&
	same_json tls s2r2 runs &&
	test_status 2 env -u AMDAHL_CLICKHOUSE_CACERT "$AMDAHL" --store "$tls" stats &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_contains "AMDAHL_CLICKHOUSE_CACERT" "$ERR"
'

test_expect_success CLUSTER 'a replica down during an ingest: it completes, reads go on, the replica catches up' '
	"$CL_SCRIPT" node-stop "$CLDIR" s1r2 &&
	"$CL_SCRIPT" node-stop "$CLDIR" s2r1 &&
	"$AMDAHL" --store "$(url all)" ingest -q "$DATA/itwinai-layout"
	"$AMDAHL" --store "$TMP/all.db" ingest -q "$DATA/itwinai-layout"
	same_json all s1r1 runs
	same_json all s2r2 stats
	"$CL_SCRIPT" node-start "$CLDIR" s1r2 &&
	"$CL_SCRIPT" node-start "$CLDIR" s2r1 &&
	sync all &&
	test_eq "$(on s1r1 "SELECT count() FROM all.metric_point_local")" "$(on s1r2 "SELECT count() FROM all.metric_point_local")" &&
	test_eq "$(on s2r2 "SELECT count() FROM all.metric_point_local")" "$(on s2r1 "SELECT count() FROM all.metric_point_local")" &&
	same_json all s1r2 stats
'

# per_source DB — "path points" of every committed attempt, from each
# shard's local tables (an attempt's rows live on one shard); a SQLite
# store's lines of the same files (rk.db, kill.db) are the reference: a
# committed unit is whole or not there.
# per_source DB FILE; fails (FILE holding the server's error) while the
# tables are not all there.
per_source() {
	: >"$2.tmp"
	for n in s1r1 s2r1; do
		on "$n" "SELECT path, cnt FROM (SELECT id AS src, path FROM $1.source_local WHERE sha256 != '') ANY LEFT JOIN (SELECT src, count() AS cnt FROM $1.metric_point_local GROUP BY src) USING (src) FORMAT TSV" >>"$2.tmp" || return 1
	done
	if grep -q "DB::Exception" "$2.tmp"; then mv "$2.tmp" "$2"; return 1; fi
	sort -u "$2.tmp" >"$2"
}

# A replica of the other shard killed (SIGKILL) while an ingest through
# s1r1 is under way (the cases above stop replicas before it): the
# ingest completes or fails in lines naming its units, reads go on while
# the replica is down, nothing half there; after a restart a rerun
# completes and every unit is whole (per_source, above, on both shards).
test_expect_success CLUSTER 'a replica killed (SIGKILL) during an ingest: it completes or fails cleanly, reads go on, nothing committed is lost' '
	"$AMDAHL" --store "$TMP/rk.db" ingest -q "$DATA/dataloader-workers" &&
	"$AMDAHL" --store "$TMP/rk.db" ingest -q "$DATA/gpu-batch-sweep" &&
	sqlite3 -cmd ".load $AMDAHL_SQLEXT" "$TMP/rk.db" "SELECT s.path, (SELECT count(*) FROM metric_point m WHERE m.source_id = s.id) FROM source s" | tr "|" "\t" | sort -u >"$TMP/rk.ref" &&
	"$AMDAHL" --store "$(url rk)" ingest -q "$DATA/dataloader-workers" || return 1
	( exec "$AMDAHL" --store "$(url rk)" ingest "$DATA/gpu-batch-sweep" >"$TMP/rk.out" 2>"$TMP/rk.err" ) &
	cpid=$!
	sleep 1.5
	kill -9 "$(cat "$CLDIR/s2r1/pid")"
	wait $cpid; rc=$?
	echo "# s2r1 killed during an ingest: the client exited $rc; $(grep -c . "$TMP/rk.err") error lines" >&2
	test_true "the ingest exits 0, or 2 with its summary" [ "$rc" = 0 -o "$rc" = 2 ]
	test_contains " added, " "$(cat "$TMP/rk.out" "$TMP/rk.err")"
	test_status 0 "$AMDAHL" --store "$(url rk)" runs --json
	"$CL_SCRIPT" node-start "$CLDIR" s2r1 &&
	sync rk && per_source rk "$TMP/rk.now" &&
	test_eq "" "$(comm -23 "$TMP/rk.now" "$TMP/rk.ref")" &&
	"$AMDAHL" --store "$(url rk)" ingest -q "$DATA/gpu-batch-sweep" &&
	sync rk && per_source rk "$TMP/rk.now" &&
	test_true "every unit, whole" cmp -s "$TMP/rk.ref" "$TMP/rk.now" &&
	same_json rk s2r1 stats && same_json rk s1r2 runs
'

# (the assertions are not chained: the shard is started again whatever they found)
test_expect_success CLUSTER 'a whole shard down: reads fail in one line naming it, never a partial answer; after a restart all is there' '
	"$CL_SCRIPT" node-stop "$CLDIR" s2r1 && "$CL_SCRIPT" node-stop "$CLDIR" s2r2 &&
	test_status 2 "$AMDAHL" --store "$(url all)" stats
	test_eq "" "$OUT"
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
	test_contains "shard 2 of cluster amdahl2x2 is unavailable (no replica answered: 127.0.0.1:" "$ERR"
	test_status 2 "$AMDAHL" --store "$(url all)" runs --sweep gpu-batch-sweep
	test_contains "shard 2 of cluster amdahl2x2 is unavailable" "$ERR"
	"$CL_SCRIPT" node-start "$CLDIR" s2r1 && "$CL_SCRIPT" node-start "$CLDIR" s2r2 &&
	same_json all s1r1 stats &&
	same_json all s2r1 runs
'

test_expect_success CLUSTER 'a client killed at 20 random points of an ingest leaves no half unit; a rerun completes' '
	"$AMDAHL" --store "$TMP/kill.db" ingest -q "$DATA/dataloader-workers" &&
	"$AMDAHL" --store "$TMP/kill.db" ingest -q "$DATA/gpu-batch-sweep" &&
	"$AMDAHL" --store "$(url kill)" ingest -q "$DATA/dataloader-workers" && # the tables, made ON CLUSTER
	sqlite3 -cmd ".load $AMDAHL_SQLEXT" "$TMP/kill.db" "SELECT s.path, (SELECT count(*) FROM metric_point m WHERE m.source_id = s.id) FROM source s" | tr "|" "\t" | sort -u >"$TMP/kill.ref" &&
	for i in $(seq 1 20); do
		"$AMDAHL" --store "$(url kill)" ingest -q "$DATA/gpu-batch-sweep" >/dev/null 2>&1 &
		pid=$!
		# a random point in the first min(i, 8) seconds: early kills hit the
		# first units, later ones (the committed units skipped) the rest
		w=$((i < 8 ? i : 8)) && sleep "$((RANDOM % w)).$((RANDOM % 10))"
		kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
		sync kill 2>/dev/null
		per_source kill "$TMP/kill.now" || { echo "# kill $i: no tables yet" >&2; continue; }
		# every committed attempt has all of its points (the lines are a part of the reference)
		test_eq "" "$(comm -23 "$TMP/kill.now" "$TMP/kill.ref")" || return 1
		echo "# kill $i: $(wc -l <"$TMP/kill.now") of $(wc -l <"$TMP/kill.ref") units committed" >&2
	done &&
	"$AMDAHL" --store "$(url kill)" ingest -q "$DATA/gpu-batch-sweep" &&
	per_source kill "$TMP/kill.now" && test_true "every unit, whole" cmp -s "$TMP/kill.ref" "$TMP/kill.now" &&
	same_json kill s2r1 runs && same_json kill s1r2 stats
'

# The node the client talks to paused (SIGSTOP) in an ingest: the client
# gives up within $AMDAHL_CLICKHOUSE_STALL (3 s here), the first line
# saying so and the units not tried after it "not sent: the server
# stopped answering an earlier request" (not a wait per unit); once
# the node goes on (SIGCONT), a rerun completes and nothing is half there.
# The paused ingest is the CPU sweep's (its traces: seconds of work on the
# cluster): dataloader-workers' finished within the 0.5 s before the
# pause once an ingest made its staging stores from the fresh schema.
test_expect_success CLUSTER 'the server paused (SIGSTOP) during an ingest: the client stops within its limit' '
	"$AMDAHL" --store "$TMP/pause.db" ingest -q "$DATA/gpu-batch-sweep" &&
	"$AMDAHL" --store "$TMP/pause.db" ingest -q "$DATA/cpu-strong-scaling" &&
	"$AMDAHL" --store "$(url pause)" ingest -q "$DATA/gpu-batch-sweep" &&
	spid=$(cat "$CLDIR/s1r1/pid") || return 1
	( export AMDAHL_CLICKHOUSE_STALL=3; exec "$AMDAHL" --store "$(url pause)" ingest -q \
		"$DATA/cpu-strong-scaling" >"$TMP/p.out" 2>"$TMP/p.err" ) &
	cpid=$!
	sleep 0.5
	kill -STOP "$spid"; t0=$(date +%s)
	wait $cpid; rc=$?
	took=$(($(date +%s) - t0))
	kill -CONT "$spid"
	echo "# paused node: the client exited $rc after $took s: $(cat "$TMP/p.err")" >&2
	test_eq 2 "$rc" &&
	test_true "within a few 3 s limits, not one per unit" [ "$took" -le 15 ] &&
	test_contains "stopped answering" "$(head -1 "$TMP/p.err")" &&
	test_contains "AMDAHL_CLICKHOUSE_STALL" "$(head -1 "$TMP/p.err")" &&
	# every line names the pause, but the closing count of the units not
	# read (engine.c), printed when the pause hit a unit (a batch of them)
	test_eq "$(grep -v -c "stopped at the store'"'"'s failure above" "$TMP/p.err")" "$(grep -c "stopped answering" "$TMP/p.err")" &&
	# a pause past ZooKeeper'"'"'s session (6 s) expires the node'"'"'s session:
	# its inserts fail ("ZooKeeper session has been expired") until it
	# has a new one, so the rerun is tried until it completes (30 s)
	for k in $(seq 1 10); do
		"$AMDAHL" --store "$(url pause)" ingest -q "$DATA/cpu-strong-scaling" 2>"$TMP/re.err" && break
		sleep 3
	done &&
	test_eq "" "$(cat "$TMP/re.err")" &&
	same_json pause s2r1 runs && same_json pause s1r1 stats
'

test_done
