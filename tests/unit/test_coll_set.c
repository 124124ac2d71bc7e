/* test_coll_set.c — a sweep's collective set (lib/store/query/
 * collectives.c, amd_store_coll_set / amd_store_coll_run) read in one
 * query for all its traces (issue 38 item 4: one query per trace, 64,000
 * in a 1,000 x 64 sweep, was a fifth of its `report build`), on a real
 * SQLite store: every trace's calls in the order the per-trace query
 * (ORDER BY start, name id, seq) gives, checked against sqlite3 running
 * that query itself — a trace whose calls tie on those keys is read by
 * it, so SQLite's sorter orders the tie as before; each trace's step
 * count, summed duration and span equal sqlite3's aggregates (a trace
 * without steps: zeros); and the statements that read trace_collective
 * are one for the set (plus one per trace with a tie), counted by
 * sqlite3_trace_v2 on the store's connection. Each trace's phases equal
 * sqlite3's rows; a set of most of the store's traces reads them (and its
 * calls) by one scan of the table, a smaller set trace by trace and by
 * its ids (issue 38 item 4: 64,000 phase queries), and none of those
 * statements joins dict (the phases' dict ids are read once; an id dict
 * lacks is skipped), stats' traces of a run (amd_store_run_traces) too.
 * A report reads the sweep's set once for stats'
 * arrival spreads and explain: a counted run's
 * spread from the set equals the one read run by run, without a read; a
 * run the set lacks (one that does not count) is read as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectives.h"
#include "explain.h"
#include "run_facts.h"
#include "sqlite_int.h"

#define RUNS 4
#define RANKS 10 /* traces a run */
#define TIED_TRACE 7 /* this trace's calls tie on (start, name, seq) */

static char dir[] = "/tmp/amdahl-test-collset-XXXXXX";
static char path[200];

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

/* Trace id's phases: (t % 5) of four names, one not a phase, and an id
 * (605) dict lacks. */
static void add_phases(sqlite3 *db, int id, int t)
{
	char sql[200];
	for (int k = 0; k < t % 5; k++) {
		snprintf(sql, sizeof sql, "INSERT INTO trace_phase(trace_id, phase_id, ns)"
			 " VALUES (%d, %d, %d)", id, 601 + (k + t) % 5, 100 * t + k + 1);
		exec(db, sql);
	}
}

/* RUNS runs of RANKS traces; trace t has (t % 5) collectives of two
 * names in two groups at scattered starts (inserted out of order), and
 * (t % 3) steps; trace TIED_TRACE has three calls at one start, name
 * and seq with different durations and groups. Trace ids are given
 * out of the run order, so that the set's order is by names. */
