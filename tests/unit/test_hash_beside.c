/* test_hash_beside.c — a large file at a place the store does not hold is
 * parsed while it is hashed (lib/ingest/engine.c parse_while_hashed,
 * issue 38 item 4), into a real SQLite store through amd_store_target:
 * the parse has started before the engine asks the store about the
 * file's sha256; a file below the size, a held place (re-ingest: never
 * parsed) and AMDAHL_OVERLAP=0 are hashed first, as before. The same
 * bytes at another place of the same run (DUPLICATE) stop the parse and
 * leave the store and the unit's warnings as an unchanged file does; a
 * parse that fails leaves the store as it was. The parse is a format of
 * this test's own (its facts counted); the store and engine are real. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"
#include "ingest.h"
#include "writer.h"

#include "unit_store_dir.h"

#define BESIDE_BYTES (4 << 20) /* engine.c HASH_BESIDE_BYTES */

static atomic_int parses, started;
static int64_t n_points; /* points the parse reports */
static int fail_parse;   /* 1: the parse fails after its points */

static int test_parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	atomic_fetch_add(&parses, 1);
	atomic_store(&started, 1);
	if (amd_input_warn(in, err, "%s: a warning of the test's format", in->path) < 0)
		return -1;
	struct amd_run_rec r = {.ext_id = "beside-run", .name = "beside", .sweep = "beside"};
	if (sink->run(sink, &r, err) < 0)
		return -1;
	for (int64_t i = 0; i < n_points; i++)
		if (sink->metric(sink, "loss", i, 1000 + i, (double)i, err) < 0)
			return -1;
	return fail_parse ? amd_fail(err, "%s: byte 9: the test format fails here", in->path) : 0;
}

static const struct amd_format beside_fmt = {.name = "beside-test", .parse = test_parse};

/* The store's own target, its state wrapped: asked with a sha256 (the
 * hash is done), it notes whether the parse had started, waiting up to
 * wait_ms for it. */
static struct amd_ingest_target real;
static int wait_ms;
static int started_at_hash = -1;

static int wrapped_state(void *conn, const char *path, const char *sha, amd_same_run_fn *same,
			 struct amd_err *err)
{
	if (sha[0]) {
		for (int i = 0; i < wait_ms && !atomic_load(&started); i++)
			nanosleep(&(struct timespec){0, 1000000}, NULL);
		started_at_hash = atomic_load(&started);
	}
	return real.state(conn, path, sha, same, err);
}

static void make_file(const char *path, off_t size, char fill)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	assert_int_equal(pwrite(fd, &fill, 1, 0), 1); /* the bytes differ by fill */
	close(fd);
}

/* Ingests path into store with jobs workers; the unit's result, its
 * warnings in *nwarn. */
static int ingest(const char *store, const char *path, int ms, size_t *nwarn)
{
	real = amd_store_target(store);
	struct amd_ingest_target t = real;
	t.state = wrapped_state;
	wait_ms = ms;
	started_at_hash = -1;
	atomic_store(&started, 0);
	atomic_store(&parses, 0);
	struct amd_unit u = {.path = strdup(path), .fmt = &beside_fmt, .named = 1};
	struct amd_unit_list l = {.v = &u, .n = 1, .cap = 1};
	struct amd_ingest_opts o = {.rank = -1, .jobs = 1};
	struct amd_err err = {{0}};
	int failed = amd_ingest_units(&t, &l, &o, &err);
	if (failed < 0)
		fail_msg("%s", err.msg);
	int result = u.result;
	*nwarn = u.warnings.n;
	amd_warnings_free(&u.warnings);
	free(u.error);
	free(u.path);
	return result;
}

static int setup(void **state)
{
	(void)state;
	unit_dir_make("beside");
	unsetenv("AMDAHL_OVERLAP");
	n_points = 1000;
	fail_parse = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_dir_remove();
	return 0;
}

/* A large new file: parsed beside its hash, stored with its sha256; the
 * same file again: held, never parsed; the same bytes at another place
 * of the same run (no run: both in none): the parse stopped, nothing
 * stored, no warning kept. */
