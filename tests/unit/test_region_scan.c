/* test_region_scan.c — the regions scan (lib/store/regions/region_scan.c)
 * reads the region packs itself, not row by row through SQL (issue 38):
 * the statements touching the regions (the region virtual table or
 * region_pack) step SQLite's VM fewer times in all than there are
 * regions, counted by sqlite3_trace_v2 on the store's connection
 * (SQLITE_STMTSTATUS_VM_STEP of every statement as it ends). Through
 * the virtual table each region was a dozen steps. Checked for every
 * scan: a sweep's list (no filter, a kind filter), its region times,
 * and both in one shared read (the report's); and a selection by run
 * name, whose runs with regions come first (regions.c's run_by_name,
 * asked of region_pack's index); and one run's list (region_run.c),
 * which reads only that run's packs, through region_pack's index on
 * run_id, and no row of the virtual table. The list's numbers are
 * checked against SQLite summing the same regions through the virtual
 * table; the stores holds a sweep's traces and cProfile files of no
 * run (packs a kind-filtered scan skips). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest.h"
#include "writer.h"
/* the model's kind name (region.h, through ingest.h), not used here;
 * region_times.h names its step row so */
#undef AMD_REGION_STEP
#include "region_times.h"
#include "regions.h"
#include "sqlite_int.h"
#include "store.h"
#include "store_read.h"

#define SWEEP "cpu-strong-scaling"

static int64_t region_steps; /* VM steps of the statements reading regions */

static int count_steps(unsigned type, void *ctx, void *p, void *x)
{
	(void)ctx;
	(void)x;
	sqlite3_stmt *q = p;
	const char *sql = sqlite3_sql(q);
	if (type == SQLITE_TRACE_PROFILE && sql && strstr(sql, "region"))
		region_steps += sqlite3_stmt_status(q, SQLITE_STMTSTATUS_VM_STEP, 0);
	return 0;
}

/* The run of the name with regions becomes the child of the one without. */
#define PARENT_SQL                                                                         \
	"UPDATE run SET parent_ext_id = (SELECT ext_id FROM run r WHERE r.name = 'ddp-n1'"   \
	" AND r.id NOT IN (SELECT run_id FROM region_pack WHERE run_id IS NOT NULL))"         \
	" WHERE name = 'ddp-n1' AND id IN (SELECT run_id FROM region_pack)"

/* The run a region selection by run name picks, as the query before
 * round nine asked it (through the region virtual table). */
static const char old_run_by_name[] =
	"SELECT id FROM run WHERE name=?1 ORDER BY"
	" EXISTS(SELECT 1 FROM region g WHERE g.run_id=run.id OR g.run_id IN"
	" (SELECT c.id FROM run c WHERE c.parent_ext_id=run.ext_id)) DESC, start_ms DESC";

static int table_reads; /* statements prepared reading the region virtual table */

static int note_reads(void *ctx, int action, const char *a, const char *b, const char *db,
		      const char *via)
{
	(void)ctx;
	(void)b;
	(void)db;
	(void)via;
	if (action == SQLITE_READ && a && strcmp(a, "region") == 0)
		table_reads++;
	return SQLITE_OK;
}

static char path[64];
static struct amd_store *st;

static void ingest(const char *dir)
{
	struct amd_ingest_opts o = {.rank = -1, .jobs = 1};
	struct amd_unit_list units = {0};
	struct amd_err err = {{0}};
	const char *paths[] = {dir};
	assert_int_equal(amd_walk(paths, 1, &o, &units, &err), 0);
	struct amd_ingest_target target = amd_store_target(path);
	assert_int_equal(amd_ingest_units(&target, &units, &o, &err), 0);
	amd_unit_list_free(&units);
}

static int64_t one(const char *sql)
{
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(st->db, sql, -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	int64_t v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

static int setup(void **state)
{
	(void)state;
	strcpy(path, "/tmp/amdahl-test-scan-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	ingest("testdata/" SWEEP "/mlruns");
	ingest("testdata/profiles");
	/* a run of no regions whose child worker has some: the regions of
	 * a ddp-n1 run made a child of the other ddp-n1 run */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, PARENT_SQL, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_changes(db), 1);
	sqlite3_close(db);
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_READ, &st, &err), 0);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_PROFILE, count_steps, NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	amd_store_close(st);
	char side[96];
	unlink(path);
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
	return 0;
}