static void fill(sqlite3 *db)
{
	exec(db, "BEGIN; INSERT INTO sweep(id, name) VALUES (1, 'sw');"
		 "INSERT INTO dict(id, s) VALUES (501, 'nccl:all_reduce'), (502, 'nccl:broadcast'),"
		 " (503, '0'), (504, '1'), (601, 'compute'), (602, 'communication'),"
		 " (603, 'not a phase'), (604, 'idle');");
	char sql[512];
	for (int r = 0; r < RUNS; r++) {
		snprintf(sql, sizeof sql, "INSERT INTO run(id, sweep_id, ext_id, strategy, n, repeat,"
			 " status) VALUES (%d, 1, 'run-%d', 'ddp', %d, %d, 3)", r + 1, r, RANKS, r);
		exec(db, sql);
	}
	for (int t = 0; t < RUNS * RANKS; t++) {
		int id = 1000 - 7 * t, run = t / RANKS + 1, rank = t % RANKS;
		snprintf(sql, sizeof sql, "INSERT INTO source(id, path, kind, size, sha256, ingested_at)"
			 " VALUES (%d, '/t/%02d.json', 'trace', 1, 'x%d', 0);"
			 "INSERT INTO trace(id, run_id, source_id, rank, start_ns, end_ns, has_gpu)"
			 " VALUES (%d, %d, %d, %d, 0, 1000000, 0)", id, t, t, id, run, id, rank);
		exec(db, sql);
		for (int c = t % 5; c > 0; c--) {
			snprintf(sql, sizeof sql, "INSERT INTO trace_collective(trace_id, name_id, seq,"
				 " start_ns, dur_ns, bytes, group_size, group_id) VALUES (%d, %d, %d, %d,"
				 " %d, 8, %s, %s)", id, 501 + c % 2, c / 2, (c * 7919) % 13 * 100,
				 10 + c, c == 3 ? "NULL" : "2", c == 2 ? "NULL" : "503");
			exec(db, sql);
		}
		add_phases(db, id, t);
		for (int s = 0; s < t % 3; s++) {
			snprintf(sql, sizeof sql, "INSERT INTO trace_step(trace_id, step, start_ns,"
				 " dur_ns) VALUES (%d, %d, %d, %d)", id, s, 5000 * s + t, 4000 + t);
			exec(db, sql);
		}
	}
	int tied = 1000 - 7 * TIED_TRACE;
	for (int k = 0; k < 3; k++) {
		snprintf(sql, sizeof sql, "INSERT INTO trace_collective(trace_id, name_id, seq, start_ns,"
			 " dur_ns, bytes, group_size, group_id) VALUES (%d, 501, 9, 50, %d, 8, 2, %d)",
			 tied, 30 - k, 503 + k % 2);
		exec(db, sql);
	}
	exec(db, "COMMIT");
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.db", dir);
	struct amd_store *st;
	struct amd_err err;
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	amd_store_close(st);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	fill(db);
	sqlite3_close(db);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int coll_reads, phase_reads, phase_joins, phases_seen;

static int count_reads(unsigned type, void *ctx, void *p, void *x)
{
	(void)ctx;
	(void)x;
	const char *sql = sqlite3_sql((sqlite3_stmt *)p);
	if (type == SQLITE_TRACE_STMT && sql && strstr(sql, "FROM trace_collective"))
		coll_reads++;
	if (type == SQLITE_TRACE_STMT && sql && strstr(sql, "trace_phase"))
		phase_reads++;
	if (type == SQLITE_TRACE_STMT && sql && strstr(sql, "trace_phase") && strstr(sql, "dict"))
		phase_joins++; /* the phases' dict ids are read once, not joined per row */
	return 0;
}

/* The text of dict id (the row of column k of q), NULL for none. */
static char *dict_text(sqlite3 *db, sqlite3_stmt *q, int k)
{
	if (sqlite3_column_type(q, k) == SQLITE_NULL)
		return NULL;
	sqlite3_stmt *d;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT s FROM dict WHERE id = ?1", -1, &d, NULL),
			 SQLITE_OK);
	sqlite3_bind_int64(d, 1, sqlite3_column_int64(q, k));
	assert_int_equal(sqlite3_step(d), SQLITE_ROW);
	char *s = strdup((const char *)sqlite3_column_text(d, 0));
	sqlite3_finalize(d);
	return s;
}

/* Trace tr's calls against the per-trace query (the one the store ran
 * for each trace before) run by sqlite3 itself. */
static void check_calls(sqlite3 *db, const struct amd_coll_trace *tr)
{
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT c.name_id, coalesce(c.seq, 0), coalesce(c.start_ns, 0), coalesce(c.dur_ns, 0),"
		" c.group_id, coalesce(c.group_size, -1)"
		" FROM trace_collective c WHERE c.trace_id = ?1 ORDER BY 3, 1, 2", -1, &q, NULL),
		SQLITE_OK);
	sqlite3_bind_int64(q, 1, tr->trace_id);
	size_t k = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		assert_true(k < tr->ncalls);
		const struct amd_coll_call *c = &tr->calls[k++];
		char *name = dict_text(db, q, 0), *group = dict_text(db, q, 4);
		assert_string_equal(c->name, name);
		assert_int_equal(c->seq, sqlite3_column_int64(q, 1));
		assert_int_equal(c->start_ns, sqlite3_column_int64(q, 2));
		assert_int_equal(c->dur_ns, sqlite3_column_int64(q, 3));
		if (!group)
			assert_null(c->group);
		else
			assert_string_equal(c->group, group);
		assert_int_equal(c->group_size, sqlite3_column_int(q, 5));
		free(name);
		free(group);
	}
	assert_int_equal(k, tr->ncalls);
	sqlite3_finalize(q);
}

static void check_steps(sqlite3 *db, const struct amd_coll_trace *tr)
{
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*), total(dur_ns), min(start_ns),"
		" max(start_ns + dur_ns) FROM trace_step WHERE trace_id = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, tr->trace_id);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_int_equal(tr->nsteps, sqlite3_column_int64(q, 0));
	assert_int_equal(tr->step_ns, (int64_t)sqlite3_column_double(q, 1));
	assert_int_equal(tr->steps_from, sqlite3_column_int64(q, 2)); /* NULL: 0 */
	assert_int_equal(tr->steps_to, sqlite3_column_int64(q, 3));
	sqlite3_finalize(q);
}

/* Trace id's phases against sqlite3's rows (0: none of that name); 1
 * when it has some. */
