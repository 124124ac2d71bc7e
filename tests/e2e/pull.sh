# pull.sh — `amdahl pull`: a ClickHouse store (or one sweep of it) copied
# into a SQLite file. Two bundled sweeps are ingested into SQLite and
# pushed to a private clickhouse-server (tests/lib/clickhouse.sh; the one
# tests/run.sh started in ClickHouse mode, else one of its own); the
# pulled copy answers runs/stats/gate --json byte for byte as the original
# SQLite store and the ClickHouse store do, pulling again writes the same
# bytes, pushing the copy back adds nothing, and bad targets leave every
# file as it was.
test_description='amdahl pull: ClickHouse store to SQLite file, round trip'
test_native_backend=1 # talks to ClickHouse itself, in either mode
. "$(dirname "$0")/../test-lib.sh"

CH_SCRIPT="$AMDAHL_ROOT/tests/lib/clickhouse.sh"
test_lazy_prereq CLICKHOUSE '[ -n "${AMDAHL_CH_PORT:-}" ] || "$CH_SCRIPT" have'
export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
CHDIR="$TMP/server"
if [ -z "${AMDAHL_CH_PORT:-}" ] && test_have_prereq CLICKHOUSE; then
	mkdir -p "$CHDIR" && AMDAHL_CH_PORT=$("$CH_SCRIPT" start "$CHDIR") ||
		echo "# clickhouse-server did not start" >&2
	trap '"$CH_SCRIPT" stop "$CHDIR" >/dev/null 2>&1; test_cleanup' EXIT
elif ! test_have_prereq CLICKHOUSE; then
	echo "# skipping: no clickhouse-server here (Debian package clickhouse-server)" >&2
