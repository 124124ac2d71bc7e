/* test_engine_parts.c — the ingest engine's batches for a target that
 * stages its units (lib/ingest/engine.c parts_write; sink.h batch_held:
 * ClickHouse's, whose units wait in memory for the batch's commit), on a
 * real SQLite store through amd_store_target with batch_held and a
 * batch_end that can refuse the commit wrapped around it: units whose
 * parse fills its queue are staged at once and the batch goes on, cut
 * into parts only by what the target holds (6 units of 6 MB: 2 parts of
 * 3, where each unit ended its batch before); a copy of a unit staged
 * ahead is a twin, never parsed, reported with its twin's commit —
 * unchanged when it commits, failed with it when the commit is refused,
 * never counted held by a store that holds nothing. A target that sends
 * a batch's commit in the background (sink.h batch_send, batch_landed:
 * here the commit deferred to the landing) has it landed before the
 * next part begins, while the next batch's units are already parsed;
 * a refused flight fails its own units only. The parse is a
 * format of this test's own (150,000 points: more than the 4 MB its
 * queue holds before the engine writes it); store and engine are real. */
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
#include <unistd.h>

#include "ingest.h"
#include "writer.h"

#include "unit_store_dir.h"

static atomic_int parses;

/* A run named after the file and 150,000 points (4.8 MB of records). */
static int test_parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	atomic_fetch_add(&parses, 1);
	const char *base = strrchr(in->path, '/') + 1;
	struct amd_run_rec r = {.ext_id = base, .name = base, .sweep = "parts"};
	if (sink->run(sink, &r, err) < 0)
		return -1;
	for (int64_t i = 0; i < 150000; i++)
		if (sink->metric(sink, "loss", i, 1000 + i, (double)i, err) < 0)
			return -1;
	return 0;
}

static const struct amd_format parts_fmt = {.name = "parts-test", .parse = test_parse};

/* The store's own target with what a staging target adds: the bytes
 * held, held_per_unit for each unit finished in the open part, and a
 * commit refused on refuse_commit. */
static struct amd_ingest_target real;
static size_t held_per_unit, units_in_part;
static int parts, refuse_commit;
/* the flight: sent and not landed; landings; parses at the first one;
 * a part begun with a flight not landed; the landing that refuses */
static int flying, landings, parses_at_landing, begun_flying, refuse_landing;
static void *flight_conn;

static int wrapped_finish(struct amd_unit_writer *w, enum amd_source_state *state,
			  struct amd_err *err)
{
	units_in_part++;
	return real.finish(w, state, err);
}

static int wrapped_begin_batch(void *conn, struct amd_err *err)
{
	begun_flying += flying;
	units_in_part = 0;
	parts++;
	return real.batch_begin(conn, err);
}

static int wrapped_end_batch(void *conn, int commit, struct amd_err *err)
{
	if (!refuse_commit)
		return real.batch_end(conn, commit, err);
	real.batch_end(conn, 0, err);
	return amd_fail(err, "the test refuses the commit");
}

/* The commit deferred from the send to the landing: what the engine
 * does in between is what it would do while a real flight flies. */
static void wrapped_send(void *conn)
{
	flying = 1;
	flight_conn = conn;
}

static int wrapped_landed(void *conn, struct amd_err *err)
{
	assert_true(flying && conn == flight_conn);
	flying = 0;
	if (++landings == 1)
		parses_at_landing = atomic_load(&parses);
	if (landings != refuse_landing)
		return real.batch_end(conn, 1, err);
	real.batch_end(conn, 0, err);
	return amd_fail(err, "the test refuses the flight's commit");
}

static size_t wrapped_held(void *conn)
{
	(void)conn;
	return units_in_part * held_per_unit;
}

static void make_file(const char *path, char fill)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	char b[64];
	memset(b, fill, sizeof b);
	assert_int_equal(write(fd, b, sizeof b), (ssize_t)sizeof b);
	close(fd);
}

/* Ingests the n files of names into store with one worker; the units'
 * results into results. */
static int flights; /* ingest gives the target batch_send, batch_landed */

static void ingest(const char *store, const char *const *names, size_t n, int *results)
{
	static char path[160]; /* the target keeps it; at's buffers turn over */
	snprintf(path, sizeof path, "%s", store);
	real = amd_store_target(path);
	struct amd_ingest_target t = real;
	t.finish = wrapped_finish;
	t.batch_begin = wrapped_begin_batch;
	t.batch_end = wrapped_end_batch;
	t.batch_held = wrapped_held;
	t.batch_always = 1;
	if (flights) {
		t.batch_send = wrapped_send;
		t.batch_landed = wrapped_landed;
	}
	parts = landings = parses_at_landing = begun_flying = flying = 0;
	atomic_store(&parses, 0);
	struct amd_unit *u = calloc(n, sizeof *u);
	assert_non_null(u);
	for (size_t i = 0; i < n; i++)
		u[i] = (struct amd_unit){.path = strdup(at(names[i])), .fmt = &parts_fmt, .named = 1};
	struct amd_unit_list l = {.v = u, .n = n, .cap = n};
	struct amd_ingest_opts o = {.rank = -1, .jobs = 1};
	struct amd_err err = {{0}};
	if (amd_ingest_units(&t, &l, &o, &err) < 0)
		fail_msg("%s", err.msg);
	for (size_t i = 0; i < n; i++) {
		results[i] = u[i].result;
		amd_warnings_free(&u[i].warnings);
		free(u[i].error);
		free(u[i].path);
	}
	free(u);
}