/* The regions of the store, and a bound on the VM steps of a scan. */
static int64_t regions(void)
{
	int64_t n = one("SELECT sum(n) FROM region_pack");
	assert_true(n > 1000); /* traces of 8 runs */
	assert_true(one("SELECT count(*) FROM region_pack WHERE run_id IS NULL") > 0);
	return n;
}

/* The sweep's list (kind: NULL or one kind) under share (NULL: alone),
 * with the VM steps it took into *steps. */
static void sweep_list(const char *kind, struct amd_region_share *share,
		       struct amd_region_list *l, int64_t *steps)
{
	struct amd_region_sel sel;
	struct amd_err err = {{0}};
	assert_int_equal(amd_region_resolve(st, SWEEP, &sel, &err), 0);
	struct amd_region_filter f = {.kind = kind, .share = share};
	region_steps = 0;
	assert_int_equal(amd_regions_top(st, &sel, &f, l, &err), 0);
	*steps = region_steps;
}

/* The list's self and calls summed = SQLite's sums over the same
 * regions (every configuration has one run: the mean is the sum). */
static void same_sums(const struct amd_region_list *l, const char *kind)
{
	int64_t self = 0, calls = 0;
	for (size_t i = 0; i < l->n; i++) {
		assert_int_equal(l->v[i].runs, 1);
		self += l->v[i].self_ns > 0 ? l->v[i].self_ns : 0;
		calls += l->v[i].calls > 0 ? l->v[i].calls : 0;
	}
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT sum(%%s) FROM region g WHERE g.run_id IS NOT NULL%s%s%s",
		 kind ? " AND g.kind_id = (SELECT id FROM dict WHERE s = '" : "", kind ? kind : "",
		 kind ? "')" : "");
	char q[600];
	snprintf(q, sizeof q, sql, "self_ns");
	assert_int_equal(self, one(q));
	snprintf(q, sizeof q, sql, "calls");
	assert_int_equal(calls, one(q));
}

static void list_scan(void **state)
{
	(void)state;
	int64_t n = regions(), steps;
	struct amd_region_list l;
	sweep_list(NULL, NULL, &l, &steps);
	assert_true(l.n > 100);
	same_sums(&l, NULL);
	amd_region_list_free(&l);
	printf("# a sweep's list: %lld VM steps for %lld regions\n", (long long)steps,
	       (long long)n);
	assert_true(steps < n);
}

static void kind_scan(void **state)
{
	(void)state;
	int64_t n = regions(), steps;
	struct amd_region_list l;
	sweep_list("op", NULL, &l, &steps);
	assert_true(l.n > 10);
	for (size_t i = 0; i < l.n; i++)
		assert_string_equal(l.v[i].kind, "op");
	same_sums(&l, "op");
	amd_region_list_free(&l);
	printf("# its ops: %lld VM steps for %lld regions\n", (long long)steps, (long long)n);
	assert_true(steps < n);
}

static void times_scan(void **state)
{
	(void)state;
	int64_t n = regions();
	struct amd_region_time *t;
	size_t nt;
	struct amd_err err = {{0}};
	region_steps = 0;
	assert_int_equal(amd_store_region_times(st, SWEEP, &t, &nt, &err), 0);
	int64_t steps = region_steps;
	assert_true(nt > 100);
	amd_region_times_free(t);
	printf("# its region times: %lld VM steps for %lld regions\n", (long long)steps,
	       (long long)n);
	assert_true(steps < n);
}

/* Statements reading trace_step with a subquery run for each row (the
 * traces' count and sum of steps were two, 64,000 times each in a 1,000
 * x 64 sweep; issue 38 item 4). */
static int step_subqueries;

static int count_step_subqueries(unsigned type, void *ctx, void *p, void *x)
{
	(void)ctx;
	(void)x;
	const char *sql = sqlite3_sql(p);
	if (type == SQLITE_TRACE_PROFILE && sql && strstr(sql, "(SELECT count(*) FROM trace_step"))
		step_subqueries++;
	return count_steps(type, ctx, p, x);
}

/* Each trace's step row (AMD_REGION_STEP, seconds per step) is its
 * trace_step rows' summed duration over their count, as SQLite sums
 * them; read with no subquery per trace. */
