# clickhouse.sh — the ClickHouse backend against a real clickhouse-server
# (Debian's, started privately by tests/lib/clickhouse.sh on 127.0.0.1
# with its own data directory and ports): the store URL and password
# rules, the bundled sweeps ingested into ClickHouse and into SQLite with
# byte-identical runs/stats/gate/compare/trace/pyspy --json and report,
# `sql` and `push`, re-ingest adding nothing, a changed file replacing its
# rows (the replaced attempt's rows deleted on the server), uncommitted
# and killed ingests staying invisible, 8 processes
# ingesting at once with 20 of them killed, `stats` loading only the
# points of the metrics it reads (a generated 20 × 64 sweep), and
# clickhouse+https with a self-signed certificate; a unit whose message
# holds libcurl's words failing alone; `runs` and `regions` getting one
# point per series, `scaling`, `compare` and `gate` only their metrics'
# points (the same output, fewer rows); a copy later in an ingest's
# batch not read, a batch bounded by the memory it holds; a clean-up
# failing after its batch committed (the units kept, the rows left
# reported and removed by the next ingest); a batch's state list of its
# own units' sources, not the store's; a unit's run looked up by its key,
# not in a list of the store's runs; the orphan check after an ingest
# loading its own units' part, not the store; a part's load queries
# joining only its sources, not all of source. Skipped (with the
# reason) where no server can be run.
test_description='the ClickHouse backend: URL, password, ingest guarantees, identical output'
test_native_backend=1 # compares the two backends itself, in either mode
test_run_alone=1 # kills and pauses at measured moments, bounds on wall time: nothing beside it (tests/lib/runner.sh)
. "$(dirname "$0")/../test-lib.sh"

CH_SCRIPT="$AMDAHL_ROOT/tests/lib/clickhouse.sh"
test_lazy_prereq CLICKHOUSE '"$CH_SCRIPT" have'
CHDIR="$TMP/server"
trap '"$CH_SCRIPT" stop "$CHDIR" >/dev/null 2>&1; rm -rf "$TMP"' EXIT
export AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
# ch SQL — runs SQL on the test server as the amdahl user.
ch() { curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" "http://127.0.0.1:$(cat "$CHDIR/port")/"; }
url() { echo "clickhouse://amdahl@127.0.0.1:$(cat "$CHDIR/port")/$1"; }
# same_json DB CMD… — CMD's --json against ClickHouse database DB and
# against $TMP/DB.db byte for byte (and the same exit status); where the
# output names its store (gate's "store"), that name is the one difference.
same_json() {
	db=$1; shift
	"$AMDAHL" --store "$(url "$db")" "$@" --json | sed "s|$(url "$db")|STORE|g" >"$TMP/ch.out"
	s1=${PIPESTATUS[0]}
	"$AMDAHL" --store "$TMP/$db.db" "$@" --json | sed "s|$TMP/$db.db|STORE|g" >"$TMP/sq.out"
	s2=${PIPESTATUS[0]}
	test_eq "$s2" "$s1" && test_true "SQLite answered" [ -s "$TMP/sq.out" ] &&
	test_true "$* --json is byte-identical" cmp -s "$TMP/sq.out" "$TMP/ch.out"
}

# The summaries ingest printed into $TMP/NAME.K on ClickHouse and
# $TMP/NAME.db.K on SQLite (K = 1 2 3) are the same.
same_summaries() {
	for k in 1 2 3; do
		test_true "the same summary ($k)" cmp -s "$TMP/$1.db.$k" "$TMP/$1.$k" || return 1
	done
}

# same_err DB CMD… — CMD fails on both backends with the same message
# (store names aside) and the same exit status.
same_err() {
	db=$1; shift
	"$AMDAHL" --store "$(url "$db")" "$@" 2>&1 >/dev/null | sed "s|$(url "$db")|STORE|g" >"$TMP/ch.err"
	s1=${PIPESTATUS[0]}
	"$AMDAHL" --store "$TMP/$db.db" "$@" 2>&1 >/dev/null | sed "s|$TMP/$db.db|STORE|g" >"$TMP/sq.err"
	s2=${PIPESTATUS[0]}
	test_eq "$s2" "$s1" && test_true "SQLite failed" [ "$s2" -ne 0 ] &&
	test_true "$* says the same" cmp -s "$TMP/sq.err" "$TMP/ch.err"
}

# clickhouse+https: the server also listens with TLS on 127.0.0.1 with a
# self-signed certificate made here (openssl; config.d/https.xml, which
# the server merges: ClickHouse 18.16's https_port and openSSL.server)
tls_config() {
	mkdir -p "$CHDIR/config.d" &&
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
		-addext "subjectAltName=IP:127.0.0.1" -keyout "$CHDIR/tls.key" -out "$CHDIR/tls.crt" 2>/dev/null &&
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' >"$CHDIR/https_port" &&
	cat >"$CHDIR/config.d/https.xml" <<XML
<?xml version="1.0"?>
<yandex><https_port>$(cat "$CHDIR/https_port")</https_port>
  <openSSL><server><certificateFile>$CHDIR/tls.crt</certificateFile>
    <privateKeyFile>$CHDIR/tls.key</privateKeyFile><verificationMode>none</verificationMode>
    <loadDefaultCAFile>false</loadDefaultCAFile><disableProtocols>sslv2,sslv3</disableProtocols>
  </server></openSSL></yandex>
XML
}

if test_have_prereq CLICKHOUSE; then
	mkdir -p "$CHDIR" && { ! test_have_prereq OPENSSL || tls_config || rm -f "$CHDIR/config.d/https.xml"; } &&
	"$CH_SCRIPT" start "$CHDIR" >/dev/null || echo "# clickhouse-server did not start" >&2
else
	echo "# skipping: no clickhouse-server here (Debian package clickhouse-server)" >&2
fi

# undated FILE — FILE without the minute the report was generated (two
# builds a minute apart differ there and nowhere else).
undated() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC/DATE UTC/g' "$1"; }

test_expect_success CLICKHOUSE 'setup: ingest every bundled sweep into ClickHouse and into SQLite' '
	for d in cpu-strong-scaling dataloader-workers gpu-batch-sweep itwinai-layout pyspy; do
		"$AMDAHL" --store "$(url all)" ingest -q "$DATA/$d" &&
		"$AMDAHL" --store "$TMP/all.db" ingest -q "$DATA/$d" || return 1
	done
'

test_expect_success CLICKHOUSE 'runs, stats, gate and compare --json are byte-identical to SQLite' '
	same_json all runs &&
	same_json all stats &&
	same_json all gate --baseline gpu-batch-sweep --candidate gpu-batch-sweep &&
	same_json all compare --baseline gpu-batch-sweep --candidate gpu-batch-sweep
'

test_expect_success CLICKHOUSE 'trace show, pyspy top and trie --json are byte-identical to SQLite' '
	same_json all trace show ddp-n8 &&
	same_json all pyspy top "$DATA/pyspy/calendarbot.dump.json" -n 0 &&
	same_json all pyspy trie "$DATA/pyspy/calendarbot.dump.json" &&
	same_json all pyspy top "$DATA/pyspy/perf-collapsed.txt" -n 0
'

test_expect_success CLICKHOUSE 'commands naming a sweep, run or file read a part of the store: the same output' '
	same_json all stats --sweep dataloader-workers &&
	same_json all stats --sweep "sweep=gpu-batch-sweep,n>=1" &&
	same_json all stats --by n --sweep gpu-batch-sweep &&
	same_json all runs --sweep mnist-scaling &&
	same_json all regions gpu-batch-sweep &&
	same_json all regions ddp-n8 &&
	same_json all diff gpu-batch-sweep cpu-strong-scaling &&
	same_json all scaling --sweep gpu-batch-sweep &&
	same_err all stats --sweep nope &&
	same_err all stats --sweep ddp-n8 &&
	same_err all stats --sweep "sweep=gpu-batch-sweep,n>=2" &&
	same_err all stats --sweep "sweep=gpu-batch-sweep,param.nope=1" &&
	same_err all stats --by param.nope --sweep gpu-batch-sweep
'

test_expect_success CLICKHOUSE 'report build writes the same report.json and PDF text' '
	"$AMDAHL" --store "$(url all)" report build --sweep gpu-batch-sweep -o "$TMP/rch" &&
	"$AMDAHL" --store "$TMP/all.db" report build --sweep gpu-batch-sweep -o "$TMP/rsq" &&
	undated "$TMP/rsq/report.json" >"$TMP/rsq.json" && undated "$TMP/rch/report.json" >"$TMP/rch.json" &&
	{ cmp -s "$TMP/rsq.json" "$TMP/rch.json" || diff "$TMP/rsq.json" "$TMP/rch.json" | head -20 >&2; } &&
	test_true "report.json is the same" cmp -s "$TMP/rsq.json" "$TMP/rch.json" &&
	if test_have_prereq PDFTOTEXT; then
		pdftotext "$TMP/rch/report.pdf" - | undated - >"$TMP/rch.txt" &&
		pdftotext "$TMP/rsq/report.pdf" - | undated - >"$TMP/rsq.txt" &&
		test_true "the PDF says the same" cmp -s "$TMP/rsq.txt" "$TMP/rch.txt"
	fi
'

test_expect_success CLICKHOUSE 'sql: the same count on both backends; writes refused' '
	n_sq=$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) AS n FROM metric_point" | tail -1) &&
	n_ch=$("$AMDAHL" --store "$(url all)" sql "SELECT count() AS n FROM metric_point WHERE src IN committed" | tail -1) &&
	test_true "SQLite counted points" [ "$n_sq" -gt 1000 ] &&
	test_eq "$n_sq" "$n_ch" &&
	test_eq "n" "$("$AMDAHL" --store "$(url all)" sql "SELECT 1 AS n" | head -1)" &&
	test_status 2 "$AMDAHL" --store "$TMP/all.db" sql "DELETE FROM metric_point" &&
	test_contains "table metric_point may not be modified" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$(url all)" sql "DROP TABLE metric_point" &&
	test_contains "readonly" "$ERR" &&
	test_eq "$n_sq" "$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) FROM metric_point" | tail -1)"
'

test_expect_success CLICKHOUSE,SQLITE3 'push copies a local store: the same output, and again adds nothing' '
	"$AMDAHL" --store "$TMP/all.db" push --to "$(url pushed)" >"$TMP/p1" &&
	nsrc=$(q "$TMP/all.db" "SELECT count(*) FROM source") &&
	test_contains "$nsrc pushed, 0 replaced, 0 unchanged" "$(cat "$TMP/p1")" &&
	cp "$TMP/all.db" "$TMP/pushed.db" &&
	same_json pushed runs && same_json pushed stats &&
	same_json pushed pyspy trie "$DATA/pyspy/calendarbot.dump.json" &&
	"$AMDAHL" --store "$TMP/all.db" push --to "$(url pushed)" >"$TMP/p2" &&
	test_contains "0 pushed, 0 replaced, $nsrc unchanged" "$(cat "$TMP/p2")" &&
	same_json pushed stats
'

test_expect_success CLICKHOUSE 'push --sweep copies only that sweep; bad targets are usage errors' '
	"$AMDAHL" --store "$TMP/all.db" push --to "$(url one)" --sweep cpu-strong-scaling >"$TMP/p3" &&
	test_contains "59 pushed" "$(cat "$TMP/p3")" &&
	"$AMDAHL" --store "$(url one)" runs --json >"$TMP/one.json" &&
	test_eq "cpu-strong-scaling" "$(json_get "$TMP/one.json" "\",\".join(sorted(set(r[\"sweep\"] for r in d[\"runs\"])))")" &&
	test_status 2 "$AMDAHL" --store "$TMP/all.db" push --to "$(url one)" --sweep nope &&
	test_contains "no sweep named" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/all.db" push --to "$TMP/x.db" &&
	test_contains "push goes to a ClickHouse store" "$ERR"
'

