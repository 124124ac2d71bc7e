#!/bin/bash
# edges_env.sh — the environment going wrong rather than the input: a
# full disk behind standard output and under a report's directory, a
# store file the user may not write, and an ingest of a large trace
# stopped by SIGINT or SIGTERM. Each says what failed in one line naming
# the file and the cause, exits non-zero, and leaves the store and every
# earlier output as they were. (The other edges are covered elsewhere:
# SIGKILLed sweep ingests in crash.sh, a full store disk in
# hostile_store.sh, concurrent ingests in concurrency.sh, planted links
# in hostile.sh.)
test_description='a full disk, a read-only store, signals: one line, a non-zero exit, nothing half-written'
. "$(dirname "$0")/../test-lib.sh"

# mounting a tmpfs and running as another user need root (CI runs the
# suite as root in its container: README "Testing")
test_lazy_prereq TMPFS 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" 2>/dev/null && umount "$d" && rmdir "$d"'
test_lazy_prereq NOBODY '[ "$(id -u)" = 0 ] && setpriv --reuid=nobody --regid=nogroup --clear-groups true'
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

test_expect_success 'setup: ingest cpu-strong-scaling' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/cpu-strong-scaling/mlruns"
'

# ---- standard output on a full disk (/dev/full) ----
# Before: every command but sql exited 0 (gate 3) with its output lost.
GATE_ARGS="gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp"
test_expect_success 'stdout on a full disk: stats, runs, scaling, gate, pyspy export exit 2 naming ENOSPC' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$DATA/pyspy/calendarbot.dump.json" 2>/dev/null
	for c in stats runs "scaling --sweep cpu-strong-scaling" "$GATE_ARGS" \
		"pyspy export --format speedscope $DATA/pyspy/calendarbot.dump.json"; do
		"$AMDAHL" --store "$TMP/cpu.db" $c >/dev/full 2>"$TMP/full.err"
		rc=$?
		echo "$c: exit $rc"
		test_eq 2 "$rc" &&
		test_eq "amdahl ${c%% *}: cannot write to standard output: No space left on device" "$(cat "$TMP/full.err")" || return 1
	done
'
test_expect_success 'stdout on a full disk: sql names the cause in its one line' '
	"$AMDAHL" --store "$TMP/cpu.db" sql "SELECT 1" >/dev/full 2>"$TMP/full.err"
	test_eq 2 $? &&
	test_eq "amdahl sql: cannot write the answer: No space left on device" "$(cat "$TMP/full.err")"
'
test_expect_success 'the same commands into a file or a pipe still exit 0' '
	test_status 0 "$AMDAHL" --store "$TMP/cpu.db" stats &&
	test_contains "cpu-strong-scaling" "$OUT" &&
	test_eq "" "$ERR"
'

# ---- a report directory on a full disk ----
# A tmpfs of SIZE KB per trial, so that the disk fills at a different
# file each time (a chart's PNG or SVG, report.html, report.json).
# Before: a chart streamed by Cairo said "error while writing to output
# stream", not the disk.
REF="$TMP/ref"
test_expect_success 'setup: a whole report of the sweep, for comparison' '
	"$AMDAHL" --store "$TMP/cpu.db" report build --sweep cpu-strong-scaling -o "$REF" >/dev/null
'
# full_build SIZE — a build into a fresh SIZE KB tmpfs, the mount kept in
# $TMP/mnt (unmounted by the caller); its exit in $rc, stderr in $TMP/build.err
full_build() {
	mkdir -p "$TMP/mnt" && mount -t tmpfs -o size="$1"k tmpfs "$TMP/mnt" || return 1
	"$AMDAHL" --store "$TMP/cpu.db" report build --sweep cpu-strong-scaling -o "$TMP/mnt/r" \
		>/dev/null 2>"$TMP/build.err"
	rc=$?
}
test_expect_success TMPFS 'a report build on a full disk: one line naming the file and ENOSPC, no temporaries' '
	for size in 100 400 700 1000 1300 1900 2500; do
		full_build $size
		echo "$size KB: exit $rc: $(cat "$TMP/build.err")"
		left=$(find "$TMP/mnt" -name ".*" -type f)
		umount "$TMP/mnt"
		test_eq 2 "$rc" &&
		test_eq 1 "$(grep -c . "$TMP/build.err")" &&
		test_true "names a file of the report and the disk" \
			grep -qx "amdahl report build: $TMP/mnt/r/.*: No space left on device" "$TMP/build.err" &&
		test_eq "" "$left" || return 1
	done