static void times_steps(void **state)
{
	(void)state;
	struct amd_region_time *t;
	size_t nt, seen = 0;
	struct amd_err err = {{0}};
	step_subqueries = 0;
	sqlite3_trace_v2(st->db, SQLITE_TRACE_PROFILE, count_step_subqueries, NULL);
	assert_int_equal(amd_store_region_times(st, SWEEP, &t, &nt, &err), 0);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_PROFILE, count_steps, NULL);
	assert_int_equal(step_subqueries, 0);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(st->db, "SELECT count(*), sum(dur_ns) FROM trace_step"
					    " WHERE trace_id = ?1", -1, &q, NULL), SQLITE_OK);
	for (size_t i = 0; i < nt; i++) {
		if (strcmp(t[i].name, AMD_REGION_STEP) != 0)
			continue;
		sqlite3_bind_int64(q, 1, t[i].trace_id);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		int64_t c = sqlite3_column_int64(q, 0), d = sqlite3_column_int64(q, 1);
		assert_true(c > 0);
		assert_true(t[i].seconds == (double)d * 1e-9 / (double)(c > 1 ? c : 1));
		sqlite3_reset(q);
		seen++;
	}
	sqlite3_finalize(q);
	amd_region_times_free(t);
	printf("# %zu traces' step rows checked against trace_step\n", seen);
	assert_true(seen > 10);
}

/* The report's read: the list and the times of one scan, the same rows
 * as each alone. */
static void shared_scan(void **state)
{
	(void)state;
	int64_t n = regions(), steps;
	struct amd_err err = {{0}};
	struct amd_region_share *sh = amd_region_share_new();
	assert_non_null(sh);
	assert_int_equal(amd_store_read_begin(st, &err), 0);
	struct amd_region_list l, alone;
	sweep_list(NULL, sh, &l, &steps);
	struct amd_region_set set, set_alone;
	assert_int_equal(amd_store_region_set(st, SWEEP, 0, sh, &set, &err), 0);
	steps += region_steps;
	assert_int_equal(amd_store_region_set(st, SWEEP, 0, NULL, &set_alone, &err), 0);
	amd_store_read_end(st);
	sweep_list(NULL, NULL, &alone, &(int64_t){0});
	assert_int_equal(l.n, alone.n);
	for (size_t i = 0; i < l.n; i++) {
		assert_string_equal(l.v[i].name, alone.v[i].name);
		assert_int_equal(l.v[i].self_ns, alone.v[i].self_ns);
	}
	assert_int_equal(set.nrows, set_alone.nrows);
	for (size_t i = 0; i < set.nrows; i++) {
		assert_string_equal(set.rows[i].name, set_alone.rows[i].name);
		assert_true(set.rows[i].seconds == set_alone.rows[i].seconds);
	}
	amd_region_list_free(&l);
	amd_region_list_free(&alone);
	amd_region_set_free(&set);
	amd_region_set_free(&set_alone);
	amd_region_share_free(sh);
	printf("# the shared read: %lld VM steps for %lld regions\n", (long long)steps,
	       (long long)n);
	assert_true(steps < n);
}

/* A selection by run name: every name's run that of the query through
 * the virtual table; whether a run has regions asked of region_pack's
 * index: no statement reads the virtual table (SQLite's authorizer),
 * whose look-up by run unpacked every pack of each run of the name. */
