# tmpdir.sh — where the tests keep their files (stores, ClickHouse data
# directories, outputs): $AMDAHL_TEST_TMPDIR when set; else /dev/shm when
# it is a writable tmpfs with 2 GB free; else $TMPDIR, else /tmp. Sourced
# by tests/lib/runner.sh and tests/test-lib.sh; exports TMPDIR (once per
# run: a script run by tests/run.sh keeps the runner's choice).
# Why: clickhouse-server writes each INSERT as a part of ~20 files and a
# DROP DATABASE removes them all; on tmpfs the ingest of the bundled CPU
# sweep into a fresh database took 36-41 s wall and 4.8 server CPU-s
# against 97-113 s and 15-17 CPU-s on the disk (same server, same
# moment, load 44), and its DROP DATABASE 3-4 s against 19-25 s.
if [ -z "${AMDAHL_TEST_TMPDIR_SET:-}" ]; then
	if [ -n "${AMDAHL_TEST_TMPDIR:-}" ]; then
		TMPDIR=$AMDAHL_TEST_TMPDIR
	elif [ -d /dev/shm ] && [ -w /dev/shm ] &&
		[ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')" -ge 2097152 ] 2>/dev/null; then
		TMPDIR=/dev/shm
	fi
	AMDAHL_TEST_TMPDIR_SET=1
	export TMPDIR AMDAHL_TEST_TMPDIR_SET
fi