'
# same_output A B — the same bytes, but for the minute of the build in
# the text outputs (summary.md: "amdahl 0.1.0, 2026-12-02 16:15 UTC")
no_minute() { sed -E "s/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?/MINUTE/g" "$1"; }
same_output() {
	cmp -s "$1" "$2" && return 0
	case $1 in *.png) return 1 ;; esac
	[ "$(no_minute "$1" | sha256sum)" = "$(no_minute "$2" | sha256sum)" ]
}
test_expect_success TMPFS,PDFINFO 'a rebuild over a whole report on a full disk leaves every file old or new and whole' '
	mkdir -p "$TMP/mnt" && mount -t tmpfs -o size=3500k tmpfs "$TMP/mnt" &&
	cp -r "$REF" "$TMP/mnt/r" &&
	free=$(df -Pk "$TMP/mnt" | awk "NR == 2 {print \$4}") &&
	dd if=/dev/zero of="$TMP/mnt/filler" bs=1k count=$((free - 200)) 2>/dev/null
	test_status 2 "$AMDAHL" --store "$TMP/cpu.db" report build --sweep cpu-strong-scaling -o "$TMP/mnt/r"
	(cd "$REF" && find . -type f ! -name report.pdf) >"$TMP/ref.list"
	diff=$(cd "$TMP/mnt/r" && while read -r f; do same_output "$f" "$REF/$f" || echo "$f"; done <"$TMP/ref.list")
	pdf=$(pdfinfo "$TMP/mnt/r/report.pdf" 2>&1 | grep -c "^Pages:")
	left=$(find "$TMP/mnt" -name ".*" -type f)
	umount "$TMP/mnt"
	test_contains "No space left on device" "$ERR" &&
	test_eq "" "$diff" && test_eq 1 "$pdf" && test_eq "" "$left"
'

# ---- a store file its user may not write ----
# Before: the ingest failed at the first unit's commit ("UNIT: store:
# attempt to write a readonly database"), then said it stopped, then
# warned that the log's pages stay in -wal "once the file system has
# room"; an ingest of files already stored exited 0 with that warning.
test_expect_success NOBODY,SQLITE_STORE 'setup: a store nobody may read, not write, in a directory nobody may write' '
	chmod o+x "$TMP" && mkdir -p "$TMP/shared" && chmod 1777 "$TMP/shared" &&
	cp "$TMP/cpu.db" "$TMP/shared/ro.db" && chmod 444 "$TMP/shared/ro.db" &&
	before=$(store_digest "$TMP/shared/ro.db")
'
test_expect_success NOBODY,SQLITE_STORE 'ingest of new files into it: one line naming the store, exit 2, store unchanged' '
	test_status 2 as_nobody "$AMDAHL" --store "$TMP/shared/ro.db" ingest -q "$DATA/gpu-batch-sweep" &&
	test_eq "amdahl ingest: $TMP/shared/ro.db: cannot write the store: the file is read-only (attempt to write a readonly database)" "$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/shared/ro.db")" &&
	test_eq "ro.db" "$(ls "$TMP/shared")"
'
test_expect_success NOBODY,SQLITE_STORE 'ingest of files already in it, and link: the same one line, not exit 0 and a warning' '
	test_status 2 as_nobody "$AMDAHL" --store "$TMP/shared/ro.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_eq "amdahl ingest: $TMP/shared/ro.db: cannot write the store: the file is read-only (attempt to write a readonly database)" "$ERR" &&
	test_status 2 as_nobody "$AMDAHL" --store "$TMP/shared/ro.db" link "$DATA/pyspy/calendarbot.dump.json" ddp-n1 &&
	test_eq "amdahl link: $TMP/shared/ro.db: cannot write the store: the file is read-only (attempt to write a readonly database)" "$ERR" &&
	test_eq "$before" "$(store_digest "$TMP/shared/ro.db")"
'
test_expect_success NOBODY,SQLITE_STORE 'the read-only store is still read' '
	test_status 0 as_nobody "$AMDAHL" --store "$TMP/shared/ro.db" runs &&
	test_contains "sweep cpu-strong-scaling: 29 runs" "$OUT"
'

test_done