static void run_name(void **state)
{
	(void)state;
	int64_t n = regions();
	sqlite3_stmt *names, *old;
	assert_int_equal(sqlite3_prepare_v2(st->db, "SELECT DISTINCT name FROM run ORDER BY 1", -1,
					    &names, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(st->db, old_run_by_name, -1, &old, NULL), SQLITE_OK);
	sqlite3_set_authorizer(st->db, note_reads, NULL);
	int nnames = 0;
	while (sqlite3_step(names) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(names, 0);
		sqlite3_reset(old);
		sqlite3_bind_text(old, 1, name, -1, SQLITE_TRANSIENT);
		assert_int_equal(sqlite3_step(old), SQLITE_ROW);
		struct amd_region_sel sel;
		struct amd_err err = {{0}};
		region_steps = 0;
		table_reads = 0;
		assert_int_equal(amd_region_resolve(st, name, &sel, &err), 0);
		assert_int_equal(table_reads, 0);
		printf("# run name %s: run %lld, %lld VM steps for %lld regions\n", name,
		       (long long)sel.run_id, (long long)region_steps, (long long)n);
		assert_int_equal(sel.run_id, sqlite3_column_int64(old, 0));
		assert_true(region_steps < n);
		nnames++;
	}
	sqlite3_set_authorizer(st->db, NULL, NULL);
	sqlite3_finalize(old);
	sqlite3_finalize(names);
	assert_true(nnames >= 8);
	/* the child worker's regions count for its parent: ddp-n1 is the
	 * run without regions of its own */
	struct amd_region_sel sel;
	struct amd_err err = {{0}};
	assert_int_equal(amd_region_resolve(st, "ddp-n1", &sel, &err), 0);
	assert_int_equal(0, one("SELECT count(*) FROM region_pack WHERE run_id = (SELECT id FROM"
				" run WHERE name = 'ddp-n1' AND parent_ext_id IS NULL)"));
	assert_int_equal(sel.run_id, one("SELECT id FROM run WHERE name = 'ddp-n1' AND"
					 " parent_ext_id IS NULL"));
}

/* The regions of run id and its child workers, as SQL sees them through
 * the virtual table: a WHERE on region g. */
#define RUN_REGIONS(id)                                                                      \
	" FROM region g WHERE g.run_id = " id " OR g.run_id IN (SELECT c.id FROM run c"        \
	" WHERE c.parent_ext_id = (SELECT ext_id FROM run WHERE id = " id "))"

/* One run's list (amd_regions_top of a run, -n 0): no statement reads
 * the region virtual table (SQLite's authorizer) and the statements
 * reading region_pack take fewer VM steps than the run has regions
 * (through the table each was a dozen); its rows, self and calls those
 * SQLite groups and sums over the same regions. Every run with regions,
 * and the ddp-n1 run whose regions are its child worker's. */
static void one_run(void **state)
{
	(void)state;
	regions();
	sqlite3_stmt *runs;
	assert_int_equal(sqlite3_prepare_v2(st->db, "SELECT DISTINCT coalesce(pa.id, ru.id) FROM"
					    " region_pack g JOIN run ru ON ru.id = g.run_id"
					    " LEFT JOIN run pa ON pa.ext_id = ru.parent_ext_id"
					    " ORDER BY 1", -1, &runs, NULL), SQLITE_OK);
	int nruns = 0, child = 0;
	while (sqlite3_step(runs) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(runs, 0);
		char q[1024], ids[32];
		snprintf(ids, sizeof ids, "%lld", (long long)id);
		snprintf(q, sizeof q, "SELECT sum(n) FROM region_pack WHERE run_id = %s OR run_id IN"
			 " (SELECT c.id FROM run c WHERE c.parent_ext_id = (SELECT ext_id FROM run"
			 " WHERE id = %s))", ids, ids);
		int64_t n = one(q);
		snprintf(q, sizeof q, "SELECT count(*) FROM region_pack WHERE run_id = %s", ids);
		child += one(q) == 0; /* its regions all its child worker's */
		struct amd_region_sel sel = {.run_id = id};
		struct amd_region_filter f = {0};
		struct amd_region_list l;
		struct amd_err err = {{0}};
		region_steps = 0;
		table_reads = 0;
		sqlite3_set_authorizer(st->db, note_reads, NULL);
		assert_int_equal(amd_regions_top(st, &sel, &f, &l, &err), 0);
		sqlite3_set_authorizer(st->db, NULL, NULL);
		printf("# run %lld: %lld VM steps, %d reads of the virtual table for %lld regions\n",
		       (long long)id, (long long)region_steps, table_reads, (long long)n);
		assert_int_equal(table_reads, 0);
		assert_true(region_steps < n);
		int64_t self = 0, calls = 0;
		for (size_t i = 0; i < l.n; i++) {
			self += l.v[i].self_ns > 0 ? l.v[i].self_ns : 0;
			calls += l.v[i].calls > 0 ? l.v[i].calls : 0;
		}
		snprintf(q, sizeof q, "SELECT count(*) FROM (SELECT DISTINCT profiler_id, kind_id,"
			 " name_id, file_id, line, rank, device" RUN_REGIONS("%s") ")", ids, ids);
		assert_int_equal(l.n, one(q));
		assert_int_equal(l.n_all, l.n);
		snprintf(q, sizeof q, "SELECT coalesce(sum(self_ns), 0)" RUN_REGIONS("%s"), ids, ids);
		assert_int_equal(self, one(q));
		snprintf(q, sizeof q, "SELECT coalesce(sum(calls), 0)" RUN_REGIONS("%s"), ids, ids);
		assert_int_equal(calls, one(q));
		amd_region_list_free(&l);
		nruns++;
	}
	sqlite3_finalize(runs);
	assert_true(nruns >= 8);
	assert_int_equal(child, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_scan),
		cmocka_unit_test(kind_scan),
		cmocka_unit_test(times_scan),
		cmocka_unit_test(times_steps),
		cmocka_unit_test(shared_scan),
		cmocka_unit_test(run_name),
		cmocka_unit_test(one_run),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