# ingest --run RUN FILE into a store that holds RUN: FILE's facts go to
# that run (the ClickHouse target copies it from the server into the
# unit's staging store, ch_seed.c), not to a placeholder run
test_expect_success CLICKHOUSE 'ingest --run links a file to a run the store holds, by id and by name: the same output as SQLite' '
	spy=3679a94ec2214cbe8d71215b864c78ea &&
	for st in "$(url linked)" "$TMP/linked.db"; do
		"$AMDAHL" --store "$st" ingest -q "$DATA/itwinai-layout" &&
		"$AMDAHL" --store "$st" runs --json >"$TMP/runs-before.json" &&
		"$AMDAHL" --store "$st" ingest -q --run $spy "$DATA/pyspy/train-raw.txt" &&
		"$AMDAHL" --store "$st" ingest -q --run ddp-1x2-scaling-2gpu "$DATA/profiles/work.prof" &&
		"$AMDAHL" --store "$st" runs --json >"$TMP/runs-after.json" &&
		test_true "no run added" cmp -s "$TMP/runs-before.json" "$TMP/runs-after.json" || return 1
	done &&
	same_json linked pyspy top $spy -n 0 &&
	"$AMDAHL" --store "$(url linked)" pyspy top "$DATA/pyspy/train-raw.txt" -n 0 --json >"$TMP/file.json" &&
	test_true "the file has samples" [ "$(json_get "$TMP/file.json" "d[\"samples\"]")" -gt 0 ] &&
	test_eq "$(json_get "$TMP/file.json" "d[\"samples\"]")" "$(json_get "$TMP/ch.out" "d[\"samples\"]")" &&
	same_json linked regions ddp-1x2-scaling-2gpu --source cprofile -n 0 &&
	test_contains "\"source\":	\"cprofile\"" "$(cat "$TMP/ch.out")" &&
	same_json linked stats &&
	same_json linked runs &&
	same_err linked ingest --run no-such-run "$DATA/pyspy/train-raw.txt"
'

# a file the store already holds, linked afterwards (by name: the newest
# run of that name): its rows copied on the server into a new attempt
# with the run set (ch_relink.c)
test_expect_success CLICKHOUSE 'ingest --run and link on a held file link it as on SQLite, once' '
	perf=$DATA/pyspy/perf-collapsed.txt chrome=$DATA/pyspy/train.chrometrace.json &&
	for st in "$(url linked)" "$TMP/linked.db"; do
		o=$TMP/$(basename "$st") &&
		"$AMDAHL" --store "$st" ingest -q "$perf" "$chrome" 2>/dev/null &&
		"$AMDAHL" --store "$st" ingest --run ddp-1x4-scaling-4gpu "$perf" >"$o.1" &&
		"$AMDAHL" --store "$st" ingest --run ddp-1x4-scaling-4gpu "$perf" >"$o.2" &&
		"$AMDAHL" --store "$st" link "$chrome" ddp-1x4-scaling-4gpu >"$o.3" &&
		"$AMDAHL" --store "$st" link "$chrome" ddp-1x4-scaling-4gpu >>"$o.3" || return 1
	done &&
	test_contains "1 linked to a run" "$(cat "$TMP/linked.db.1")" &&
	test_contains "1 unchanged" "$(cat "$TMP/linked.db.2")" &&
	test_contains "already linked to run" "$(cat "$TMP/linked.db.3")" &&
	same_summaries linked &&
	same_json linked runs --orphans &&
	"$AMDAHL" --store "$TMP/linked.db" runs --json >"$TMP/runs.json" &&
	id=$(json_get "$TMP/runs.json" "[r[\"id\"] for r in sorted(d[\"runs\"], key=lambda r: r[\"start_ms\"]) if r[\"name\"] == \"ddp-1x4-scaling-4gpu\"][-1]") &&
	same_json linked pyspy top "$id" -n 0 &&
	n=$(json_get "$TMP/ch.out" "d[\"samples\"]") &&
	"$AMDAHL" --store "$(url linked)" pyspy top "$perf" -n 0 --json >"$TMP/perf.json" &&
	"$AMDAHL" --store "$(url linked)" pyspy top "$chrome" -n 0 --json >"$TMP/chrome.json" &&
	test_eq $(( $(json_get "$TMP/perf.json" "d[\"samples\"]") + $(json_get "$TMP/chrome.json" "d[\"samples\"]") )) "$n" &&
	same_json linked stats
'

# --sweep S --run NEW on a held file: the run made as a placeholder in
# the copied attempt (ch_relink.c), as SQLite makes it; the file's path
# sorts before the sweep's (/tmp < /work), so ClickHouse numbers the new
# run first where SQLite numbers it last: outputs must not show that
test_expect_success CLICKHOUSE 'ingest --sweep S --run NEW on a held file makes run NEW as on SQLite' '
	cp "$DATA/pyspy/perf-collapsed.txt" "$TMP/a-perf.txt" &&
	for st in "$(url placed)" "$TMP/placed.db"; do
		o=$TMP/$(basename "$st") &&
		"$AMDAHL" --store "$st" ingest -q "$DATA/itwinai-layout" &&
		"$AMDAHL" --store "$st" ingest -q "$TMP/a-perf.txt" 2>/dev/null &&
		"$AMDAHL" --store "$st" ingest --sweep mnist-scaling --run fresh "$TMP/a-perf.txt" >"$o.1" &&
		"$AMDAHL" --store "$st" ingest --sweep lab --run other "$TMP/a-perf.txt" >"$o.2" &&
		"$AMDAHL" --store "$st" ingest --sweep lab --run other "$TMP/a-perf.txt" >"$o.3" || return 1
	done &&
	test_contains "1 linked to a run" "$(cat "$TMP/placed.db.1")" &&
	test_contains "1 linked to a run" "$(cat "$TMP/placed.db.2")" &&
	test_contains "1 unchanged" "$(cat "$TMP/placed.db.3")" &&
	same_summaries placed &&
	same_json placed runs &&
	test_contains "\"id\":	\"name:lab/other\"" "$(cat "$TMP/ch.out")" &&
	test_contains "\"id\":	\"name:mnist-scaling/fresh\"" "$(cat "$TMP/ch.out")" &&
	same_json placed runs --orphans &&
	same_json placed stats &&
	same_json placed pyspy top other -n 0 &&
	"$AMDAHL" --store "$TMP/placed.db" pyspy top "$TMP/a-perf.txt" -n 0 --json >"$TMP/file.json" &&
	test_true "the file has samples" [ "$(json_get "$TMP/file.json" "d[\"samples\"]")" -gt 0 ] &&
	test_eq "$(json_get "$TMP/file.json" "d[\"samples\"]")" "$(json_get "$TMP/ch.out" "d[\"samples\"]")"
'

# the two files of one TensorBoard run (the event file, add_hparams'
# subfolder) ingested by two processes at once: each stages without the
# other's part; the reader fills the kept run row's derived columns from
# the other and widens its span over both (table_load.c RUN_FILL).
test_expect_success CLICKHOUSE,SQLITE3 'two processes ingesting the two files of one run at once: one run, its params, derived columns and span' '
	R=$DATA/tensorboard/tb-sweep/dp-n2-r0 && main=$(ls "$R"/events.out.tfevents.*) &&
	sub=$(ls "$R"/*/events.out.tfevents.*) &&
	"$AMDAHL" --store "$TMP/tb1.db" ingest -q "$main" "$sub" &&
	RUN="SELECT r.name, r.strategy, r.n, r.repeat, r.start_ms, r.end_ms, count(p.key_id) FROM run r LEFT JOIN param p ON p.run_id = r.id GROUP BY r.id" &&
	want=$(sqlite3 "$TMP/tb1.db" "$RUN") &&
	test_contains "dp-n2-r0|dp|2|0|" "$want" &&
	for i in 1 2 3 4; do
		"$AMDAHL" --store "$(url tbcc$i)" ingest -q "$main" & p1=$!
		"$AMDAHL" --store "$(url tbcc$i)" ingest -q "$sub" & p2=$!
		wait $p1 && wait $p2 &&
		"$AMDAHL" pull --from "$(url tbcc$i)" --to "$TMP/tbcc$i.db" >/dev/null &&
		test_eq "$want" "$(sqlite3 "$TMP/tbcc$i.db" "$RUN")" || return 1
	done
'

# The race above made deterministic: the run's second file shipped by a
# `push` from a store that never saw the first (as a unit staged while
# the first was not yet committed), so the server holds two committed run
# rows, each with one file's span; the read's run spans both (the
# oracle's span of the two files, as SQLite's). Then the whole TensorBoard
# sweep (9 runs of 2 files) ingested with -j 2, twice: every run's span
# is SQLite's.
test_expect_success CLICKHOUSE,SQLITE3,PYTHON 'a TensorBoard run whose files were shipped apart spans them all (push; ingest -j 2 of the sweep)' '
	R=$DATA/tensorboard/tb-sweep/dp-n2-r0 && main=$(ls "$R"/events.out.tfevents.*) &&
	sub=$(ls "$R"/*/events.out.tfevents.*) &&
	want=$("$PY" "$AMDAHL_ROOT/tests/oracle/tfevents_oracle.py" span "$main" "$sub") &&
	SPAN="SELECT start_ms || '"'"'|'"'"' || end_ms FROM run WHERE name = '"'"'dp-n2-r0'"'"'" &&
	"$AMDAHL" --store "$(url tbapart)" ingest -q "$main" &&
	"$AMDAHL" --store "$TMP/tbsub.db" ingest -q "$sub" &&
	test_true "the second file alone spans less" [ "$(sqlite3 "$TMP/tbsub.db" "$SPAN")" != "$want" ] &&
	"$AMDAHL" --store "$TMP/tbsub.db" push --to "$(url tbapart)" >/dev/null &&
	"$AMDAHL" pull --from "$(url tbapart)" --to "$TMP/tbapart.db" >/dev/null &&
	test_eq "$want" "$(sqlite3 "$TMP/tbapart.db" "$SPAN")" &&
	"$AMDAHL" --store "$TMP/tbj.db" ingest -q -j 2 "$DATA/tensorboard/tb-sweep" &&
	SPANS="SELECT name || '"'"'|'"'"' || start_ms || '"'"'|'"'"' || end_ms FROM run ORDER BY name" &&
	for i in 1 2; do
		"$AMDAHL" --store "$(url tbj$i)" ingest -q -j 2 "$DATA/tensorboard/tb-sweep" &&
		"$AMDAHL" pull --from "$(url tbj$i)" --to "$TMP/tbj$i.db" >/dev/null &&
		test_eq "$(sqlite3 "$TMP/tbj.db" "$SPANS")" "$(sqlite3 "$TMP/tbj$i.db" "$SPANS")" || return 1
	done
'

test_expect_success CLICKHOUSE 'a password in the URL is refused, a wrong one is the server'"'"'s error' '
	test_status 2 "$AMDAHL" --store "clickhouse://amdahl:pw@127.0.0.1:$(cat "$CHDIR/port")/all" runs &&
	test_contains "password in the store URL is refused" "$ERR" &&
	AMDAHL_CLICKHOUSE_PASSWORD=wrong test_status 2 "$AMDAHL" --store "$(url all)" runs &&
	test_contains "Wrong password for user amdahl" "$ERR" &&
	test_eq 1 "$(wc -l <"$TMP/err")" &&
	test_status 2 "$AMDAHL" --store "clickhouse://127.0.0.1:1/x-y" runs &&
	test_contains "/DATABASE" "$ERR"
'

test_expect_success CLICKHOUSE 'the password comes from ~/.netrc when the variable is unset' '
	mkdir -p "$TMP/home" &&
	printf "machine 127.0.0.1 login amdahl password amdahl-test-pw\n" >"$TMP/home/.netrc" &&
	chmod 600 "$TMP/home/.netrc" &&
	env -u AMDAHL_CLICKHOUSE_PASSWORD HOME="$TMP/home" "$AMDAHL" --store "$(url all)" runs --json >"$TMP/netrc.json" &&
	"$AMDAHL" --store "$TMP/all.db" runs --json >"$TMP/sq.json" &&
	test_true "netrc login gives the same runs" cmp -s "$TMP/sq.json" "$TMP/netrc.json"
'

test_expect_success CLICKHOUSE 'a missing store says so' '
	test_status 2 "$AMDAHL" --store "$(url nothing_here)" stats &&
	test_contains "no store here" "$ERR"
'

# a read-only store: what hostile.sh checks of a SQLite file in a
# read-only directory (SQLITE_STORE there), for a user of the readonly
# profile (tests/lib/clickhouse.sh), which may set no setting either
test_expect_success CLICKHOUSE 'a read-only user reads the same; its ingest is refused, the store unchanged' '
	ro="clickhouse://reader@127.0.0.1:$(cat "$CHDIR/port")/all" &&
	"$AMDAHL" --store "$(url all)" stats --json >"$TMP/rw.json" &&
	"$AMDAHL" --store "$ro" stats --json >"$TMP/ro.json" &&
	test_true "stats --json as reader is byte-identical" cmp -s "$TMP/rw.json" "$TMP/ro.json" &&
	before=$(ch "SELECT count(), sum(cityHash64(path, id)) FROM all.source") &&
	test_status 2 "$AMDAHL" --store "$ro" ingest -q "$DATA/dataloader-workers" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	test_contains "$ro" "$ERR" &&
	test_eq "$before" "$(ch "SELECT count(), sum(cityHash64(path, id)) FROM all.source")"
'

test_expect_success CLICKHOUSE 're-ingesting the same bytes adds nothing' '
	before=$(ch "SELECT count() FROM all.metric_point") &&
	"$AMDAHL" --store "$(url all)" ingest "$DATA/cpu-strong-scaling" >"$TMP/re.out" 2>&1 &&
	test_contains "0 added, 0 replaced, 59 unchanged" "$(cat "$TMP/re.out")" &&
	test_eq "$before" "$(ch "SELECT count() FROM all.metric_point")" &&
	same_json all stats
'

test_expect_success CLICKHOUSE 'a changed file replaces its earlier rows, as in SQLite' '
	cp -r "$DATA/cpu-strong-scaling" "$TMP/cpu" &&
	"$AMDAHL" --store "$(url chg)" ingest -q "$TMP/cpu" &&
	"$AMDAHL" --store "$TMP/chg.db" ingest -q "$TMP/cpu" &&
	points=$(ch "SELECT count() FROM chg.metric_point") && sources=$(ch "SELECT count() FROM chg.source") &&
	m=$(ls -d "$TMP"/cpu/mlruns/*/*/metrics | head -1) &&
	f=$(ls "$m" | head -1) &&
	awk "{ \$2 = \$2 * 2; print }" "$m/$f" >"$m/$f.new" && mv "$m/$f.new" "$m/$f" &&
	"$AMDAHL" --store "$(url chg)" ingest "$TMP/cpu" >"$TMP/chg.out" 2>&1 &&
	test_contains "1 replaced" "$(cat "$TMP/chg.out")" &&
	"$AMDAHL" --store "$TMP/chg.db" ingest -q "$TMP/cpu" &&
	same_json chg runs && same_json chg stats &&
	for i in $(seq 1 150); do
		[ "$(ch "SELECT count() FROM chg.metric_point")" = "$points" ] && break
		sleep 0.2
	done &&
	test_eq "$points" "$(ch "SELECT count() FROM chg.metric_point")" &&
	test_eq "$sources" "$(ch "SELECT count() FROM chg.source")" &&
	test_eq 0 "$(ch "SELECT count() FROM chg.metric_point WHERE src NOT IN (SELECT id FROM chg.source)")" &&
	same_json chg stats
'

test_expect_success CLICKHOUSE 'rows without their commit row are invisible' '
	ch "INSERT INTO all.metric_point (run_id, key_id, step, ts_ms, value, source_id, src, rn)
	    SELECT run_id, key_id, step + 1000000, ts_ms, value * 1000, source_id, 42, 0 FROM all.metric_point" &&
	test_true "uncommitted rows are there" [ "$(ch "SELECT count() FROM all.metric_point WHERE src = 42")" -gt 0 ] &&
	same_json all stats
'

test_expect_success CLICKHOUSE 'ingests killed at random points leave nothing visible; a rerun completes' '
	for i in 1 2 3; do
		"$AMDAHL" --store "$(url kill)" ingest -q "$DATA/gpu-batch-sweep" >/dev/null 2>&1 &
		pid=$!
		sleep "0.$((RANDOM % 9 + 1))"
		kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
	done
	"$AMDAHL" --store "$(url kill)" ingest -q "$DATA/gpu-batch-sweep" &&
	"$AMDAHL" --store "$TMP/kill.db" ingest -q "$DATA/gpu-batch-sweep" &&
	same_json kill runs && same_json kill stats
'

# ingest_part I — process I's overlapping share of the bundled sweeps.
SWEEPS=(cpu-strong-scaling dataloader-workers gpu-batch-sweep itwinai-layout pyspy)
ingest_part() {
	"$AMDAHL" --store "$(url many)" ingest -q -j 1 "$DATA/${SWEEPS[$(($1 % 5))]}" \
		"$DATA/${SWEEPS[$((($1 + 2) % 5))]}" >/dev/null 2>&1
}

test_expect_success CLICKHOUSE '8 processes at once, 20 killed at random points and rerun: every source once' '
	"$AMDAHL" --store "$(url many)" sql "SELECT 1" >/dev/null 2>&1
	kills=0
	while [ $kills -lt 20 ]; do
		pids=()
		for i in 0 1 2 3 4 5 6 7; do ingest_part $i & pids+=($!); done
		sleep "$((RANDOM % 3)).$((RANDOM % 10))"
		for k in 1 2 3 4; do
			kill -9 "${pids[$((RANDOM % 8))]}" 2>/dev/null && kills=$((kills + 1))
		done
		wait
	done
	pids=()
	for i in 0 1 2 3 4 5 6 7; do ingest_part $i & pids+=($!); done
	for p in "${pids[@]}"; do wait "$p" || return 1; done
	test_eq "$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) FROM source" | tail -1)" \
		"$("$AMDAHL" --store "$(url many)" sql "SELECT count() FROM source WHERE id IN committed" | tail -1)" &&
	test_eq "$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) FROM metric_point" | tail -1)" \
		"$("$AMDAHL" --store "$(url many)" sql "SELECT count() FROM metric_point WHERE src IN committed" | tail -1)" &&
	"$AMDAHL" --store "$(url many)" stats --json >"$TMP/many.json" &&
	"$AMDAHL" --store "$TMP/all.db" stats --json >"$TMP/all.json" &&
	test_true "stats after the storm are the clean SQLite store'"'"'s" cmp -s "$TMP/all.json" "$TMP/many.json"
