#!/bin/bash
# hostile_store.sh — round three of hostile and careless use (issue 40):
# the store file a copy takes while another process reads it, pull --to
# over someone else's file, a FIFO as a store, runs --sweep's first line,
# --config naming a device, a damaged small gzip, a report build stopped
# by a signal, scaling --next's limit, and the two fuzz findings as cases
# of the suite. Numbers in the section titles are the issue's items.
test_description='hostile and careless use, round three: the store and its files'
. "$(dirname "$0")/../test-lib.sh"

# ---- 1. a reader open during an ingest: the .db alone is the whole store ----
# reader_open STORE SQL — a read-only SQLite connection that keeps STORE
# open after running SQL (as another amdahl process reading would), in
# the background, until reader_close; its input is a FIFO held open on
# descriptor 9.
reader_open() {
	rm -f "$TMP/reader.ctl" && mkfifo "$TMP/reader.ctl" &&
	{ sqlite3 -readonly -cmd "$2" "$1" <"$TMP/reader.ctl" >/dev/null & } &&
	exec 9>"$TMP/reader.ctl" &&
	sleep 1
}
reader_close() { exec 9>&-; wait; }
test_expect_success SQLITE3,SQLITE_STORE 'an ingest while another process keeps the store open leaves a whole .db' '
	"$AMDAHL" --store "$TMP/wal.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	reader_open "$TMP/wal.db" "SELECT count(*) FROM sqlite_master" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal.db" ingest -q "$DATA/gpu-batch-sweep" &&
	cp "$TMP/wal.db" "$TMP/wal-copy.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal-copy.db" runs &&
	test_contains "sweep gpu-batch-sweep" "$OUT" &&
	reader_close
'
test_expect_success SQLITE3,SQLITE_STORE 'a reader in the middle of a read: the ingest says what stayed in -wal and how to finish' '
	"$AMDAHL" --store "$TMP/wal2.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	reader_open "$TMP/wal2.db" "BEGIN; SELECT count(*) FROM sqlite_master;" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal2.db" ingest -q "$DATA/gpu-batch-sweep" &&
	test_contains "amdahl ingest: warning: $TMP/wal2.db: " "$ERR" &&
	test_contains "pages stay in $TMP/wal2.db-wal only" "$ERR" &&
	test_contains "PRAGMA wal_checkpoint" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)" &&
	reader_close &&
	sqlite3 "$TMP/wal2.db" "PRAGMA wal_checkpoint" >/dev/null &&
	cp "$TMP/wal2.db" "$TMP/wal2-copy.db" &&
	test_status 0 "$AMDAHL" --store "$TMP/wal2-copy.db" runs &&
	test_contains "sweep gpu-batch-sweep" "$OUT"
'

# ---- 2. pull --to replaces only a store, a new file or an empty one ----
# The target is checked before the server is asked: no server is needed
# (port 9 answers nothing), and a store the check lets through gets as
# far as connecting.
NOSERVER="clickhouse://amdahl@127.0.0.1:9/none"
file_digest() { sha256sum "$1" | cut -c1-64; }
test_expect_success PYTHON,SQLITE_STORE 'pull --to an MLflow tracking database is refused and leaves it byte for byte' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$DATA/cpu-strong-scaling/mlruns" "$TMP/forms" >/dev/null &&
	before=$(file_digest "$TMP/forms/mlflow.db") &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/forms/mlflow.db" &&
	test_eq "amdahl pull: $TMP/forms/mlflow.db: an MLflow tracking database, not an amdahl store; not replaced (name a new file, an empty one or a store)" "$ERR" &&
	test_eq "$before" "$(file_digest "$TMP/forms/mlflow.db")"
'
test_expect_success SQLITE3,SQLITE_STORE 'pull --to a text file or another SQLite database is refused; a store or an empty file is not' '
	printf "notes\n" >"$TMP/notes.txt" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/notes.txt" &&
	test_eq "amdahl pull: $TMP/notes.txt: not an SQLite file, so not an amdahl store; not replaced (name a new file, an empty one or a store)" "$ERR" &&
	test_eq notes "$(cat "$TMP/notes.txt")" &&
	sqlite3 "$TMP/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES(1)" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/other.db" &&
	test_contains "an SQLite database without amdahl" "$ERR" &&
	test_eq 1 "$(sqlite3 "$TMP/other.db" "SELECT x FROM t")" &&
	mkfifo "$TMP/pullfifo" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/pullfifo" &&
	test_contains "not a regular file; not replaced" "$ERR" &&
	: >"$TMP/empty.db" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/empty.db" &&
	test_not_contains "not replaced" "$ERR" &&
	"$AMDAHL" --store "$TMP/st.db" ingest -q "$DATA/gpu-batch-sweep" &&
	test_status 2 "$AMDAHL" pull --from "$NOSERVER" --to "$TMP/st.db" &&
	test_not_contains "not replaced" "$ERR"