static void large_new_file_parsed_beside_hash(void **state)
{
	(void)state;
	char store[160];
	snprintf(store, sizeof store, "%s", at("s.db"));
	make_file(at("big.bin"), BESIDE_BYTES, 'a');
	size_t nwarn;
	assert_int_equal(ingest(store, at("big.bin"), 5000, &nwarn), AMD_UNIT_ADDED);
	assert_int_equal(started_at_hash, 1);
	assert_int_equal(atomic_load(&parses), 1);
	assert_int_equal(nwarn, 1);
	char hex[65], sql[300];
	struct amd_err err = {{0}};
	assert_int_equal(amd_sha256_file(at("big.bin"), hex, NULL, &err), 0);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM source WHERE path='%s' AND sha256='%s'",
		 at("big.bin"), hex);
	assert_int_equal(one(store, sql), 1);

	assert_int_equal(ingest(store, at("big.bin"), 200, &nwarn), AMD_UNIT_UNCHANGED);
	assert_int_equal(started_at_hash, 0);
	assert_int_equal(atomic_load(&parses), 0);
	assert_int_equal(nwarn, 0);

	/* a parse that would report 50 M points unless stopped */
	n_points = 50000000;
	char copy[200];
	snprintf(copy, sizeof copy, "cp '%s' '%s'", at("big.bin"), at("copy.bin"));
	assert_int_equal(system(copy), 0);
	long long sources = one(store, "SELECT count(*) FROM source");
	assert_int_equal(ingest(store, at("copy.bin"), 5000, &nwarn), AMD_UNIT_UNCHANGED);
	assert_int_equal(started_at_hash, 1);
	assert_int_equal(nwarn, 0);
	assert_int_equal(one(store, "SELECT count(*) FROM source"), sources);
}

/* Below the size, or with AMDAHL_OVERLAP=0: hashed before it is parsed. */
static void small_file_or_one_thread_hashed_first(void **state)
{
	(void)state;
	char store[160];
	snprintf(store, sizeof store, "%s", at("s.db"));
	make_file(at("small.bin"), BESIDE_BYTES - 1, 'b');
	size_t nwarn;
	assert_int_equal(ingest(store, at("small.bin"), 300, &nwarn), AMD_UNIT_ADDED);
	assert_int_equal(started_at_hash, 0);
	assert_int_equal(atomic_load(&parses), 1);

	setenv("AMDAHL_OVERLAP", "0", 1);
	make_file(at("big.bin"), BESIDE_BYTES, 'c');
	assert_int_equal(ingest(store, at("big.bin"), 300, &nwarn), AMD_UNIT_ADDED);
	assert_int_equal(started_at_hash, 0);
	assert_int_equal(atomic_load(&parses), 1);
	unsetenv("AMDAHL_OVERLAP");
}

/* A large new file whose parse fails after its facts: the store holds
 * what it held before (no source, no series). */
static void failed_parse_leaves_store(void **state)
{
	(void)state;
	char store[160];
	snprintf(store, sizeof store, "%s", at("s.db"));
	make_file(at("first.bin"), BESIDE_BYTES - 1, 'd');
	size_t nwarn;
	assert_int_equal(ingest(store, at("first.bin"), 0, &nwarn), AMD_UNIT_ADDED);
	long long sources = one(store, "SELECT count(*) FROM source");
	long long series = one(store, "SELECT count(*) FROM metric_series");
	fail_parse = 1;
	make_file(at("bad.bin"), BESIDE_BYTES, 'e');
	assert_int_equal(ingest(store, at("bad.bin"), 5000, &nwarn), AMD_UNIT_FAILED);
	assert_int_equal(started_at_hash, 1);
	assert_int_equal(one(store, "SELECT count(*) FROM source"), sources);
	assert_int_equal(one(store, "SELECT count(*) FROM metric_series"), series);
	assert_true(series > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(large_new_file_parsed_beside_hash, setup, teardown),
		cmocka_unit_test_setup_teardown(small_file_or_one_thread_hashed_first, setup,
						teardown),
		cmocka_unit_test_setup_teardown(failed_parse_leaves_store, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