'

# logged SQL — SQL as the default user (whose queries are not counted);
# log_total — the result rows and bytes the amdahl user's queries got;
# moved CMD… — what CMD got from the server: rows and bytes of its
# queries' results (result_rows, result_bytes of system.query_log).
# A window of the log (event_time >= t0, in whole seconds) starts with
# `sleep 1` after the last query to leave out, then t0 = now(): the
# queries made after t0 are in it by themselves, with no second sleep.
logged() {
	curl -sS --data-binary "$1" "http://127.0.0.1:$(cat "$CHDIR/port")/"
}
# run_lookups — how many run look-ups by ext_id (ch_seed.c) the amdahl
# user has made
run_lookups() {
	logged "SYSTEM FLUSH LOGS" &&
	logged "SELECT count() FROM system.query_log WHERE user = 'amdahl' AND type = 2 AND query LIKE 'SELECT id, sweep_id, hex(ext_id)%'"
}
# The questions whether the server holds a run (ch_seed.c: by key, a
# small store's list, a unit's list), answered so far.
run_asks() {
	logged "SYSTEM FLUSH LOGS" &&
	logged "SELECT count() FROM system.query_log WHERE user = 'amdahl' AND type = 2 AND query LIKE '%x FROM run %'"
}
# state_asks — how many state questions about sources (ch_state.c: one
# unit's, or a batch's list) the amdahl user has asked
state_asks() {
	logged "SYSTEM FLUSH LOGS" &&
	logged "SELECT count() FROM system.query_log WHERE user = 'amdahl' AND type = 2 AND query LIKE 'SELECT hex(path), argMax(sha256%'"
}
log_total() {
	logged "SYSTEM FLUSH LOGS" &&
	logged "SELECT sum(result_rows), sum(result_bytes) FROM system.query_log WHERE user = 'amdahl' AND type = 2"
}
moved() {
	a=$(log_total) && "$AMDAHL" --store "$(url all)" "$@" --json >/dev/null && b=$(log_total) &&
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, "\t"); split(b, y, "\t"); print y[1] - x[1], y[2] - x[2] }'
}