'

# ---- 6. a FIFO named as the store: refused at once, not waited on ----
test_expect_success SQLITE_STORE '--store FIFO: every command says what it is instead of blocking' '
	mkfifo "$TMP/storefifo" &&
	for c in runs stats "ingest $DATA/gpu-batch-sweep"; do
		test_status 2 timeout 10 "$AMDAHL" --store "$TMP/storefifo" $c &&
		test_eq "amdahl ${c%% *}: $TMP/storefifo: a FIFO, not a store; a store is a regular file (name a new file, or a store)" "$ERR" || return 1
	done &&
	test_true "still a FIFO" test -p "$TMP/storefifo"
'

# ---- 14. runs --sweep S, S not the first sweep: no blank line before it ----
# (SQLite printed one, ClickHouse, which loads only S, did not)
test_expect_success 'runs --sweep of the second sweep starts with its sweep line, as on ClickHouse' '
	"$AMDAHL" --store "$TMP/two.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" "$DATA/gpu-batch-sweep" &&
	test_status 0 "$AMDAHL" --store "$TMP/two.db" runs --sweep gpu-batch-sweep &&
	test_eq "sweep gpu-batch-sweep: 24 runs, 24 in statistics, 0 failed or killed, 0 unfinished" "$(head -1 "$TMP/out")" &&
	test_status 0 "$AMDAHL" --store "$TMP/two.db" runs &&
	test_eq 1 "$(grep -c "^\$" "$TMP/out")"
'

# ---- 17. --config naming a device, a FIFO or a directory says what it is ----
test_expect_success '--config /dev/zero or a directory: not "no such configuration file"' '
	test_status 2 "$AMDAHL" --store "$TMP/none.db" --config /dev/zero runs &&
	test_eq "amdahl runs: /dev/zero: not a regular file (a device), so not a configuration file" "$ERR" &&
	mkdir -p "$TMP/confdir" &&
	test_status 2 "$AMDAHL" --store "$TMP/none.db" --config "$TMP/confdir" runs &&
	test_eq "amdahl runs: $TMP/confdir: not a regular file (a directory), so not a configuration file" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/none.db" --config "$TMP/absent.yaml" runs &&
	test_eq "amdahl runs: $TMP/absent.yaml: no such configuration file" "$ERR"
'

# ---- 17. a small gzip whose CRC-32 or ISIZE is wrong says which and where ----
# (read whole by the format detection's first read: it said "cannot read")
test_expect_success PYTHON 'a gzipped trace with a wrong CRC-32 or ISIZE: one line naming the check and the byte' '
	"$AMDAHL" --store "$TMP/gz.db" ingest -q "$DATA/gpu-batch-sweep" &&
	before=$(store_digest "$TMP/gz.db") &&
	printf "{\"traceEvents\": []}\n" | gzip -c >"$TMP/ok.pt.trace.json.gz" &&
	"$PY" -c "import sys; b = bytearray(open(sys.argv[1], \"rb\").read()); n = len(b); b[-8] ^= 0xff; open(sys.argv[2], \"wb\").write(b); b[-8] ^= 0xff; b[-1] ^= 1; open(sys.argv[3], \"wb\").write(b); print(n)" \
		"$TMP/ok.pt.trace.json.gz" "$TMP/crc.pt.trace.json.gz" "$TMP/isize.pt.trace.json.gz" >"$TMP/gzlen" &&
	n=$(cat "$TMP/gzlen") &&
	test_status 2 "$AMDAHL" --store "$TMP/gz.db" ingest "$TMP/crc.pt.trace.json.gz" &&
	test_contains "amdahl ingest: $TMP/crc.pt.trace.json.gz: compressed byte $((n - 4)): cannot read the gzip stream: its CRC-32 does not match the data" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/gz.db" ingest "$TMP/isize.pt.trace.json.gz" &&
	test_contains "amdahl ingest: $TMP/isize.pt.trace.json.gz: compressed byte $n: cannot read the gzip stream: its ISIZE does not match" "$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/gz.db")"
'