static int check_phase_ns(sqlite3 *db, int64_t id, const int64_t *phase_ns)
{
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT coalesce(sum(p.ns), 0) FROM trace_phase p"
		" JOIN dict d ON d.id = p.phase_id WHERE p.trace_id = ?1 AND d.s = ?2", -1, &q, NULL),
		SQLITE_OK);
	int some = 0;
	for (int p = 0; p < AMD_PHASE_COUNT; p++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_text(q, 2, amd_phase_names[p], -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_int_equal(phase_ns[p], sqlite3_column_int64(q, 0));
		some |= phase_ns[p] != 0;
	}
	sqlite3_finalize(q);
	return some;
}

static void check_phases(sqlite3 *db, const struct amd_coll_trace *tr)
{
	phases_seen += check_phase_ns(db, tr->trace_id, tr->phase_ns);
}

/* The sweep's set: every trace, by run then rank, its calls and steps as
 * sqlite3 gives them, read by two statements (the set's, the tied
 * trace's). */
static void sweep_set(void **state)
{
	(void)state;
	struct amd_store *st;
	struct amd_err err;
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	coll_reads = phase_reads = phase_joins = phases_seen = 0;
	sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, count_reads, NULL);
	struct amd_coll_set s;
	assert_int_equal(amd_store_coll_set(st, "sw", &s, &err), 0);
	assert_int_equal(coll_reads, 2);
	assert_int_equal(phase_reads, 1); /* all the store's traces: one scan */
	assert_int_equal(phase_joins, 0);
	assert_int_equal(s.ntraces, RUNS * RANKS);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	size_t total = 0, tied = 0;
	for (size_t i = 0; i < s.ntraces; i++) {
		const struct amd_coll_trace *tr = &s.traces[i];
		assert_int_equal(tr->trace_id, 1000 - 7 * (int64_t)i); /* run, then rank */
		check_calls(db, tr);
		check_steps(db, tr);
		check_phases(db, tr);
		total += tr->ncalls;
		tied += tr->trace_id == 1000 - 7 * TIED_TRACE && tr->ncalls == 3 + TIED_TRACE % 5;
	}
	assert_int_equal(total, s.ncalls);
	assert_int_equal(tied, 1);
	assert_true(phases_seen >= RUNS * RANKS / 2);
	for (int r = 1; r <= RUNS + 1; r++) { /* each run's traces, together */
		size_t n;
		const struct amd_coll_trace *t = amd_coll_set_run(&s, r, &n);
		assert_int_equal(n, r <= RUNS ? RANKS : 0);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(t[i].run_id, r);
		if (n)
			assert_int_equal(t[0].trace_id, 1000 - 7 * (int64_t)(r - 1) * RANKS);
	}
	sqlite3_close(db);
	amd_coll_set_free(&s);
	amd_store_close(st);
}

/* The store opened to read, its statements counted, and *db beside it. */
static struct amd_store *open_counted(sqlite3 **db)
{
	struct amd_store *st;
	struct amd_err err;
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	assert_int_equal(sqlite3_open(path, db), SQLITE_OK);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, count_reads, NULL);
	return st;
}

/* One run's set (stats' arrival spread): its traces' calls, read by one
 * statement; no steps read. */
static void run_set(void **state)
{
	(void)state;
	struct amd_err err;
	sqlite3 *db;
	struct amd_store *st = open_counted(&db);
	for (int r = 1; r <= RUNS; r++) {
		if (r == 1 + TIED_TRACE / RANKS)
			continue; /* (the sweep's case reads the tie) */
		coll_reads = 0;
		struct amd_coll_set s;
		assert_int_equal(amd_store_coll_run(st, r, &s, &err), 0);
		assert_int_equal(coll_reads, 1);
		assert_int_equal(s.ntraces, RANKS);
		for (size_t i = 0; i < s.ntraces; i++) {
			assert_int_equal(s.traces[i].rank, (int)i);
			assert_int_equal(s.traces[i].nsteps, 0);
			check_calls(db, &s.traces[i]);
		}
		amd_coll_set_free(&s);
	}
	sqlite3_close(db);
	amd_store_close(st);
}

/* Stats' traces of each run (amd_store_run_traces): every trace's phases
 * as sqlite3 gives them, has_phases when a known phase was read, one
 * statement a trace and none joining dict. */
static void run_traces(void **state)
{
	(void)state;
	struct amd_err err;
	sqlite3 *db;
	struct amd_store *st = open_counted(&db);
	int some = 0;
	for (int r = 1; r <= RUNS; r++) {
		phase_reads = phase_joins = 0;
		struct amd_trace_row *t;
		size_t n;
		assert_int_equal(amd_store_run_traces(st, r, &t, &n, &err), 0);
		assert_int_equal(n, RANKS);
		assert_int_equal(phase_reads, RANKS);
		assert_int_equal(phase_joins, 0);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(t[i].rank, (int)i);
			int has = check_phase_ns(db, t[i].id, t[i].phase_ns);
			assert_int_equal(t[i].has_phases, has);
			some += has;
		}
		free(t);
	}
	assert_true(some >= RUNS * RANKS / 2);
	sqlite3_close(db);
	amd_store_close(st);
}