test_expect_success CLICKHOUSE 'stats of one sweep transfers the same rows and bytes with 3 more sweeps in the store' '
	one=$(moved stats --sweep dataloader-workers) && whole=$(moved stats) &&
	"$AMDAHL" --store "$(url all)" stats --sweep dataloader-workers --json >"$TMP/before.json" &&
	for k in 1 2 3; do
		d="$TMP/copies/dw$k" && mkdir -p "$TMP/copies" &&
		"$AMDAHL_ROOT/tests/lib/copy_sweep.sh" "$DATA/dataloader-workers" "$d" $k &&
		"$AMDAHL" --store "$(url all)" ingest -q "$d" &&
		"$AMDAHL" --store "$TMP/all.db" ingest -q "$d" || return 1
	done &&
	"$AMDAHL" --store "$(url all)" runs --json >"$TMP/copies.json" &&
	test_eq 24 "$(json_get "$TMP/copies.json" "len([r for r in d[\"runs\"] if r[\"sweep\"].startswith(\"dataloader-workers\")])")" &&
	one3=$(moved stats --sweep dataloader-workers) && whole3=$(moved stats) &&
	echo "# stats --sweep: $one -> $one3 (rows bytes); stats of all: $whole -> $whole3" >&2 &&
	test_true "rows and bytes of one sweep read" [ "${one% *}" -gt 0 ] &&
	test_eq "$one" "$one3" &&
	test_true "reading every sweep moves more rows with the copies" [ "${whole3% *}" -gt "${whole% *}" ] &&
	same_json all stats --sweep dataloader-workers &&
	same_json all stats --sweep dataloader-workers-copy2 &&
	same_json all stats &&
	"$AMDAHL" --store "$(url all)" stats --sweep dataloader-workers --json >"$TMP/after.json" &&
	test_true "the sweep'"'"'s stats did not change" cmp -s "$TMP/before.json" "$TMP/after.json"
'


# same_text DB CMD… — CMD's text output, errors and exit status against
# ClickHouse database DB and $TMP/DB.db byte for byte (store names aside).
same_text() {
	db=$1; shift
	"$AMDAHL" --store "$(url "$db")" "$@" >"$TMP/ch.out" 2>"$TMP/ch.err"; s1=$?
	"$AMDAHL" --store "$TMP/$db.db" "$@" >"$TMP/sq.out" 2>"$TMP/sq.err"; s2=$?
	sed -i "s|$(url "$db")|STORE|g" "$TMP/ch.out" "$TMP/ch.err"
	sed -i "s|$TMP/$db.db|STORE|g" "$TMP/sq.out" "$TMP/sq.err"
	test_eq "$s2" "$s1" && test_true "$* prints the same" cmp -s "$TMP/sq.out" "$TMP/ch.out" &&
	test_true "$* says the same on stderr" cmp -s "$TMP/sq.err" "$TMP/ch.err"
}

# stats asks the server only for the points of the metrics it reads
# (analysis_keys.c); on a generated 20 × 64 sweep whose medians, MAD flags
# and exclusions meet their edge cases (ties, odd and even counts, NaN,
# negative, infinite, a repeated step: tests/lib/gen_metric_sweep.py)
# every output is SQLite's byte for byte, and the rows the server sends
# are fewer than the sweep's points (all of which a read used to load).
test_expect_success CLICKHOUSE 'stats loads only the metrics it reads: 20 x 64 sweep, the same output, fewer rows' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/gen" 20 64 &&
	"$AMDAHL" --store "$(url gen)" ingest -q "$TMP/gen" && "$AMDAHL" --store "$TMP/gen.db" ingest -q "$TMP/gen" &&
	for a in "" "--metric m0" "--metric train_loss" "--metric throughput_samples_per_s" \
		"--keep-first --metric m0" "--aggregate mlperf" "--mad-k 2" "--axis global_batch_size" \
		"--metric f3 --sweep gen-sweep"; do
		same_text gen stats $a && same_json gen stats $a || return 1
	done &&
	same_json gen stats --by strategy --sweep gen-sweep &&
	same_text gen stats --metric m00 &&
	grep -q "closest: .m0." "$TMP/ch.err" &&
	points=$("$AMDAHL" --store "$TMP/gen.db" sql "SELECT count(*) FROM metric_point" | tail -1) &&
	m0=$("$AMDAHL" --store "$TMP/gen.db" sql "SELECT count(*) FROM metric_point m JOIN dict d ON d.id = m.key_id WHERE d.s IN ('"'"'m0'"'"', '"'"'epoch_time_s'"'"', '"'"'throughput_samples_per_s'"'"', '"'"'max_memory_allocated_mb'"'"')" | tail -1) &&
	a=$(log_total) && "$AMDAHL" --store "$(url gen)" stats --sweep gen-sweep --metric m0 >/dev/null && b=$(log_total) &&
	rows=$(awk -v a="$a" -v b="$b" "BEGIN { split(a, x, \"\t\"); split(b, y, \"\t\"); print y[1] - x[1] }") &&
	echo "# stats --metric m0: $rows rows from the server; the sweep has $points points, $m0 of the keys read" >&2 &&
	test_true "fewer rows than the sweep'"'"'s points" [ "$rows" -lt "$points" ] &&
	test_true "the points of the keys read, and little else" [ "$rows" -lt $((m0 + 1000)) ]
'

# every metric key the statistics read is one analysis_keys.c lists: each
# key any file of lib/analysis passes to amd_run_metric by name (a key
# listed that stats does not read only loads a few more points; one
# missing would make stats on ClickHouse differ from SQLite's)
test_expect_success 'analysis_keys.c lists every key amd_analyse and memory_stats read' '
	for k in $(grep -ho "amd_run_metric([^\"]*\"[^\"]*\"" "$AMDAHL_ROOT"/lib/analysis/*.c |
			sed "s/.*\"\(.*\)\"/\1/") \
		$(sed -n "/metric_keys\[\] = {/,/^};/p" "$AMDAHL_ROOT/lib/analysis/memory_stats.c" | grep -o "\"[a-z_]*\"" | tr -d \"); do
		grep -q "\"$k\"" "$AMDAHL_ROOT/lib/analysis/analysis_keys.c" || { echo "# $k is not in analysis_keys.c" >&2; return 1; }
	done
'


# clickhouse+https to the server's self-signed certificate: verified with
# $AMDAHL_CLICKHOUSE_CACERT (the same answers as over HTTP and SQLite);
# without it, or with another CA, one line naming the variable, no store
test_expect_success CLICKHOUSE,OPENSSL 'clickhouse+https with a self-signed certificate and AMDAHL_CLICKHOUSE_CACERT' '
	tls="clickhouse+https://amdahl@127.0.0.1:$(cat "$CHDIR/https_port")" &&
	AMDAHL_CLICKHOUSE_CACERT="$CHDIR/tls.crt" "$AMDAHL" --store "$tls/tls" ingest -q "$DATA/dataloader-workers" &&
	"$AMDAHL" --store "$TMP/tls.db" ingest -q "$DATA/dataloader-workers" &&
	AMDAHL_CLICKHOUSE_CACERT="$CHDIR/tls.crt" "$AMDAHL" --store "$tls/tls" stats --json >"$TMP/tls.json" &&
	"$AMDAHL" --store "$TMP/tls.db" stats --json >"$TMP/tls-sq.json" &&
	test_true "stats over TLS are SQLite'"'"'s" cmp -s "$TMP/tls-sq.json" "$TMP/tls.json" &&
	same_json tls runs &&
	test_status 2 env -u AMDAHL_CLICKHOUSE_CACERT "$AMDAHL" --store "$tls/tls" stats &&
	test_eq 1 "$(wc -l <"$TMP/err")" && test_contains "AMDAHL_CLICKHOUSE_CACERT" "$ERR" &&
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other" -keyout "$TMP/other.key" \
		-out "$TMP/other.crt" 2>/dev/null &&
	test_status 2 env AMDAHL_CLICKHOUSE_CACERT="$TMP/other.crt" "$AMDAHL" --store "$tls/tls2" ingest -q "$DATA/dataloader-workers" &&
	test_contains "did not verify it" "$ERR" &&
	test_eq 0 "$(ch "SELECT count() FROM system.tables WHERE database = '"'"'tls2'"'"'")" &&
	test_status 2 env AMDAHL_CLICKHOUSE_CACERT="$TMP/nope.crt" "$AMDAHL" --store "$tls/tls" stats &&
	test_contains "cannot read $TMP/nope.crt" "$ERR"
'

# The CA in the store URL (?cacert=FILE, percent-decoded), which
# overrides the variable: the same answers; a CA that did not sign the
# certificate, a missing file, a CA for a plain-HTTP URL, one line each
test_expect_success CLICKHOUSE,OPENSSL 'clickhouse+https with ?cacert=FILE in the store URL' '
	tls="clickhouse+https://amdahl@127.0.0.1:$(cat "$CHDIR/https_port")" &&
	{ [ -f "$TMP/other.crt" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other" \
		-keyout "$TMP/other.key" -out "$TMP/other.crt" 2>/dev/null; } &&
	{ [ -f "$TMP/tls.db" ] || "$AMDAHL" --store "$TMP/tls.db" ingest -q "$DATA/dataloader-workers"; } &&
	mkdir -p "$TMP/ca & dir" && cp "$CHDIR/tls.crt" "$TMP/ca & dir/tls.crt" &&
	ca=$(printf %s "$TMP/ca & dir/tls.crt" | sed "s/%/%25/g; s/&/%26/g; s/ /%20/g") &&
	env -u AMDAHL_CLICKHOUSE_CACERT "$AMDAHL" --store "$tls/tlsq?cacert=$ca" ingest -q "$DATA/dataloader-workers" &&
	env -u AMDAHL_CLICKHOUSE_CACERT "$AMDAHL" --store "$tls/tlsq?cacert=$ca" stats --json |
		sed "s|$tls/tlsq?cacert=$ca|STORE|" >"$TMP/tlsq.json" &&
	"$AMDAHL" --store "$TMP/tls.db" stats --json | sed "s|$TMP/tls.db|STORE|" >"$TMP/tlsq-sq.json" &&
	test_true "stats with ?cacert= are SQLite'"'"'s" cmp -s "$TMP/tlsq-sq.json" "$TMP/tlsq.json" &&
	test_status 0 env AMDAHL_CLICKHOUSE_CACERT="$TMP/other.crt" "$AMDAHL" --store "$tls/tlsq?cacert=$ca" runs &&
	test_status 2 env AMDAHL_CLICKHOUSE_CACERT="$CHDIR/tls.crt" "$AMDAHL" --store "$tls/tlsq?cacert=$TMP/other.crt" runs &&
	test_eq 1 "$(wc -l <"$TMP/err")" && test_contains "?cacert= did not verify it" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$tls/tlsq?cacert=$TMP/nope.crt" runs &&
	test_contains "?cacert=: cannot read $TMP/nope.crt" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$(echo "$tls" | sed "s/+https//")/tlsq?cacert=$ca" runs &&
	test_contains "?cacert= verifies a TLS server" "$ERR" &&
	test_status 2 env -u AMDAHL_CLICKHOUSE_CACERT "$AMDAHL" --store "$tls/tlsq?cacert=" runs &&
	test_contains "cacert=FILE" "$ERR" &&
	test_status 2 env -u AMDAHL_CLICKHOUSE_CACERT "$AMDAHL" --store "$tls/tlsq" runs &&
	test_contains "?cacert=FILE (or \$AMDAHL_CLICKHOUSE_CACERT)" "$ERR"
'


# The server paused (SIGSTOP) during an ingest of 120 units: the first
# request to find it stopped fails after $AMDAHL_CLICKHOUSE_STALL (2 s),
# and the units after it are not sent ("not sent: the server stopped
# answering an earlier request"), so the command ends within a few
# limits — before, each unit waited its own (20 × 2 s and more).
test_expect_success CLICKHOUSE 'a paused server ends an ingest of many units within a few stall limits' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/gen2" 120 8 5 &&
	"$AMDAHL" --store "$(url paused)" ingest -q "$DATA/dataloader-workers" &&
	"$AMDAHL" --store "$TMP/paused.db" ingest -q "$DATA/dataloader-workers" &&
	spid=$(cat "$CHDIR/pid") && n0=$(ch "SELECT count() FROM paused.source") || return 1
	( export AMDAHL_CLICKHOUSE_STALL=2; exec "$AMDAHL" --store "$(url paused)" ingest -q "$TMP/gen2" \
		>"$TMP/p.out" 2>"$TMP/p.err" ) &
	cpid=$!
	# paused once the first unit is committed: in the units, past the store
	# check. The client is stopped first, so it cannot commit the rest while
	# the server is being paused (under load it did: one line, case failed)
	for _ in $(seq 1 600); do
		[ "$(ch "SELECT count() FROM paused.source")" -gt "$n0" ] && break
		sleep 0.05
	done
	kill -STOP "$cpid" && n1=$(ch "SELECT count() FROM paused.source") &&
	echo "# client stopped with $((n1 - n0)) of 120 units committed" >&2 &&
	test_true "units left to send when the server pauses" [ "$((n1 - n0))" -lt 120 ] &&
	kill -STOP "$spid" && t0=$(date +%s) && kill -CONT "$cpid" || { kill -CONT "$cpid" "$spid"; wait $cpid; return 1; }
	wait $cpid; rc=$?
	took=$(($(date +%s) - t0))
	kill -CONT "$spid"
	echo "# paused server: exit $rc after $took s; $(grep -c . "$TMP/p.err") lines:" >&2
	sed "s/^/#   /" "$TMP/p.err" >&2
	test_eq 2 "$rc" &&
	test_true "units failed after the pause" [ "$(grep -c . "$TMP/p.err")" -ge 2 ] &&
	test_true "within a few 2 s limits, not one per unit" [ "$took" -le 12 ] &&
	test_contains "stopped answering" "$(head -1 "$TMP/p.err")" &&
	# every line names the stalled server, but the closing one when units
	# were left unread ("stopped at the store'"'"'s failure above: K of N units
	# not read"): it comes when the stall hit a batch before the others
	# were taken, as under load (ingest_jobs.sh checks its count)
	test_eq "" "$(grep -v "stopped answering" "$TMP/p.err" | grep -v "^amdahl ingest: stopped at the store'"'"'s failure above: [0-9]* of 120 units not read;")" &&
	"$AMDAHL" --store "$(url paused)" ingest -q "$TMP/gen2" &&
	"$AMDAHL" --store "$TMP/paused.db" ingest -q "$TMP/gen2" &&
	same_json paused stats
'


# A batch committed, then its clean-up failed: `param` swapped for a Log
# table (the server takes its rows and reads them, and answers an
# ALTER … DELETE with an error), so removing the attempts the batch
# replaces fails after its commit row. The unit is written ("1
# replaced", as SQLite says), one line says what failed, what is left and
# that readers do not see it, exit 2; readers see the new version
# (SQLite'"'"'s output); the next ingest removes what was left. Before, the
# committed unit was reported failed.
test_expect_success CLICKHOUSE,SQLITE3 'a clean-up that fails after its batch committed: the unit kept, the rows left reported, then removed' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/cu" 4 8 5 &&
	"$AMDAHL" --store "$(url cu)" ingest -q "$TMP/cu" && "$AMDAHL" --store "$TMP/cu.db" ingest -q "$TMP/cu" &&
	f=$(ls -d "$TMP"/cu/mlruns/*/*/metrics | head -1)/m0 && echo "1795347873199 1.5 100" >>"$f" &&
	ch "RENAME TABLE cu.param TO cu.param_mt" && ch "CREATE TABLE cu.param AS cu.param_mt ENGINE = Log" &&
	test_status 2 "$AMDAHL" --store "$(url cu)" ingest "$TMP/cu" &&
	cp "$TMP/out" "$TMP/cu.ch" && cp "$TMP/err" "$TMP/cu.err" &&
	ch "INSERT INTO cu.param_mt SELECT * FROM cu.param" && ch "DROP TABLE cu.param" &&
	ch "RENAME TABLE cu.param_mt TO cu.param" &&
	"$AMDAHL" --store "$TMP/cu.db" ingest "$TMP/cu" >"$TMP/cu.sq" &&
	test_contains "0 added, 1 replaced, 3 unchanged, 0 failed" "$(cat "$TMP/cu.sq")" &&
	test_true "the summary is SQLite'"'"'s" cmp -s "$TMP/cu.sq" "$TMP/cu.ch" &&
	test_eq 1 "$(wc -l <"$TMP/cu.err")" &&
	test_contains "committed; removing the attempts it replaces" "$(cat "$TMP/cu.err")" &&
	test_contains "committed and kept: 1 unit(s), which readers see; the older versions they replace stay in the store, seen by no reader, until the next ingest into it removes them" "$(cat "$TMP/cu.err")" &&
	test_eq 1 "$(ch "SELECT count() FROM cu.source WHERE id NOT IN (SELECT aid FROM cu.committed)")" &&
	same_json cu runs && same_json cu stats &&
	"$AMDAHL" --store "$(url cu)" ingest "$TMP/cu" >"$TMP/cu.ch2" &&
	test_contains "0 added, 0 replaced, 4 unchanged" "$(cat "$TMP/cu.ch2")" &&
	left="SELECT (SELECT count() FROM cu.source WHERE id NOT IN (SELECT aid FROM cu.committed)) + (SELECT count() FROM cu.metric_point WHERE src NOT IN (SELECT aid FROM cu.committed))" &&
	for _ in $(seq 1 100); do [ "$(ch "$left")" = 0 ] && break; sleep 0.1; done &&
	test_eq 0 "$(ch "$left")" && same_json cu stats
'

# The same failure under `push`: the changed source is committed and
# counted as replaced, one line says what was left, exit 2; the next
# push removes what was left. Before, push stopped at that source with
# "committed; removing …" and counted nothing.
test_expect_success CLICKHOUSE,SQLITE3 'push: a clean-up that fails after a source committed counts it, reports the rows left, and the next push removes them' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/cp" 4 8 5 &&
	"$AMDAHL" --store "$TMP/cp.db" ingest -q "$TMP/cp" &&
	"$AMDAHL" --store "$TMP/cp.db" push --to "$(url cp)" >/dev/null &&
	f=$(ls -d "$TMP"/cp/mlruns/*/*/metrics | head -1)/m0 && echo "1795347873199 1.5 100" >>"$f" &&
	"$AMDAHL" --store "$TMP/cp.db" ingest -q "$TMP/cp" &&
	ch "RENAME TABLE cp.param TO cp.param_mt" && ch "CREATE TABLE cp.param AS cp.param_mt ENGINE = Log" &&
	test_status 2 "$AMDAHL" --store "$TMP/cp.db" push --to "$(url cp)" &&
	test_eq "0 pushed, 1 replaced, 3 unchanged" "$(cat "$TMP/out")" &&
	test_eq 1 "$(wc -l <"$TMP/err")" &&
	test_contains "committed; removing the attempts it replaces" "$(cat "$TMP/err")" &&
	test_contains "committed and kept: 1 source(s), which readers see; the older versions they replace stay in the store, seen by no reader, until the next push or ingest into it removes them" "$(cat "$TMP/err")" &&
	ch "INSERT INTO cp.param_mt SELECT * FROM cp.param" && ch "DROP TABLE cp.param" &&
	ch "RENAME TABLE cp.param_mt TO cp.param" &&
	test_eq 1 "$(ch "SELECT count() FROM cp.source WHERE id NOT IN (SELECT aid FROM cp.committed)")" &&
	same_json cp runs && same_json cp stats &&
	"$AMDAHL" --store "$TMP/cp.db" push --to "$(url cp)" >"$TMP/cp.p2" &&
	test_eq "0 pushed, 0 replaced, 4 unchanged" "$(cat "$TMP/cp.p2")" &&
	left="SELECT (SELECT count() FROM cp.source WHERE id NOT IN (SELECT aid FROM cp.committed)) + (SELECT count() FROM cp.metric_point WHERE src NOT IN (SELECT aid FROM cp.committed))" &&
	for _ in $(seq 1 100); do [ "$(ch "$left")" = 0 ] && break; sleep 0.1; done &&
	test_eq 0 "$(ch "$left")" && same_json cp stats
'

# the server's JSON writes bytes that are not UTF-8 as one U+FFFD: the
# reader fetches strings as hex (ch_load.c), so names and paths come back
# byte for byte (hostile.sh runs the same names through every command)
test_expect_success CLICKHOUSE,SQLITE3 'a strategy and a path that are not UTF-8 come back byte for byte' '
	d="$TMP/$(printf "bad\377dir")" && rm -rf "$d" && cp -r "$DATA/cpu-strong-scaling/mlruns" "$d" &&
	for f in $(grep -rlx fsdp "$d" --include=strategy); do printf "fsdp\377\376<b>" >"$f"; done &&
	"$AMDAHL" --store "$(url bad8)" ingest -q "$d" && "$AMDAHL" --store "$TMP/bad8.db" ingest -q "$d" &&
	same_json bad8 runs && same_json bad8 stats &&
	same_json bad8 gate --baseline cpu-strong-scaling:ddp --candidate "cpu-strong-scaling:$(printf "fsdp\377\376<b>")" &&
	"$AMDAHL" --store "$(url bad8)" ingest "$d" >"$TMP/bad8.out" 2>&1 &&
	test_contains "0 added, 0 replaced, 59 unchanged" "$(cat "$TMP/bad8.out")" &&
	"$AMDAHL" --store "$(url bad8)" pull --to "$TMP/bad8-pulled.db" >/dev/null &&
	test_eq "$(sqlite3 "$TMP/bad8.db" "SELECT hex(path) FROM source ORDER BY path LIMIT 1")" \
		"$(sqlite3 "$TMP/bad8-pulled.db" "SELECT hex(path) FROM source ORDER BY path LIMIT 1")" &&
	test_contains "$(printf "bad\377dir" | od -An -tx1 | tr -d " \n" | tr a-f A-F)" \
		"$(sqlite3 "$TMP/bad8-pulled.db" "SELECT hex(path) FROM source ORDER BY path LIMIT 1")"
'

test_expect_success CLICKHOUSE 'a path with a tab, a newline and a backslash is known on its second ingest' '
	d="$TMP/$(printf "tab\there\\\\back\nline")" && rm -rf "$d" && cp -r "$DATA/cpu-strong-scaling/mlruns" "$d" &&
	"$AMDAHL" --store "$(url esc)" ingest -q "$d" && "$AMDAHL" --store "$TMP/esc.db" ingest -q "$d" &&
	"$AMDAHL" --store "$(url esc)" ingest "$d" >"$TMP/esc.out" 2>&1 &&
	test_contains "0 added, 0 replaced, 59 unchanged" "$(cat "$TMP/esc.out")" &&
	printf "1795347873199 901.5 3\n" >>"$d/4/35b98d95cb2449f9a3df172d0213ebd2/metrics/throughput_samples_per_s" &&
	"$AMDAHL" --store "$(url esc)" ingest "$d" >"$TMP/esc.ch" 2>&1 &&
	"$AMDAHL" --store "$TMP/esc.db" ingest "$d" >"$TMP/esc.sq" 2>&1 &&
	test_contains "0 added, 1 replaced, 58 unchanged" "$(cat "$TMP/esc.sq")" &&
	test_eq "$(grep -o "[0-9]* added.*" "$TMP/esc.sq")" "$(grep -o "[0-9]* added.*" "$TMP/esc.ch")" &&
	same_json esc runs && same_json esc stats
'

# Request compression (?compress=gzip; Debian's 18.16 takes gzip and
# deflate request bodies, not zstd): the metric points, shipped straight
# from the packed series, arrive whole and in order, and read back as
# SQLite's; an unknown method is one line before any request.
test_expect_success CLICKHOUSE 'ingest with ?compress=gzip: the same points in the same order, the same output' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/gz" 6 64 &&
	"$AMDAHL" --store "$(url gz)?compress=gzip" ingest -q "$TMP/gz" &&
	"$AMDAHL" --store "$(url gzplain)" ingest -q "$TMP/gz" &&
	"$AMDAHL" --store "$TMP/gz.db" ingest -q "$TMP/gz" &&
	pts="SELECT run_id, key_id, step, ts_ms, value, rn FROM metric_point ORDER BY run_id, key_id, rn" &&
	test_eq "$(ch "${pts/metric_point/gzplain.metric_point}" | md5sum)" \
		"$(ch "${pts/metric_point/gz.metric_point}" | md5sum)" &&
	test_eq "$("$AMDAHL" --store "$TMP/gz.db" sql "SELECT count(*) FROM metric_point" | tail -1)" \
		"$(ch "SELECT count() FROM gz.metric_point")" &&
	same_text gz stats && same_json gz stats && same_json gz runs &&
	test_status 2 "$AMDAHL" --store "$(url gz)?compress=zstd" stats &&
	test_contains "compress=gzip|none" "$ERR"
'

# A unit reporting many runs (one mlflow.db of a team's sweeps:
# bench/gen_store_10k.py) asks the server once which runs it holds, not
# once per run (10,000 lookups made the 10,000-run store's ingest take
# minutes); a second file sharing 40 of its 60 runs still merges with
# the held ones, as on SQLite.
test_expect_success CLICKHOUSE 'a unit of 40 runs looks its runs up in one list; held runs still merge' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_store_10k.py" "$TMP/team40.db" 2 20 5 >/dev/null &&
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_store_10k.py" "$TMP/team60.db" 3 20 5 >/dev/null &&
	a=$(run_lookups) && "$AMDAHL" --store "$(url team)" ingest -q "$TMP/team40.db" && b=$(run_lookups) &&
	echo "# run lookups for 40 new runs: $((b - a))" >&2 &&
	test_true "at most 10 run lookups for 40 runs (was 40)" [ $((b - a)) -le 10 ] &&
	"$AMDAHL" --store "$(url team)" ingest -q "$TMP/team60.db" &&
	"$AMDAHL" --store "$TMP/team.db" ingest -q "$TMP/team40.db" "$TMP/team60.db" &&
	same_json team runs && same_json team stats && same_json team stats --sweep team-sweep-001
'

# Many units of one run each (an MLflow file store: a unit per run) do
# not fetch a run the server does not hold, not the reader's query per
# unit (r10-37b: a third of a small unit's requests and half the server
# time of 1,000 small runs). Into an empty (or small) store a batch asks
# once, for the list of its few runs (ch_seed.c list_small_store), not
# each unit by key (r13-37: one request per unit, 0.72 -> 1.65 requests
# per unit for 1,000 small runs). A unit whose run the server holds
# still merges with it: a run's metric file added after its first ingest.
test_expect_success CLICKHOUSE 'one-run units do not fetch the runs the server lacks, nor ask each of an empty store; a held run still merges' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/small40" 40 1 3 5 >/dev/null &&
	a=$(run_lookups) && q=$(run_asks) &&
	"$AMDAHL" --store "$(url small40)" ingest -q "$TMP/small40/mlruns" &&
	b=$(run_lookups) && r=$(run_asks) &&
	echo "# run lookups for 40 one-run units: $((b - a)); questions whether a run is held: $((r - q))" >&2 &&
	test_true "at most 8 run lookups for 40 one-run units (was 40)" [ $((b - a)) -le 8 ] &&
	test_true "at most 8 questions whether a run is held, for 40 units into an empty store (by key: 40)" [ $((r - q)) -le 8 ] &&
	"$AMDAHL" --store "$TMP/small40.db" ingest -q "$TMP/small40/mlruns" &&
	run=$(ls -d "$TMP"/small40/mlruns/*/*/metrics | head -1) &&
	sed "s/^\([0-9]*\) \([^ ]*\) /\1 1\2 /" "$run/epoch_time_s" >"$run/later_metric" &&
	"$AMDAHL" --store "$(url small40)" ingest -q "$TMP/small40/mlruns" &&
	"$AMDAHL" --store "$TMP/small40.db" ingest -q "$TMP/small40/mlruns" &&
	test_eq 40 "$("$AMDAHL" --store "$(url small40)" sql "SELECT count(DISTINCT ext_id) FROM run" | tail -1)" &&
	same_json small40 runs && same_json small40 stats && same_text small40 stats
'

# The units of a batch ask their state (held, changed, a copy: before
# the hash for a large file, after it, and again at the unit's finish)
# of one list of the store's sources, made at the batch's first
# question (ch_state.c), not of one query each: 40 one-run units asked
# 80 times (r11-37: 2,000 of 2,625 requests for 1,000 small runs). The
# answers stay those SQLite gives: all added, all unchanged, then one
# changed file replaced.
test_expect_success CLICKHOUSE 'one-run units of a batch ask their state of one list; added, unchanged and replaced as on SQLite' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/st40" 40 1 3 5 >/dev/null &&
	for k in 1 2 3; do
		if test $k = 3; then
			run=$(ls -d "$TMP"/st40/mlruns/*/*/metrics | sed -n 7p) &&
			sed -i "1s/^\([0-9]*\) \([^ ]*\) /\1 1\2 /" "$run/epoch_time_s" || return 1
		fi
		a=$(state_asks) && same_text st40 ingest "$TMP/st40/mlruns" && b=$(state_asks) &&
		sed -n 1,3p "$TMP/ch.out" | sed "s/^/# /" >&2 &&
		echo "# state questions for 40 one-run units, ingest $k: $((b - a))" >&2 &&
		test_true "at most 8 state questions for 40 units (was 80)" [ $((b - a)) -le 8 ] || return 1
	done &&
	grep -q "1 replaced" "$TMP/ch.out" &&
	same_json st40 runs && same_json st40 stats && same_text st40 stats
'

# A batch asks its state questions of a list of its own units' paths and
# of the paths holding their bytes (engine.c claims and hashes them
# ahead; ch_state.c amd_ch_sources_expect), not of every path of the
# store: a list of every path was ~3 MB per batch at 19,000 paths (r12-37:
# 240 MB for 1,000 new units). In a store of 300 paths, 20 new units and
# a copy of a held run folder (a DUPLICATE: found by its bytes) get the
# rows of their own paths and of the copied one, not 300 a list; the
# outcome is SQLite's.
test_expect_success CLICKHOUSE 'a batch lists its own units'"'"' sources, not the store'"'"'s; a copy is still found by its bytes' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/lst" 300 1 1 2 >/dev/null &&
	GEN_SWEEP_FIRST=1000 /usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/lst2" 20 1 1 2 >/dev/null &&
	"$AMDAHL" --store "$(url lst)" ingest -q "$TMP/lst/mlruns" && "$AMDAHL" --store "$TMP/lst.db" ingest -q "$TMP/lst/mlruns" &&
	held=$(ls -d "$TMP"/lst/mlruns/4/*/ | sed -n 5p) && cp -r "$held" "$TMP/lst2/mlruns/4/" &&
	rows="SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND query LIKE '"'"'SELECT hex(path), argMax(sha256%'"'"'" &&
	logged "SYSTEM FLUSH LOGS" && a=$(logged "$rows") &&
	same_text lst ingest "$TMP/lst2/mlruns" &&
	logged "SYSTEM FLUSH LOGS" && b=$(logged "$rows") &&
	echo "# $(head -1 "$TMP/ch.out"); state rows for 21 units in a store of 300 paths: $((b - a))" >&2 &&
	test_contains "20 added, 0 replaced, 1 unchanged" "$(cat "$TMP/ch.out")" &&
	test_true "the batch'"'"'s own rows, not the store'"'"'s 300 ($((b - a)))" [ $((b - a)) -le 50 ] &&
	same_json lst runs && same_json lst stats
'

# A run a unit names is looked up on the server by its ext_id, the key
# of the run table (ch_seed.c held_point: one granule read, one id
# sent), not in a list of every run the store holds, made per batch
# (r12-37: ~3 MB read and ~0.4 MB sent per batch at 19,000 runs), once
# the store holds more run rows than a batch lists (SMALL_STORE, 4,096:
# here 5,000 rows of an attempt never committed, which no reader keeps).
# In a store of 300 runs, 20 new runs and a changed copy of a held run
# folder (it names the held run: fetched and merged, as SQLite's writer
# joins it) get answers about their own 21 runs, not the store's 300
# ids; exactly one run is fetched; the outcome is SQLite's.
test_expect_success CLICKHOUSE 'a unit'"'"'s run is looked up by its key, not in a list of the store'"'"'s runs; a held run is still found' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/hr" 300 1 1 2 >/dev/null &&
	GEN_SWEEP_FIRST=1000 /usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/hr2" 20 1 1 2 >/dev/null &&
	"$AMDAHL" --store "$(url hr)" ingest -q "$TMP/hr/mlruns" && "$AMDAHL" --store "$TMP/hr.db" ingest -q "$TMP/hr/mlruns" &&
	logged "INSERT INTO hr.run (id, ext_id, src, rn) SELECT number, concat('"'"'never-committed-'"'"', toString(number)), -1, 0 FROM numbers(5000)" &&
	held=$(ls -d "$TMP"/hr/mlruns/4/*/ | sed -n 5p) && cp -r "$held" "$TMP/hr2/mlruns/4/" &&
	copy="$TMP/hr2/mlruns/4/$(basename "$held")" &&
	sed -i "1s/^\([0-9]*\) \([^ ]*\) /\1 1\2 /" "$copy/metrics/epoch_time_s" &&
	sent="SELECT sum(result_bytes) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND query LIKE '"'"'%x FROM run %'"'"'" &&
	fetched="SELECT count() FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND query LIKE '"'"'SELECT id, sweep_id, hex(ext_id)%AND (ext_id = %'"'"'" &&
	logged "SYSTEM FLUSH LOGS" && a=$(logged "$sent") && f=$(logged "$fetched") &&
	same_text hr ingest "$TMP/hr2/mlruns" &&
	logged "SYSTEM FLUSH LOGS" && b=$(logged "$sent") && g=$(logged "$fetched") &&
	echo "# $(head -1 "$TMP/ch.out"); run ids sent for 21 units in a store of 300 runs: $((b - a)) bytes; runs fetched: $((g - f))" >&2 &&
	test_contains "21 added, 0 replaced, 0 unchanged" "$(cat "$TMP/ch.out")" &&
	test_true "answers about the 21 units'"'"' runs, not the store'"'"'s 300 ids ($((b - a)) bytes)" [ $((b - a)) -le 1500 ] &&
	test_true "one held run fetched ($((g - f)))" [ $((g - f)) -eq 1 ] &&
	same_json hr runs && same_json hr stats
'

# The check an ingest ends with (its units linked to no run, cmd/ingest.c
# find_orphans) loads the committed attempts of the ingest's own paths
# and of the runs their rows name or their GPU samples fall in
# (ch_scope.c amd_ch_scope_orphans), not the orphan tables of the whole
# store: r13-37 measured ~130 MB read per ingest at 19,000 paths. In a
# store of 300 runs, the GPU sweep's runs and 20 orphaned traces, one
# ingest of 20 new runs, two new traces of no run, a held orphan
# (unchanged) and a GPU log whose samples fall in the held GPU runs
# (linked by time) is sent the source and run rows of those and of the
# GPU sweep's runs (108), not the store's (727); what it reports (3
# linked to no run: the GPU log is not, the warnings) is SQLite's.
test_expect_success CLICKHOUSE 'the orphan check after an ingest loads its own units'"'"' part, not the store; it says what SQLite says' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/orf" 300 1 1 2 >/dev/null &&
	GEN_SWEEP_FIRST=1000 /usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/orf2" 20 1 1 2 >/dev/null &&
	mkdir -p "$TMP/orft" "$TMP/orft2" &&
	find "$DATA/cpu-strong-scaling/mlruns" -name "*.pt.trace.json.gz" | sort | sed -n 1,20p | xargs -I{} cp {} "$TMP/orft/" &&
	find "$DATA/cpu-strong-scaling/mlruns" -name "*.pt.trace.json.gz" | sort | sed -n 21,22p | xargs -I{} cp {} "$TMP/orft2/" &&
	test_eq 2 "$(ls "$TMP/orft2" | wc -l)" &&
	for s in "$(url orf)" "$TMP/orf.db"; do
		"$AMDAHL" --store "$s" ingest -q "$TMP/orf/mlruns" "$TMP/orft" "$DATA/gpu-batch-sweep/mlruns" || return 1
	done &&
	held=$(ls "$TMP"/orft/* | head -1) &&
	rows="SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND (query LIKE '"'"'%FROM run ANY LEFT JOIN (SELECT id AS src, committed_ns%'"'"' OR query LIKE '"'"'SELECT id, hex(path), kind%'"'"')" &&
	logged "SYSTEM FLUSH LOGS" && a=$(logged "$rows") &&
	same_text orf ingest "$TMP/orf2/mlruns" "$TMP/orft2" "$held" "$DATA/gpu-batch-sweep/nvidia-smi.csv" &&
	logged "SYSTEM FLUSH LOGS" && b=$(logged "$rows") &&
	echo "# $(head -1 "$TMP/ch.out"); source and run rows loaded for 24 units in a store of over 320 sources: $((b - a))" >&2 &&
	test_contains "23 added, 0 replaced, 1 unchanged, 0 failed" "$(cat "$TMP/ch.out")" &&
	test_contains "; 3 linked to no run" "$(cat "$TMP/ch.out")" &&
	test_true "the same warnings" cmp -s "$TMP/sq.err" "$TMP/ch.err" &&
	test_true "source and run rows of the ingest'"'"'s part, not the store'"'"'s ($((b - a)); was 727)" [ $((b - a)) -le 200 ] &&
	same_json orf runs --orphans
'

# A unit whose message holds the words libcurl uses for a server that
# cannot be reached (here in its path) fails alone and the ingest goes
# on, as on SQLite: the transport marks a request that got no answer
# (ch_http.c), nothing reads the message. Before, ch_target.c matched
# those words and stopped the ingest ("6 not read (the store failed)").
test_expect_success CLICKHOUSE 'a unit whose message holds libcurl'"'"'s words fails alone; the ingest goes on' '
	d="$TMP/curlwords" && rm -rf "$d" && mkdir -p "$d" && cp -r "$DATA/dataloader-workers/mlruns" "$d/" &&
	printf "{\"traceEvents\": [{\"ph\": " >"$d/Failure when receiving data from the peer.pt.trace.json" &&
	printf "{\"traceEvents\": [{\"ph\": " >"$d/the server stopped answering.pt.trace.json" &&
	test_status 2 "$AMDAHL" --store "$(url curlwords)" ingest "$d" &&
	ch_out=$OUT && ch_err=$ERR &&
	test_status 2 "$AMDAHL" --store "$TMP/curlwords.db" ingest "$d" &&
	test_contains "6 added, 0 replaced, 0 unchanged, 2 failed" "$ch_out" &&
	test_eq "$OUT" "$ch_out" && test_eq "$ERR" "$ch_err" &&
	same_json curlwords runs
'

# `runs` and `regions` have the server reduce the metric points to one
# per source, run and key (ch_reduce.c: the first step of each series;
# runs counts a run's keys, regions takes the sources of its runs) and
# `runs` loads only the tables it reads (runs.h's amd_runs_tables): their
# lists, --json, selectors and errors are SQLite's byte for byte on the
# bundled sweeps and a generated 20 x 64 sweep, and the rows the server
# sends for the sweep are about its series, not its points (before:
# every point, 16,360 rows).
test_expect_success CLICKHOUSE 'runs and regions get one point per series from the server: the same output, far fewer rows' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/genr" 20 64 &&
	for s in "$(url all)" "$TMP/all.db"; do
		"$AMDAHL" --store "$s" ingest -q "$TMP/genr" || return 1
	done &&
	for a in "" "--sweep gen-sweep" "--sweep gpu-batch-sweep" "--sweep sweep=gen-sweep,strategy=ddp" \
		"--sweep strategy=ddp,n>1" "--sweep strategy=ddp,n>99" "--sweep nosuch" "--sweep nosuch=1" \
		"--sources" "--orphans"; do
		same_text all runs $a || return 1
	done &&
	same_json all runs && same_json all runs --sweep gen-sweep &&
	same_json all runs --sweep cpu-strong-scaling &&
	for a in "cpu-strong-scaling -n 0" "gpu-batch-sweep" "strategy=ddp,n=2" "gen-sweep" \
		"cpu-strong-scaling --region aten::mm" "no-such-thing"; do
		same_text all regions $a || return 1
	done &&
	same_json all regions gpu-batch-sweep && same_json all regions dataloader-workers &&
	points=$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) FROM metric_point m JOIN run r ON r.id = m.run_id JOIN sweep s ON s.id = r.sweep_id WHERE s.name = '"'"'gen-sweep'"'"'" | tail -1) &&
	series=$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) FROM (SELECT DISTINCT m.run_id, m.key_id FROM metric_point m JOIN run r ON r.id = m.run_id JOIN sweep s ON s.id = r.sweep_id WHERE s.name = '"'"'gen-sweep'"'"')" | tail -1) &&
	got=$(moved runs --sweep gen-sweep) && reg=$(moved regions gen-sweep) &&
	echo "# runs --sweep gen-sweep: $got, regions gen-sweep: $reg (rows bytes) from the server; the sweep has $points points in $series series" >&2 &&
	test_true "runs: about one row per series, not per point" [ "${got% *}" -lt $((series + 1000)) ] &&
	test_true "runs: fewer rows than the sweep'"'"'s points" [ "${got% *}" -lt "$points" ] &&
	test_true "regions: about one row per series" [ "${reg% *}" -lt $((series + 1000)) ]
'

# `scaling`, `compare` and `gate` load, of the metric points, only those
# of the metrics they analyse (analysis_keys.c's list for the metric, and
# each name under gate.metrics): the same text and --json as SQLite, and
# a comparison within the 20 x 64 sweep gets fewer rows than the sweep's points.
test_expect_success CLICKHOUSE 'scaling, compare and gate load only the metrics they read: the same output, fewer rows' '
	[ -d "$TMP/genr" ] || /usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/genr" 20 64 &&
	for s in "$(url all)" "$TMP/all.db"; do
		"$AMDAHL" --store "$s" ingest -q "$TMP/genr" || return 1
	done &&
	printf "gate:\n  metrics:\n    f3:\n      direction: lower\n    train_loss:\n      direction: lower\n" >"$TMP/gm.yaml" &&
	for a in "scaling --sweep cpu-strong-scaling" "scaling --sweep gen-sweep" \
		"compare --baseline gen-sweep:ddp --candidate gen-sweep:fsdp --metric m0" \
		"gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp" \
		"--config $TMP/gm.yaml gate --baseline gen-sweep:ddp --candidate gen-sweep:fsdp --metric m0" \
		"--config $TMP/gm.yaml compare --baseline gen-sweep --candidate gen-sweep" \
		"gate --baseline gen-sweep --candidate gen-sweep --metric m00"; do
		same_text all $a || return 1
	done &&
	same_json all scaling --sweep cpu-strong-scaling &&
	same_json all --config "$TMP/gm.yaml" gate --baseline gen-sweep:ddp --candidate gen-sweep:fsdp --metric m0 &&
	points=$("$AMDAHL" --store "$TMP/all.db" sql "SELECT count(*) FROM metric_point m JOIN run r ON r.id = m.run_id JOIN sweep s ON s.id = r.sweep_id WHERE s.name = '"'"'gen-sweep'"'"'" | tail -1) &&
	got=$(moved compare --baseline gen-sweep:ddp --candidate gen-sweep:fsdp) &&
	echo "# compare of gen-sweep: $got (rows bytes) from the server; the sweep has $points points" >&2 &&
	test_true "compare: fewer rows than the sweep'"'"'s points" [ "${got% *}" -lt $((points / 2)) ]
'

# A sweep inside a many-sweep file (a team's mlflow.db of 10 sweeps x 20
# runs: bench/gen_store_10k.py) is read by its runs, not by the file
# that holds them: the server keeps, of each table naming a run (run,
# param, tag, metric_point, trace, ...; a trace's steps through their
# trace), the rows of the part's runs (ch_scope.c amd_ch_scope_rows).
# Before, `stats --sweep` of one sweep loaded every row of the file.
# `pull --sweep` still copies the file whole (a copy holds whole sources).
test_expect_success CLICKHOUSE 'a sweep inside one many-sweep mlflow.db is read by its runs: the same output, a tenth of the rows' '
	mkdir -p "$TMP/teamf" && /usr/bin/python3 "$AMDAHL_ROOT/bench/gen_store_10k.py" "$TMP/teamf/mlflow.db" 10 20 20 >/dev/null &&
	"$AMDAHL" --store "$(url teamfs)" ingest -q "$TMP/teamf/mlflow.db" &&
	"$AMDAHL" --store "$TMP/teamfs.db" ingest -q "$TMP/teamf/mlflow.db" &&
	for a in "stats --sweep team-sweep-004" "stats --sweep team-sweep-004 --metric epoch_time_s" \
		"runs --sweep team-sweep-004" "runs --sweep sweep=team-sweep-004,n>2" \
		"compare --baseline team-sweep-001 --candidate team-sweep-002" \
		"gate --baseline team-sweep-001 --candidate team-sweep-002" \
		"scaling --sweep team-sweep-003" "regions team-sweep-004" "stats --sweep team-sweep-999"; do
		same_text teamfs $a || return 1
	done &&
	same_json teamfs stats --sweep team-sweep-004 && same_json teamfs runs --sweep team-sweep-004 &&
	same_json teamfs compare --baseline team-sweep-001 --candidate team-sweep-002 &&
	same_json teamfs stats &&
	"$AMDAHL" pull --from "$(url teamfs)" --to "$TMP/teamfs-copy.db" --sweep team-sweep-004 &&
	test_eq 200 "$("$AMDAHL" --store "$TMP/teamfs-copy.db" sql "SELECT count(*) FROM run" | tail -1)" &&
	test_eq 12000 "$("$AMDAHL" --store "$TMP/teamfs-copy.db" sql "SELECT count(*) FROM metric_point" | tail -1)" &&
	points=$("$AMDAHL" --store "$TMP/teamfs.db" sql "SELECT count(*) FROM metric_point" | tail -1) &&
	a=$(log_total) && "$AMDAHL" --store "$(url teamfs)" stats --sweep team-sweep-004 --json >/dev/null &&
	b=$(log_total) &&
	rows=$(awk -v a="$a" -v b="$b" "BEGIN { split(a, x, \"\t\"); split(b, y, \"\t\"); print y[1] - x[1] }") &&
	echo "# stats --sweep team-sweep-004: $rows rows from the server; the file holds $points points of 10 sweeps" >&2 &&
	test_true "rows of one sweep, not of the file (< a quarter of its points)" [ "$rows" -lt $((points / 4)) ]
'

# `regions` loads only the tables regions.h reads (amd_regions_tables):
# a trace's collectives, phases and memory, a region's detail (one row
# per op: half the rows of a traced sweep) and call edges, the py-spy
# stacks stay on the server. The same text and --json as SQLite, no
# query of `regions` reads them (system.query_log), and a SQLite copy
# with those tables emptied answers the same (nothing reads them).
test_expect_success CLICKHOUSE,SQLITE3 'regions leaves the tables it does not read on the server: the same output, fewer rows' '
	skipped="trace_collective trace_phase trace_memory trace_memory_sample region_detail region_call_pack stack_node_pack frame" &&
	cp "$TMP/all.db" "$TMP/cut.db" &&
	for t in $skipped; do sqlite3 "$TMP/cut.db" "DELETE FROM $t" || return 1; done &&
	test_true "the sweeps have region details" [ "$(sqlite3 "$TMP/all.db" "SELECT count(*) FROM region_detail")" -gt 1000 ] &&
	for a in "cpu-strong-scaling -n 0" "gpu-batch-sweep" "dataloader-workers" "strategy=ddp,n=2" \
		"cpu-strong-scaling --region aten::mm" "$DATA/pyspy/train-raw.txt" "itwinai-layout"; do
		same_text all regions $a && cp "$TMP/sq.out" "$TMP/full.out" &&
		"$AMDAHL" --store "$TMP/cut.db" regions $a >"$TMP/cut.out" 2>/dev/null
		sed -i "s|$TMP/cut.db|STORE|g" "$TMP/cut.out" &&
		test_true "regions $a reads none of the tables left out" cmp -s "$TMP/full.out" "$TMP/cut.out" || return 1
	done &&
	same_json all regions cpu-strong-scaling -n 0 && same_json all regions gpu-batch-sweep &&
	logged "SYSTEM FLUSH LOGS" && t0=$(logged "SELECT toUInt64(now())") &&
	got=$(moved regions cpu-strong-scaling) &&
	logged "SYSTEM FLUSH LOGS" &&
	n=$(logged "SELECT count() FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'FROM (trace_collective|region_detail|trace_phase) '"'"')") &&
	echo "# regions cpu-strong-scaling: $got (rows bytes) from the server; queries reading a left-out table: $n" >&2 &&
	test_eq 0 "$n"
'

# `regions SWEEP` leaves the region rows (one per trace and region) on
# the server, which sums them per run and region (ch_reduce.c
# amd_ch_region_sums_sql; every sum an integer, so the same in any
# order); the list per configuration is built from those sums
# (regions.c sweep_top). Any other reading of the rows (a run, a file,
# a selector, --region) loads them first (store.h amd_store_need). On
# the bundled sweeps and a generated sweep of 6 runs x 8 rank traces
# (bench/gen_sweep.py), text and --json are SQLite's byte for byte, and
# the region rows sent for the sweep are about a rank's, not every
# rank's (before: every row of every trace). The dict rows (each source
# holds a copy of the strings it uses) come one per string (ch_load.c:
# the one a load keeps), not one per source and string.
test_expect_success CLICKHOUSE,SQLITE3 'regions of a sweep: the server sums the region rows per run, dict comes one row per string: the same output, far fewer rows' '
	for a in "cpu-strong-scaling -n 0" "gpu-batch-sweep -n 0" "dataloader-workers" "itwinai-layout -n 0" \
		"cpu-strong-scaling --kind op -n 0" "cpu-strong-scaling --source torch" "gpu-batch-sweep --kind kernel" \
		"cpu-strong-scaling --kind nosuch" "cpu-strong-scaling --region aten::mm" "strategy=ddp,n=2" "ddp-n8" \
		"$DATA/pyspy/train-raw.txt"; do
		same_text all regions $a || return 1
	done &&
	same_json all regions cpu-strong-scaling -n 0 && same_json all regions gpu-batch-sweep --kind kernel &&
	same_json all regions dataloader-workers -n 0 && same_json all regions cpu-strong-scaling --region aten::mm &&
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/gen68" 6 8 >/dev/null &&
	"$AMDAHL" --store "$(url regsum)" ingest -q "$TMP/gen68" &&
	"$AMDAHL" --store "$TMP/regsum.db" ingest -q "$TMP/gen68" &&
	for a in "cpu-strong-scaling -n 0" "cpu-strong-scaling --kind collective" "cpu-strong-scaling --region aten::mm" \
		"strategy=ddp" "ddp-n8"; do
		same_text regsum regions $a || return 1
	done &&
	same_json regsum regions cpu-strong-scaling -n 0 &&
	rows=$(q "$TMP/regsum.db" "SELECT count(*) FROM region") &&
	logged "SYSTEM FLUSH LOGS" && sleep 1 && t0=$(logged "SELECT toUInt64(now())") &&
	"$AMDAHL" --store "$(url regsum)" regions cpu-strong-scaling -n 0 --json >/dev/null &&
	logged "SYSTEM FLUSH LOGS" &&
	got=$(logged "SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'FROM region '"'"')") &&
	echo "# regions cpu-strong-scaling (6 runs x 8 ranks): $got region rows from the server; the store holds $rows" >&2 &&
	test_true "the sums came from the server" [ "$got" -gt 0 ] &&
	test_true "about one row per run and region, not per trace" [ "$got" -lt $((rows / 4)) ] &&
	strings=$(sqlite3 "$TMP/regsum.db" "SELECT count(*) FROM dict") &&
	dict=$(logged "SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'FROM dict ANY LEFT JOIN'"'"')") &&
	echo "# of them dict rows (the load and its ids): $dict; the store holds $strings strings" >&2 &&
	test_true "one dict row per string (and one id), not one per source" [ "$dict" -le $((2 * strings)) ]
'

# An ingest's requests (issue 37 item 3): a worker's units ship in
# batches (ch_target.c): one INSERT per table and one commit INSERT for
# the batch; per file only the two state checks and its run lookups are
# left. The bundled CPU sweep (59 files) made 13.3 requests a file
# before; now ~4. The tables are made first (a fresh store's ~25
# CREATE/schema requests are not per file). The rows stored are the
# same as one unit at a time: the reads are SQLite's.
test_expect_success CLICKHOUSE 'an ingest sends its files in batches: at most 6 requests a file, the same output' '
	"$AMDAHL" --store "$(url reqs)" ingest -q "$DATA/mllog" 2>/dev/null &&
	logged "SYSTEM FLUSH LOGS" && before=$(logged "SELECT count() FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 1") &&
	"$AMDAHL" --store "$(url reqs)" ingest -q "$DATA/cpu-strong-scaling" 2>/dev/null &&
	logged "SYSTEM FLUSH LOGS" && after=$(logged "SELECT count() FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 1") &&
	files=$("$AMDAHL" --store "$(url reqs)" sql "SELECT count() FROM source WHERE path LIKE '"'"'%cpu-strong-scaling%'"'"'" | tail -1) &&
	echo "# ingest of cpu-strong-scaling: $((after - before)) requests for $files files" >&2 &&
	test_true "$files files" [ "$files" -gt 50 ] &&
	test_true "at most 6 requests a file ($((after - before)) for $files)" [ $((after - before)) -le $((6 * files)) ] &&
	"$AMDAHL" --store "$TMP/reqs.db" ingest -q "$DATA/mllog" "$DATA/cpu-strong-scaling" 2>/dev/null &&
	same_json reqs runs && same_json reqs stats --sweep cpu-strong-scaling &&
	same_json reqs regions cpu-strong-scaling && same_text reqs scaling cpu-strong-scaling
'

# A file and its copy (the same bytes, the same run) in one batch: the
# copy is found a duplicate before it is read (engine.c, batch_twin), as
# one unit at a time finds it held. Before, the copy was parsed whole
# and only then reported unchanged: its parse warning came twice (a torn
# TensorBoard file warns). `--run` on such a folder, fresh or run-less
# before, links as on SQLite.
test_expect_success CLICKHOUSE,PYTHON 'a copy later in the same batch is not read: its warning once, unchanged, --run links as on SQLite' '
	mkdir -p "$TMP/twins/run1" "$TMP/twintr/run1" &&
	f=$(ls "$DATA"/tensorboard/tb-sweep/dp-n2-r1/events.out.tfevents.*) &&
	head -c $(($(stat -c %s "$f") - 5)) "$f" >"$TMP/twins/run1/events.out.tfevents.1" &&
	cp "$TMP/twins/run1/events.out.tfevents.1" "$TMP/twins/run1/events.out.tfevents.2" &&
	same_text twins ingest "$TMP/twins" &&
	test_contains "1 added, 0 replaced, 1 unchanged" "$(cat "$TMP/ch.out")" &&
	test_eq 1 "$(grep -c "is cut short" "$TMP/ch.err")" &&
	test_contains "events.out.tfevents.1: record" "$(cat "$TMP/ch.err")" &&
	"$AMDAHL" --store "$(url twinsj)" ingest --json "$TMP/twins" >"$TMP/twins.json" 2>/dev/null &&
	test_eq "added 1 unchanged 0" "$(json_get "$TMP/twins.json" "\" \".join(\"%s %d\" % (u[\"result\"], len(u[\"warnings\"])) for u in d[\"units\"])")" &&
	t=$(ls "$DATA"/cpu-strong-scaling/mlruns/4/308e74e2e53c41adb92c6e48dcb6847b/artifacts/traces/rank0.*) &&
	cp "$t" "$TMP/twintr/run1/a.pt.trace.json.gz" && cp "$t" "$TMP/twintr/run1/b.pt.trace.json.gz" &&
	same_text twinr ingest --sweep S --run R "$TMP/twintr" &&
	test_contains "1 added, 0 replaced, 1 unchanged" "$(cat "$TMP/ch.out")" &&
	same_text twinr runs --sources &&
	test_contains "name:S/R" "$(grep a.pt.trace "$TMP/ch.out")" &&
	same_text twinl ingest "$TMP/twintr" &&
	same_text twinl ingest --sweep S --run R "$TMP/twintr" &&
	test_contains "1 linked to a run" "$(cat "$TMP/ch.out")" &&
	same_text twinl runs --sources
'

# A batch's memory and its parts: a worker's units wait in memory until
# their batch ships. Parsed facts wait in a unit's queue; a unit whose
# queue fills (or queues holding 4 MB: engine.c BATCH_HELD) is staged at
# once into the batch's in-memory stores, and the batch is shipped in
# parts once those hold 16 MB (STAGED_HELD, ch_target.c batch_held) —
# each part an INSERT per table, a new part on the server for each.
# 16 runs of 100,000 points (2–3 MB staged each), one batch of 16
# units: before, every unit shipped alone (its queue filled: 16
# commits); unbounded, all 16 in one; now in parts of 5–8 units, 2 to 8
# commits. Peak RSS is printed (a target for bench/, not here).
test_expect_success CLICKHOUSE,GNU_TIME 'a batch is shipped in parts bounded by the memory they hold: 16 units of 100,000 points in 2 to 8 commits' '
	/usr/bin/python3 "$AMDAHL_ROOT/bench/gen_sweep.py" "$TMP/held" 16 1 10 10000 >/dev/null &&
	"$AMDAHL" --store "$(url held)" ingest -q "$DATA/mllog" 2>/dev/null &&
	commits() { logged "SYSTEM FLUSH LOGS" && logged "SELECT count() FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 1 AND query LIKE '"'"'INSERT INTO source (%'"'"'"; } &&
	before=$(commits) &&
	/usr/bin/time -f %M -o "$TMP/held.rss" "$AMDAHL" --store "$(url held)" ingest -q "$TMP/held" &&
	after=$(commits) &&
	echo "# 16 runs x 100,000 points: $((after - before)) commits, peak RSS $(($(cat "$TMP/held.rss") / 1024)) MB" >&2 &&
	test_true "2 to 8 commits ($((after - before)))" [ $((after - before)) -ge 2 ] &&
	test_true "2 to 8 commits ($((after - before)))" [ $((after - before)) -le 8 ] &&
	"$AMDAHL" --store "$TMP/held.db" ingest -q "$DATA/mllog" 2>/dev/null &&
	"$AMDAHL" --store "$TMP/held.db" ingest -q -j 2 "$TMP/held" &&
	same_json held runs && same_json held stats --sweep cpu-strong-scaling
'

# stats has the server compute each run's value of its metric (the
# median of the kept points, the MAD flags, the exclusions, samples and
# seconds: ch_reduce.c amd_ch_run_values_sql; analysis_run.c
# run_reduced): on a generated sweep whose series meet the edge cases
# (ties, odd and even counts, NaN, a negative, an infinity, an outlier,
# a step logged twice: tests/lib/gen_metric_sweep.py, seed 7) and on the
# bundled sweeps (runs with traces read their points) every output is
# SQLite's byte for byte, and the server sends of metric points only a
# few per run (the key sets) beside the memory peaks, not the series.
test_expect_success CLICKHOUSE 'stats: the server computes each run'"'"'s value: the same output, a few metric rows per run' '
	/usr/bin/python3 "$AMDAHL_ROOT/tests/lib/gen_metric_sweep.py" "$TMP/red" 20 41 7 &&
	"$AMDAHL" --store "$(url red)" ingest -q "$TMP/red" && "$AMDAHL" --store "$TMP/red.db" ingest -q "$TMP/red" &&
	for a in "" "--metric train_loss" "--metric throughput_samples_per_s" "--keep-first" \
		"--mad-k 1" "--mad-k 0.2 --metric train_loss" "--metric m0" "--aggregate mlperf" \
		"--by strategy --sweep gen-sweep"; do
		same_text red stats $a && same_json red stats $a || return 1
	done &&
	for a in "" "--sweep cpu-strong-scaling" "--sweep gpu-batch-sweep --mad-k 1" "--sweep mnist-scaling"; do
		same_text all stats $a && same_json all stats $a || return 1
	done &&
	runs=$("$AMDAHL" --store "$TMP/red.db" sql "SELECT count(*) FROM run" | tail -1) &&
	mem=$("$AMDAHL" --store "$TMP/red.db" sql "SELECT count(*) FROM metric_point m JOIN dict d ON d.id = m.key_id WHERE d.s = '"'"'max_memory_allocated_mb'"'"'" | tail -1) &&
	read=$("$AMDAHL" --store "$TMP/red.db" sql "SELECT count(*) FROM metric_point m JOIN dict d ON d.id = m.key_id WHERE d.s IN ('"'"'epoch_time_s'"'"', '"'"'throughput_samples_per_s'"'"', '"'"'train_loss'"'"')" | tail -1) &&
	for m in epoch_time_s train_loss m0; do
		logged "SYSTEM FLUSH LOGS" && sleep 1 && t0=$(logged "SELECT toUInt32(now())") &&
		"$AMDAHL" --store "$(url red)" stats --sweep gen-sweep --metric $m --json >/dev/null &&
		logged "SYSTEM FLUSH LOGS" &&
		got=$(logged "SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'FROM metric_point ANY LEFT JOIN'"'"')") &&
		vals=$(logged "SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'^SELECT run_id, length[(]a[)]'"'"')") &&
		echo "# stats --metric $m: $got metric_point rows and $vals run values from the server; $runs runs, $mem memory points, $read points of the three keys" >&2 &&
		test_true "the key sets and the memory peaks, not the series" [ "$got" -lt $((mem + read / 4)) ] &&
		test_true "one row of values per run" [ "$vals" -le "$runs" ] || return 1
	done
'

# A run read from its points (traces mark profiled epochs; also child
# runs, energy counters, a step logged twice) loads its own points of the
# three keys left on the server, and its child runs', not every run's of
# the read (amd_store_need_key: store.h load_runs): `stats --sweep
# cpu-strong-scaling` (8 of its runs traced) moves the key sets and the
# traced runs' points; before, the first traced run loaded every run's
# points of epoch time and throughput. Same output as SQLite.
test_expect_success CLICKHOUSE 'stats: a run read from its points loads its own, not every run'"'"'s of the read' '
	same_text all stats --sweep cpu-strong-scaling && same_json all stats --sweep cpu-strong-scaling &&
	same_json all stats --sweep gpu-batch-sweep &&
	logged "SYSTEM FLUSH LOGS" && sleep 1 && t0=$(logged "SELECT toUInt32(now())") &&
	"$AMDAHL" --store "$(url all)" stats --sweep cpu-strong-scaling --json >/dev/null &&
	logged "SYSTEM FLUSH LOGS" &&
	got=$(logged "SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'FROM metric_point ANY LEFT JOIN'"'"')") &&
	set -- $("$AMDAHL" --store "$TMP/all.db" sql "WITH r AS (SELECT r.id, EXISTS (SELECT 1 FROM trace t WHERE t.run_id = r.id) AS traced FROM run r JOIN sweep s ON s.id = r.sweep_id WHERE s.name = '"'"'cpu-strong-scaling'"'"'), p AS (SELECT m.source_id, m.run_id, m.key_id FROM metric_point m JOIN r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id WHERE d.s IN ('"'"'epoch_time_s'"'"', '"'"'throughput_samples_per_s'"'"')) SELECT (SELECT count(*) FROM (SELECT DISTINCT source_id, run_id, key_id FROM p)), (SELECT count(*) FROM p WHERE run_id IN (SELECT id FROM r WHERE traced)), (SELECT count(*) FROM p)" | tail -1 | tr "|\t" "  ") &&
	echo "# stats --sweep cpu-strong-scaling: $got metric_point rows from the server; $1 series, $2 points of traced runs, $3 points in all" >&2 &&
	test_true "the key sets and the traced runs'"'"' points ($got <= $1 + $2)" [ "$got" -le $(($1 + $2)) ] &&
	test_true "fewer than the key sets and every point ($got < $1 + $3)" [ "$got" -lt $(($1 + $3)) ]
'

# The load queries of a read of a few sources join only those sources,
# not all of source (ch_load.c listed): ClickHouse 18.16 builds a join's
# right side in memory from every row its SELECT reads, so each load
# query of a scoped read held every other source's path (r17-37: ~0.8 s
# a query at 400,000 sources, 117 MB). With 40,000 other (forgotten)
# sources of 200-byte paths, the least memory a load query of `stats
# --sweep dataloader-workers` takes grows by less than 6 MB (new: one
# 8,192-row granule of paths read; old: ~+10 MB, every path joined);
# the answers stay SQLite's. load_floor CMD… — the least memory_usage
# of CMD's load queries (its tables' rows, with the join) on wide.
load_floor() {
	logged "SYSTEM FLUSH LOGS" && sleep 1 && t0=$(logged "SELECT toUInt32(now())") &&
	"$AMDAHL" --store "$(url wide)" "$@" --json >/dev/null &&
	logged "SYSTEM FLUSH LOGS" &&
	logged "SELECT min(memory_usage) FROM system.query_log WHERE user = 'amdahl' AND type = 2 AND event_time >= toDateTime($t0) AND query LIKE '%ANY LEFT JOIN (SELECT id AS src, committed_ns, path AS src_path FROM source%'"
}
test_expect_success CLICKHOUSE 'a read of a few sources joins only those: load memory does not grow with the store' '
	for store in "$(url wide)" "$TMP/wide.db"; do
		"$AMDAHL" --store "$store" ingest -q "$DATA/dataloader-workers" "$DATA/gpu-batch-sweep" >/dev/null || return 1
	done &&
	a1=$(load_floor stats --sweep dataloader-workers) &&
	ch "INSERT INTO wide.source SELECT toInt64(cityHash64(number, '"'"'wide'"'"') % 9000000000000000000) + 1, concat('"'"'/history/$(printf "%0190d" 0)/'"'"', toString(number)), '"'"'mlflow-run'"'"', 491, '"'"''"'"', 1, 1 FROM numbers(40000)" &&
	test_eq 40000 "$(ch "SELECT count() FROM wide.source WHERE path LIKE '"'"'/history/%'"'"'")" &&
	a2=$(load_floor stats --sweep dataloader-workers) &&
	echo "# load queries'"'"' least memory: $a1 -> $a2 bytes with 40,000 other sources" >&2 &&
	test_true "within 6 MB ($a1 -> $a2)" [ "$a2" -lt $((a1 + 6000000)) ] &&
	same_json wide stats --sweep dataloader-workers && same_json wide runs --sweep gpu-batch-sweep
'

# A sweep of 2,000 runs (one MLflow database, bench/gen_store_10k.py):
# the query finding the part's sources named the runs' 38 KB list once
# for each table holding runs, ~390 KB, and the server refused it (Max
# query size exceeded: 256 KiB); the list now goes in as many queries as
# it needs (ch_scope.c sources_of). stats and runs of the sweep are
# SQLite's (the old code exits 2 on both).
test_expect_success CLICKHOUSE 'a sweep of 2,000 runs reads as SQLite does (no query over the server'"'"'s size limit)' '
	mkdir -p "$TMP/w2k" &&
	(cd "$AMDAHL_ROOT" && /usr/bin/python3 bench/gen_store_10k.py "$TMP/w2k/mlflow.db" 1 2000 3) >/dev/null &&
	"$AMDAHL" --store "$(url w2k)" ingest -q "$TMP/w2k/mlflow.db" &&
	"$AMDAHL" --store "$TMP/w2k.db" ingest -q "$TMP/w2k/mlflow.db" &&
	test_eq 2000 "$("$AMDAHL" --store "$TMP/w2k.db" sql "SELECT count(*) FROM run r JOIN sweep s ON s.id = r.sweep_id WHERE s.name = '"'"'team-sweep-000'"'"'" | tail -1)" &&
	same_json w2k stats --sweep team-sweep-000 && same_json w2k runs --sweep team-sweep-000
'

# A sweep of 300 runs whose first 200 two sources hold (two MLflow
# databases, bench/gen_store_10k.py): the server cannot reduce those 200
# (their series log each step twice), so `stats` reads their points. It
# loaded them one query a run (200 metric_point loads after the part's
# own); the store now loads a run with the next runs the read will read
# (store.c add_foreseen, up to 512 a query): 1 + ceil(200 / 512) loads.
# stats and runs of the sweep are SQLite's.
test_expect_success CLICKHOUSE 'a read of runs the server cannot reduce loads their points in batches, not a query a run' '
	mkdir -p "$TMP/w2s/a" "$TMP/w2s/b" &&
	(cd "$AMDAHL_ROOT" && /usr/bin/python3 bench/gen_store_10k.py "$TMP/w2s/a/mlflow.db" 1 300 3 &&
	 /usr/bin/python3 bench/gen_store_10k.py "$TMP/w2s/b/mlflow.db" 1 200 3) >/dev/null &&
	for store in "$(url w2s)" "$TMP/w2s.db"; do
		"$AMDAHL" --store "$store" ingest -q "$TMP/w2s/a/mlflow.db" "$TMP/w2s/b/mlflow.db" || return 1
	done &&
	loads="SELECT count() FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND query LIKE '"'"'SELECT run_id, key_id, step, ts_ms%'"'"'" &&
	logged "SYSTEM FLUSH LOGS" && a=$(logged "$loads") &&
	same_json w2s stats --sweep team-sweep-000 &&
	logged "SYSTEM FLUSH LOGS" && b=$(logged "$loads") &&
	echo "# metric point loads of stats: $((b - a))" >&2 &&
	test_true "at most 1 + ceil(200 / 512) + 1 loads ($((b - a)))" [ $((b - a)) -le 3 ] &&
	same_json w2s runs --sweep team-sweep-000
'

# The runs `stats` reads the points of although the server reduced
# their value: runs with per-rank traces (cpu-strong-scaling: the traces
# mark profiled epochs), runs logging energy counters (gpu-batch-sweep)
# and runs with child worker runs (itwinai-layout's mnist-scaling: their
# points fold in). They loaded one query a run (9, 25 and 7 metric_point
# loads with the part's own); the analysis now tells the store which runs
# it reads (amd_store_plan_reads) before it reads them, and the first
# run's load takes the others (store.c add_foreseen): 2 loads each, the
# same point rows (result_rows of the loads), output SQLite's.
test_expect_success CLICKHOUSE 'runs read for traces, energy or child runs load their points in one query, not one a run' '
	for d in cpu-strong-scaling gpu-batch-sweep itwinai-layout; do
		"$AMDAHL" --store "$(url pl)" ingest -q "$DATA/$d" &&
		"$AMDAHL" --store "$TMP/pl.db" ingest -q "$DATA/$d" || return 1
	done &&
	loads="SELECT count(), sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND query LIKE '"'"'SELECT run_id, key_id, step, ts_ms%'"'"'" &&
	for sweep in cpu-strong-scaling:96 gpu-batch-sweep:408 mnist-scaling:532; do
		logged "SYSTEM FLUSH LOGS" && a=$(logged "$loads") &&
		same_json pl stats --sweep "${sweep%:*}" &&
		logged "SYSTEM FLUSH LOGS" && b=$(logged "$loads") &&
		n=$((${b%%	*} - ${a%%	*})) && rows=$((${b##*	} - ${a##*	})) &&
		echo "# ${sweep%:*}: $n metric point loads, $rows rows" >&2 &&
		test_true "${sweep%:*}: at most 2 loads ($n)" [ "$n" -le 2 ] &&
		test_eq "${sweep#*:}" "$rows" || return 1
	done
'

# The orphan check after an ingest (cmd/ingest.c find_orphans) loads,
# of its units' traces, op averages, py-spy stacks and regions, only the
# rows of no run (ch_load.c owned_or_orphan; a GPU log's samples all,
# their runs found by time): ingesting the CPU sweep's traces and the
# py-spy files, the server sends as many region rows as the SQLite
# store of the same ingest holds of no run (before: every region row of
# the units), and the warnings and summary are SQLite's.
test_expect_success CLICKHOUSE 'the orphan check after an ingest loads only the rows of no run: the same warnings, the region rows of no run' '
	"$AMDAHL" --store "$TMP/orph.db" ingest "$DATA/cpu-strong-scaling" "$DATA/pyspy" >"$TMP/orph.sq" 2>&1 &&
	logged "SYSTEM FLUSH LOGS" && sleep 1 && t0=$(logged "SELECT toUInt64(now())") &&
	"$AMDAHL" --store "$(url orph)" ingest "$DATA/cpu-strong-scaling" "$DATA/pyspy" >"$TMP/orph.ch" 2>&1 &&
	test_true "the same warnings and summary as SQLite" cmp -s "$TMP/orph.sq" "$TMP/orph.ch" &&
	logged "SYSTEM FLUSH LOGS" &&
	got=$(logged "SELECT sum(result_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND match(query, '"'"'FROM region ANY LEFT JOIN'"'"')") &&
	want=$("$AMDAHL" --store "$TMP/orph.db" sql "SELECT count(*) FROM region WHERE run_id IS NULL" | tail -1) &&
	all=$("$AMDAHL" --store "$TMP/orph.db" sql "SELECT count(*) FROM region" | tail -1) &&
	echo "# orphan check: $got region rows from the server; the units hold $all, $want of no run" >&2 &&
	test_true "regions of no run and of runs" [ "$want" -gt 0 ] && test_true "more of runs" [ "$all" -gt $((want * 10)) ] &&
	test_eq "$want" "$got"
'

# A new store's source table has 256-row granules (ch_schema.c
# SOURCE_GRANULE): a look-up of a few paths (an ingest's state list, a
# read's sources) reads whole granules of source, a row per committed
# attempt. With 40,000 other sources, the state look-ups of re-ingesting
# a sweep of 10 files read at most a few granules each (old: 8,192-row
# granules, 8,192 rows and more a query); the re-ingest changes nothing.
test_expect_success CLICKHOUSE 'a new store'"'"'s source has small granules: a state look-up of a few paths among 40,000 reads a few hundred rows' '
	"$AMDAHL" --store "$(url gran)" ingest -q "$DATA/dataloader-workers" &&
	test_contains "index_granularity = 256" "$(ch "SHOW CREATE TABLE gran.source")" &&
	ch "INSERT INTO gran.source SELECT toInt64(cityHash64(number, '"'"'gran'"'"') % 9000000000000000000) + 1, concat('"'"'/history/'"'"', toString(number)), '"'"'mlflow-run'"'"', 491, '"'"''"'"', 1, 1 FROM numbers(40000)" &&
	ch "OPTIMIZE TABLE gran.source FINAL" &&
	logged "SYSTEM FLUSH LOGS" && sleep 1 && t0=$(logged "SELECT toUInt32(now())") &&
	"$AMDAHL" --store "$(url gran)" ingest "$DATA/dataloader-workers" >"$TMP/gran.out" 2>&1 &&
	test_contains "0 added, 0 replaced" "$(cat "$TMP/gran.out")" &&
	logged "SYSTEM FLUSH LOGS" &&
	read -r n most <<<"$(logged "SELECT count(), max(read_rows) FROM system.query_log WHERE user = '"'"'amdahl'"'"' AND type = 2 AND event_time >= toDateTime($t0) AND query LIKE '"'"'SELECT hex(path), argMax(sha256%'"'"'")" &&
	echo "# re-ingest among 40,000 other sources: $n state look-ups, at most $most rows read by one" >&2 &&
	test_true "a state look-up ran" [ "$n" -gt 0 ] &&
	test_true "at most 2,048 rows a look-up ($most)" [ "$most" -le 2048 ]
'

test_done