# ---- 18. report build stopped by SIGTERM or SIGINT: no temporaries left ----
# stopped_build SIG DIR — a report build into DIR, sent SIG as soon as
# its first file appears in DIR (the first is always a temporary one);
# its exit status goes to DIR.rc. A background job of a shell without
# job control starts with SIGINT ignored (and amdahl keeps an ignored
# signal ignored): env --default-signal gives it back its default.
stopped_build() {
	env --default-signal=INT "$AMDAHL" --store "$TMP/cpu.db" report build -o "$2" >/dev/null 2>&1 &
	local pid=$! i=0
	while [ $i -lt 600 ] && kill -0 $pid 2>/dev/null &&
	      [ -z "$(find "$2" -type f 2>/dev/null | head -1)" ]; do
		sleep 0.02; i=$((i + 1))
	done
	kill -"$1" $pid 2>/dev/null
	wait $pid
	echo $? >"$2.rc"
}
test_expect_success 'report build stopped by SIGTERM or SIGINT while writing leaves no hidden temporary file' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	for i in 1 2 3 4 5 6; do
		sig=TERM; [ $((i % 2)) = 0 ] && sig=INT
		stopped_build $sig "$TMP/stopped$i"
		test_eq "" "$(find "$TMP/stopped$i" -name ".*.tmp*")" || return 1
	done &&
	test_eq "143 130 143 130 143 130" "$(cat "$TMP"/stopped[1-6].rc | tr "\n" " " | sed "s/ \$//")"  # each stopped by its signal while writing
'

# A SIGKILL runs no handler: the next build into the same directory
# removes what the killed one left — regular files of its own pattern
# (.NAME.tmpXXXXXXXX) only, never a link, a directory or another name,
# and nothing while another process holds the directory's lock.
test_expect_success 'the next report build removes a SIGKILLed build'\''s temporaries, and only those' '
	stopped_build KILL "$TMP/killed"
	mkdir -p "$TMP/killed/charts" && echo outside >"$TMP/outside.txt" &&
	echo x >"$TMP/killed/charts/.throughput.png.tmp7e97e8b3" &&
	echo x >"$TMP/killed/.report.pdf.tmp0badc0de" &&
	echo mine >"$TMP/killed/.notes.tmp" && echo mine >"$TMP/killed/keep.tmp12345678" &&
	echo mine >"$TMP/killed/.notes.tmpXYZ45678" &&
	ln -s "$TMP/outside.txt" "$TMP/killed/.link.tmp12345678" &&
	mkdir "$TMP/killed/.dir.tmp12345678" &&
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/killed" &&
	test_eq "" "$(find "$TMP/killed" -type f -name ".*.tmp[0-9a-f]*")" &&
	test_eq mine "$(cat "$TMP/killed/.notes.tmp")" &&
	test_eq mine "$(cat "$TMP/killed/keep.tmp12345678")" &&
	test_eq mine "$(cat "$TMP/killed/.notes.tmpXYZ45678")" &&
	test -L "$TMP/killed/.link.tmp12345678" && test -d "$TMP/killed/.dir.tmp12345678" &&
	test_eq outside "$(cat "$TMP/outside.txt")"
'
test_expect_success 'a build while another process holds the directory'\''s lock removes no temporary' '
	echo x >"$TMP/killed/charts/.epoch_time.png.tmp7e97e8b3" &&
	flock "$TMP/killed/charts" "$AMDAHL" --store "$TMP/cpu.db" report build -o "$TMP/killed" >/dev/null &&
	test -f "$TMP/killed/charts/.epoch_time.png.tmp7e97e8b3"
'

# ---- 18. scaling --next with more values than it takes names the limit ----
test_expect_success 'scaling --next with 64 values names the limit of 32; a value below 1 is named as before' '
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" scaling --next "$(seq -s, 1 64)" &&
	test_eq "amdahl scaling: --next: at most 32 values, 64 given" "$ERR" &&
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" scaling --next 2,0 &&
	test_eq "amdahl scaling: --next: not a list of n >= 1: 2,0" "$ERR"
'

# ---- 19-20. the fuzz findings, as cases of the suite (not only replays) ----
# A py-spy dump --json thread whose thread_id is past 2^64 (1.4e135) and
# which has no os_thread_id: its label is the number, not a conversion
# to unsigned long long (undefined; 0X8000000000000000 on x86-64).
test_expect_success PYTHON 'py-spy dump --json: a thread_id of 1.4e135 is labelled with its number' '
	"$PY" - "$DATA/pyspy/calendarbot.dump.json" "$TMP/bigtid.json" <<-\PYEOF &&
	import json, sys
	t = json.load(open(sys.argv[1]))[0]
	t.pop("os_thread_id", None)
	t["thread_id"] = 1.4e135
	t["thread_name"] = "worker"
	json.dump([t], open(sys.argv[2], "w"))
	PYEOF
	test_status 0 "$AMDAHL" --store "$TMP/tid.db" ingest -q "$TMP/bigtid.json" &&
	test_status 0 "$AMDAHL" --store "$TMP/tid.db" pyspy top "$TMP/bigtid.json" --per-thread --json &&
	printf "%s\n" "$OUT" >"$TMP/tid.out" &&
	thread=$(json_get "$TMP/tid.out" "d[\"functions\"][0][\"thread\"]") &&
	test_true "label starts with the number: $thread" expr "$thread" : "14000000000000000[0-9]* worker\$" &&
	test_not_contains "0X8000000000000000" "$OUT"