fi
DBS="pull_$$"
url() { echo "clickhouse://amdahl@127.0.0.1:${AMDAHL_CH_PORT:-0}/${DBS}_$1"; }
ch() { curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" "http://127.0.0.1:$AMDAHL_CH_PORT/"; }
# same JSON FILE_A FILE_B — two --json answers, store names aside, byte-identical
same() { test_true "$1 is byte-identical" cmp -s "$2" "$3" || diff "$2" "$3" | head -10 >&2; }

test_expect_success CLICKHOUSE 'setup: two bundled sweeps in a SQLite store, pushed to ClickHouse' '
	for d in cpu-strong-scaling gpu-batch-sweep; do
		"$AMDAHL" --store "$TMP/orig.db" ingest -q "$DATA/$d" || return 1
	done &&
	"$AMDAHL" --store "$TMP/orig.db" push --to "$(url main)" >/dev/null
'

test_expect_success CLICKHOUSE,SQLITE3 'pull writes a SQLite store with every source: runs, stats, gate --json as the original and the server' '
	test_status 0 "$AMDAHL" pull --from "$(url main)" --to "$TMP/copy.db" &&
	nsrc=$(q "$TMP/orig.db" "SELECT count(*) FROM source") &&
	test_true "sources counted" [ "$nsrc" -gt 50 ] &&
	test_eq "$nsrc sources pulled into $TMP/copy.db" "$OUT" &&
	test_eq "$nsrc" "$(q "$TMP/copy.db" "SELECT count(*) FROM source")" &&
	test_eq "$(q "$TMP/orig.db" "SELECT count(*) FROM metric_point")" "$(q "$TMP/copy.db" "SELECT count(*) FROM metric_point")" &&
	for c in runs stats "gate --baseline gpu-batch-sweep --candidate gpu-batch-sweep"; do
		"$AMDAHL" --store "$TMP/orig.db" $c --json | sed "s|$TMP/orig.db|STORE|g" >"$TMP/o.json" &&
		"$AMDAHL" --store "$TMP/copy.db" $c --json | sed "s|$TMP/copy.db|STORE|g" >"$TMP/c.json" &&
		"$AMDAHL" --store "$(url main)" $c --json | sed "s|$(url main)|STORE|g" >"$TMP/h.json" &&
		same "$c --json (pulled copy)" "$TMP/o.json" "$TMP/c.json" &&
		same "$c --json (ClickHouse)" "$TMP/o.json" "$TMP/h.json" || return 1
	done
'

test_expect_success CLICKHOUSE 'pull --store URL is the same as --from URL; pulling again writes the same bytes' '
	test_status 0 "$AMDAHL" --store "$(url main)" pull --to "$TMP/copy2.db" &&
	test_true "the two pulls are the same file" cmp -s "$TMP/copy.db" "$TMP/copy2.db" &&
	test_status 0 "$AMDAHL" pull --from "$(url main)" --to "$TMP/copy2.db" &&
	test_true "pulling over the copy changes nothing" cmp -s "$TMP/copy.db" "$TMP/copy2.db" &&
	test_eq 0 "$(ls "$TMP" | grep -c "^copy2.db.")"
'

test_expect_success CLICKHOUSE 'the pulled copy pushed back adds nothing; the server store was only read' '
	before=$(ch "SELECT count() FROM $(basename "$(url main)").source") &&
	test_status 0 "$AMDAHL" --store "$TMP/copy.db" push --to "$(url main)" &&
	test_contains "0 pushed, 0 replaced, $nsrc unchanged" "$OUT" &&
	test_eq "$before" "$(ch "SELECT count() FROM $(basename "$(url main)").source")"
'

test_expect_success CLICKHOUSE,SQLITE3 'pull --sweep copies only the sources of that sweep, with the same stats' '
	test_status 0 "$AMDAHL" pull --from "$(url main)" --to "$TMP/one.db" --sweep cpu-strong-scaling &&
	test_eq "cpu-strong-scaling" "$(q "$TMP/one.db" "SELECT group_concat(name) FROM sweep")" &&
	n1=$(q "$TMP/orig.db" "SELECT count(DISTINCT s.id) FROM source s JOIN run r ON r.source_id = s.id JOIN sweep w ON w.id = r.sweep_id WHERE w.name = '"'cpu-strong-scaling'"'") &&
	test_true "the sweep has sources" [ "$n1" -gt 0 ] &&
	test_true "fewer sources than the whole store" [ "$(q "$TMP/one.db" "SELECT count(*) FROM source")" -lt "$nsrc" ] &&
	"$AMDAHL" --store "$TMP/orig.db" stats --sweep cpu-strong-scaling --json >"$TMP/o1.json" &&
	"$AMDAHL" --store "$TMP/one.db" stats --sweep cpu-strong-scaling --json >"$TMP/c1.json" &&
	same "stats --sweep --json" "$TMP/o1.json" "$TMP/c1.json"
'

test_expect_success CLICKHOUSE 'bad pulls: one line, exit 2, every file as it was' '
	sum=$(sha256sum <"$TMP/copy.db") &&
	test_status 2 "$AMDAHL" pull --from "$(url main)" --to "$TMP/copy.db" --sweep nope &&
	test_eq "amdahl pull: $(url main): no sweep named nope" "$ERR" &&
	test_eq "$sum" "$(sha256sum <"$TMP/copy.db")" &&
	ln -s copy.db "$TMP/link.db" &&
	test_status 2 "$AMDAHL" pull --from "$(url main)" --to "$TMP/link.db" &&
	test_contains "link.db" "$ERR" && test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_true "the link is still a link" [ -L "$TMP/link.db" ] &&
	test_eq "$sum" "$(sha256sum <"$TMP/copy.db")" &&
	printf x >"$TMP/copy.db-wal" &&
	test_status 2 "$AMDAHL" pull --from "$(url main)" --to "$TMP/copy.db" &&
	test_contains "write-ahead log" "$ERR" &&
	rm "$TMP/copy.db-wal" &&
	test_eq "$sum" "$(sha256sum <"$TMP/copy.db")" &&
	test_status 2 "$AMDAHL" pull --from "$TMP/orig.db" --to "$TMP/x.db" &&
	test_contains "pull reads a ClickHouse store" "$ERR" &&
	test_status 2 "$AMDAHL" pull --from "$(url nothing)" --to "$TMP/x.db" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_path_is_missing "$TMP/x.db" &&
	test_status 2 "$AMDAHL" pull --from "$(url main)" &&
	test_contains "expected --to FILE" "$ERR" &&
	test_eq 0 "$(ls "$TMP" | grep -c "^copy.db.\|^x.db")"
'

test_expect_success CLICKHOUSE 'the pulled copy is an ordinary store: a third sweep ingested into it, stats as a store holding all three' '
	"$AMDAHL" --store "$TMP/copy.db" ingest -q "$DATA/dataloader-workers" &&
	cp "$TMP/orig.db" "$TMP/three.db" &&
	"$AMDAHL" --store "$TMP/three.db" ingest -q "$DATA/dataloader-workers" &&
	"$AMDAHL" --store "$TMP/three.db" stats --json >"$TMP/t3.json" &&
	"$AMDAHL" --store "$TMP/copy.db" stats --json >"$TMP/c3.json" &&
	same "stats --json of three sweeps" "$TMP/t3.json" "$TMP/c3.json"
'

test_expect_success CLICKHOUSE 'cleanup: the test databases dropped' '
	for d in main; do ch "DROP DATABASE IF EXISTS $(basename "$(url $d)")" || return 1; done
'
test_done