/* Each run's arrival spread from the sweep's set (run RUNS failed: not
 * in it) equals amd_explain_arrival_spread's read of the run alone. */
static void spread_from_set(void **state)
{
	(void)state;
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, "UPDATE run SET status = 4 WHERE id = 4"); /* RUNS */
	sqlite3_close(db);
	struct amd_store *st;
	struct amd_err err;
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	struct amd_coll_set s;
	assert_int_equal(amd_store_coll_set(st, "sw", &s, &err), 0);
	assert_int_equal(s.ntraces, (RUNS - 1) * RANKS);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, count_reads, NULL);
	int finite = 0;
	for (int r = 1; r <= RUNS; r++) {
		double alone, in_set;
		assert_int_equal(amd_explain_arrival_spread(st, r, &alone, &err), 0);
		coll_reads = 0;
		assert_int_equal(amd_explain_arrival_spread_in(st, &s, r, &in_set, &err), 0);
		assert_int_equal(coll_reads, r == RUNS ? 1 : 0);
		assert_memory_equal(&alone, &in_set, sizeof alone); /* NAN too */
		finite += isfinite(alone);
	}
	assert_true(finite >= 2);
	amd_coll_set_free(&s);
	amd_store_close(st);
}

/* Sweep 'sw' (30 traces once spread_from_set failed run RUNS) beside a
 * sweep of 2 * RUNS * RANKS traces: 'sw' is read by its trace ids, its
 * phases trace by trace; the big one, most of the store's traces, by a
 * scan of each table; both as sqlite3 gives them. */
static void minority_set(void **state)
{
	(void)state;
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, "BEGIN; INSERT INTO sweep(id, name) VALUES (2, 'big');"
		 "INSERT INTO run(id, sweep_id, ext_id, strategy, n, repeat, status)"
		 " VALUES (20, 2, 'big-0', 'fsdp', 8, 0, 3)");
	char sql[512];
	for (int t = 0; t < 2 * RUNS * RANKS; t++) {
		int id = 5000 + t;
		snprintf(sql, sizeof sql, "INSERT INTO source(id, path, kind, size, sha256, ingested_at)"
			 " VALUES (%d, '/b/%03d.json', 'trace', 1, 'y%d', 0);"
			 "INSERT INTO trace(id, run_id, source_id, rank, start_ns, end_ns, has_gpu)"
			 " VALUES (%d, 20, %d, %d, 0, 1000000, 0);"
			 "INSERT INTO trace_collective(trace_id, name_id, seq, start_ns, dur_ns, bytes,"
			 " group_size, group_id) VALUES (%d, 502, 1, %d, 7, 8, 2, 504);"
			 "INSERT INTO trace_step(trace_id, step, start_ns, dur_ns)"
			 " VALUES (%d, 0, %d, 900)", id, t, t, id, id, t, id, 300 - t, id, t);
		exec(db, sql);
		add_phases(db, id, t + 1);
	}
	exec(db, "COMMIT");
	struct amd_store *st;
	struct amd_err err;
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, count_reads, NULL);
	const char *sweeps[2] = { "sw", "big" };
	for (int k = 0; k < 2; k++) {
		coll_reads = phase_reads = phase_joins = phases_seen = 0;
		struct amd_coll_set s;
		assert_int_equal(amd_store_coll_set(st, sweeps[k], &s, &err), 0);
		assert_int_equal(s.ntraces, k ? 2 * RUNS * RANKS : (RUNS - 1) * RANKS);
		assert_int_equal(phase_reads, k ? 1 : (int)s.ntraces);
		assert_int_equal(phase_joins, 0);
		assert_int_equal(coll_reads, k ? 1 : 2); /* the set's (and the tied trace's) */
		size_t total = 0;
		for (size_t i = 0; i < s.ntraces; i++) {
			check_calls(db, &s.traces[i]);
			check_steps(db, &s.traces[i]);
			check_phases(db, &s.traces[i]);
			total += s.traces[i].ncalls;
		}
		assert_int_equal(total, s.ncalls);
		assert_true(phases_seen >= (int)s.ntraces / 2);
		amd_coll_set_free(&s);
	}
	sqlite3_close(db);
	amd_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sweep_set),
		cmocka_unit_test(run_set),
		cmocka_unit_test(run_traces),
		cmocka_unit_test(spread_from_set),
		cmocka_unit_test(minority_set),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