'
# The 4 bytes fb fb 30 fb: a cProfile dict that is empty and cut short.
# The marshal reader offset a null pointer for the empty dict, which the
# suite's UBSan build stops at; every build must refuse it in one line.
test_expect_success SQLITE_STORE 'cProfile: the 4 bytes fb fb 30 fb are refused in one line, the store unchanged' '
	printf "\373\373\060\373" >"$TMP/four.prof" &&
	"$AMDAHL" --store "$TMP/prof.db" ingest -q "$DATA/gpu-batch-sweep" &&
	before=$(store_digest "$TMP/prof.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/prof.db" ingest --format cprofile "$TMP/four.prof" &&
	test_contains "amdahl ingest: $TMP/four.prof: byte 4: truncated: the file ends inside a value" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c "^amdahl ingest: /")" &&
	test_eq "$before" "$(store_digest "$TMP/prof.db")"
'

# ---- 12. terminal escape sequences in names are shown escaped ----
# A sweep named with a window-title sequence and a newline that forges a
# "Gate: PASS" line, a strategy that clears the screen, runs whose name
# writes the clipboard (OSC 52), in a folder whose name turns text red.
# Every text output shows them as \xNN, as the error lines do: no ESC
# byte, no line the name forged.
ESCDIR="$TMP/$(printf "esc\033[31mred")"
ESCSWEEP="$(printf "cpu\033]2;owned\007\nGate: PASS")"
ESCDDP="$(printf "ddp\033[2J")"
test_expect_success 'setup: a sweep, strategy, run names and folder holding terminal escape sequences' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$ESCDIR" &&
	sed -i "s/^name: cpu-strong-scaling/name: \"cpu\\\\e]2;owned\\\\a\\\\nGate: PASS\"/" "$ESCDIR/4/meta.yaml" &&
	for f in "$ESCDIR"/4/*/meta.yaml; do sed -i "s/^run_name: \(.*\)/run_name: \"\1\\\\e]52;c;aGk=\\\\a\"/" "$f"; done &&
	for f in $(grep -rlx ddp "$ESCDIR" --include=strategy); do printf "%s" "$ESCDDP" >"$f"; done &&
	"$AMDAHL" --store "$TMP/esc.db" ingest -q "$ESCDIR"
'
# shown_escaped WHAT — $OUT has no ESC or BEL byte, no line the sweep
# name forged, and shows what WHAT names escaped
shown_escaped() {
	test_true "$1: no ESC byte" test "$(printf "%s" "$OUT" | tr -d "\033\007")" = "$OUT" &&
	test_not_contains "
Gate: PASS" "$OUT" &&
	case $1 in
	sweep) test_contains "sweep cpu\\x1B]2;owned\\x07\\x0AGate: PASS" "$OUT" ;;
	strategy) test_contains "ddp\\x1B[2J" "$OUT" ;;
	run) test_contains "ddp-n8\\x1B]52;c;aGk=\\x07" "$OUT" ;;
	path) test_contains "esc\\x1B[31mred/4/" "$OUT" ;;
	esac
}
test_expect_success 'runs shows the escape sequences of sweep, strategy and run names escaped' '
	test_status 0 "$AMDAHL" --store "$TMP/esc.db" runs &&
	shown_escaped sweep && shown_escaped strategy && shown_escaped run
'
test_expect_success 'stats and scaling show them escaped' '
	test_status 0 "$AMDAHL" --store "$TMP/esc.db" stats &&
	shown_escaped sweep && shown_escaped strategy &&
	test_status 0 "$AMDAHL" --store "$TMP/esc.db" scaling &&
	shown_escaped sweep && shown_escaped strategy
'
test_expect_success 'runs --sources shows run names and paths escaped' '
	test_status 0 "$AMDAHL" --store "$TMP/esc.db" runs --sources &&
	shown_escaped run && shown_escaped path
'
test_expect_success 'gate --format benchstat shows the strategy escaped' '
	test_status 3 "$AMDAHL" --store "$TMP/esc.db" gate --baseline "$ESCSWEEP:$ESCDDP" \
		--candidate "$ESCSWEEP:fsdp" --format benchstat &&
	shown_escaped strategy
'

# ---- 16. a full disk: the ingest stops at the first store failure ----
# A 600 KB tmpfs holds the store (mounting needs root: skipped without).
# Before: one "database or disk is full" line per remaining unit (177 of
# testdata's 182) and every one of them read and parsed.
test_lazy_prereq TMPFS 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" 2>/dev/null && umount "$d" && rmdir "$d"'
# full_ingest NAME ARGS... — ingests testdata into a store on a full
# 600 KB tmpfs; keeps the store (and its log) in $TMP/NAME.db, the exit
# status in $TMP/NAME.rc, the output in $TMP/NAME.out and .err
full_ingest() {
	local name=$1 m="$TMP/$1.mnt"
	shift
	mkdir -p "$m" && mount -t tmpfs -o size=600k tmpfs "$m" || return 1
	"$AMDAHL" --store "$m/s.db" ingest "$@" "$DATA" >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
	cp "$m/s.db" "$TMP/$name.db" && { [ ! -e "$m/s.db-wal" ] || cp "$m/s.db-wal" "$TMP/$name.db-wal"; }
	umount "$m"
}
test_expect_success TMPFS,SQLITE_STORE 'a full disk: one line for the failure, one saying the ingest stopped, a summary' '
	full_ingest full &&
	test_eq 2 "$(cat "$TMP/full.rc")" &&
	test_eq 1 "$(grep -c "database or disk is full$" "$TMP/full.err")" &&
	test_contains "amdahl ingest: stopped at the store'\''s failure above: " "$(cat "$TMP/full.err")" &&
	test_true "at most 3 lines: $(wc -l <"$TMP/full.err")" test "$(wc -l <"$TMP/full.err")" -le 3 &&
	test_contains " not read (the store failed)" "$(cat "$TMP/full.out")" &&
	test_status 0 "$AMDAHL" --store "$TMP/full.db" runs
'
test_expect_success TMPFS,SQLITE_STORE 'a full disk with -j 2: the same, the units of the failed batch not reported again' '
	full_ingest fullj -j 2 &&
	test_eq 2 "$(cat "$TMP/fullj.rc")" &&
	test_eq 1 "$(grep -c "database or disk is full$" "$TMP/fullj.err")" &&
	test_true "at most 3 lines" test "$(wc -l <"$TMP/fullj.err")" -le 3 &&
	test_contains " not read (the store failed)" "$(cat "$TMP/fullj.out")"
'
test_expect_success TMPFS,SQLITE_STORE 'a full disk: the log warning says the disk, not a reader' '
	test_not_contains "another process is reading it" "$(cat "$TMP/full.err")"
'

# ---- 8. the orphan matching (sorted paths, bsearch): right units flagged ----
# 300 one-line py-spy files (no run) among a sweep's run directories and
# traces (all linked): exactly the 300 are "linked to no run", in --json
# and in the summary; a second ingest adding 5 more counts all 305 (the
# unchanged 300 stay unlinked).
# (Speed: bench/small_files.sh, N and 2N files.)
test_expect_success PYTHON 'orphan matching: exactly the files without a run are flagged' '
	mkdir -p "$TMP/orph/stacks" && cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/orph/" &&
	for i in $(seq 300); do printf "main (t.py:1);s%d (t.py:2) 3\n" $i >"$TMP/orph/stacks/p$i.collapsed.txt"; done &&
	test_status 0 "$AMDAHL" --store "$TMP/orph.db" ingest --json "$TMP/orph" &&
	printf "%s\n" "$OUT" >"$TMP/orph.json" &&
	test_eq "300 300" "$(json_get "$TMP/orph.json" "\"%d %d\" % (sum(1 for u in d[\"units\"] if u[\"linked_to_run\"] is False), sum(1 for u in d[\"units\"] if u[\"linked_to_run\"] is False and \"/stacks/\" in u[\"path\"]))")" &&
	test_eq 0 "$(json_get "$TMP/orph.json" "sum(1 for u in d[\"units\"] if u[\"linked_to_run\"] is not False and \"/stacks/\" in u[\"path\"])")" &&
	for i in $(seq 301 305); do printf "main (t.py:1);s%d (t.py:2) 3\n" $i >"$TMP/orph/stacks/p$i.collapsed.txt"; done &&
	test_status 0 "$AMDAHL" --store "$TMP/orph.db" ingest "$TMP/orph/stacks" &&
	test_contains "5 added, 0 replaced, 300 unchanged, 0 failed; 305 linked to no run" "$OUT"
'

test_done