static int setup(void **state)
{
	(void)state;
	unit_dir_make("parts");
	unsetenv("AMDAHL_OVERLAP");
	held_per_unit = (size_t)6 << 20;
	refuse_commit = refuse_landing = flights = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unit_dir_remove();
	return 0;
}

/* 6 units whose parse fills its queue, 6 MB staged each: one batch, two
 * parts of 3 (16 MB bound), every unit stored. */
static void staged_units_share_parts(void **state)
{
	(void)state;
	const char *names[] = {"a.bin", "b.bin", "c.bin", "d.bin", "e.bin", "f.bin"};
	for (int i = 0; i < 6; i++)
		make_file(at(names[i]), (char)('a' + i));
	int r[6];
	ingest(at("s.db"), names, 6, r);
	for (int i = 0; i < 6; i++)
		assert_int_equal(r[i], AMD_UNIT_ADDED);
	assert_int_equal(parts, 2);
	assert_int_equal(atomic_load(&parses), 6);
	assert_int_equal(one(at("s.db"), "SELECT count(*) FROM source"), 6);
	assert_int_equal(one(at("s.db"), "SELECT count(*) FROM run"), 6);
}

/* A file and its copy (the same run: no run folder) after it in one
 * batch: the copy is never parsed; unchanged when the batch commits,
 * failed with its twin when the commit is refused (the store holds
 * neither, so neither may be reported held). */
static void twin_of_staged_unit_follows_its_commit(void **state)
{
	(void)state;
	const char *names[] = {"x.bin", "y.bin"};
	make_file(at("x.bin"), 'x');
	make_file(at("y.bin"), 'x');
	int r[2];
	refuse_commit = 1;
	ingest(at("t.db"), names, 2, r);
	assert_int_equal(r[0], AMD_UNIT_FAILED);
	assert_int_equal(r[1], AMD_UNIT_FAILED);
	assert_int_equal(atomic_load(&parses), 1);
	assert_int_equal(one(at("t.db"), "SELECT count(*) FROM source"), 0);
	refuse_commit = 0;
	ingest(at("t.db"), names, 2, r);
	assert_int_equal(r[0], AMD_UNIT_ADDED);
	assert_int_equal(r[1], AMD_UNIT_UNCHANGED);
	assert_int_equal(atomic_load(&parses), 1);
	assert_int_equal(one(at("t.db"), "SELECT count(*) FROM source"), 1);
}

/* 18 files of distinct bytes, named PREFIX00.bin .. PREFIX17.bin (in
 * names, v), ingested into the store named store (in unit_dir) by a
 * target whose batches fly and which holds nothing (no part ends before
 * the batch's 16 units). */
static void ingest_flying(const char *store, char prefix, char names[18][8], const char **v,
			  int *r)
{
	for (int i = 0; i < 18; i++) {
		snprintf(names[i], 8, "%c%02d.bin", prefix, i);
		v[i] = names[i];
		make_file(at(v[i]), (char)(prefix + i));
	}
	held_per_unit = 0;
	flights = 1;
	ingest(at(store), v, 18, r);
}

/* 18 units through a target whose batches fly: a batch of 16 (the
 * engine's bound) flies while the 17th unit is parsed, and lands before
 * its part begins; the last batch lands before the ingest ends. */
static void flight_lands_before_the_next_part(void **state)
{
	(void)state;
	char names[18][8];
	const char *v[18];
	int r[18];
	ingest_flying("f.db", 'f', names, v, r);
	for (int i = 0; i < 18; i++)
		assert_int_equal(r[i], AMD_UNIT_ADDED);
	assert_int_equal(parts, 2);
	assert_int_equal(landings, 2);
	assert_int_equal(begun_flying, 0);
	assert_int_equal(flying, 0);
	assert_int_equal(parses_at_landing, 17);
	assert_int_equal(one(at("f.db"), "SELECT count(*) FROM source"), 18);
	assert_int_equal(one(at("f.db"), "SELECT count(*) FROM run"), 18);
}

/* The first flight's commit refused: its 16 units fail, the 2 of the
 * next batch are written; the store holds those 2 only. */
static void refused_flight_fails_its_own_units(void **state)
{
	(void)state;
	char names[18][8];
	const char *v[18];
	int r[18];
	refuse_landing = 1;
	ingest_flying("g.db", 'g', names, v, r);
	for (int i = 0; i < 18; i++)
		assert_int_equal(r[i], i < 16 ? AMD_UNIT_FAILED : AMD_UNIT_ADDED);
	assert_int_equal(landings, 2);
	assert_int_equal(one(at("g.db"), "SELECT count(*) FROM source"), 2);
	assert_int_equal(one(at("g.db"), "SELECT count(*) FROM source WHERE path LIKE '%g16.bin'"
			     " OR path LIKE '%g17.bin'"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(staged_units_share_parts, setup, teardown),
		cmocka_unit_test_setup_teardown(twin_of_staged_unit_follows_its_commit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(flight_lands_before_the_next_part, setup, teardown),
		cmocka_unit_test_setup_teardown(refused_flight_fails_its_own_units, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
