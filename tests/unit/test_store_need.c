/* test_store_need.c — a table a remote read left on the server is
 * loaded by the store itself the first time a statement reads it
 * (lib/store/db/store.c: amd_store_prepare and amd_store_exec watch
 * what a statement reads), so a reader that never asks for it — here
 * lib/store/writer/orphans.c — sees the rows; a statement that does not
 * read it loads nothing; a load inside a read transaction (store_read.h)
 * works; a read over many runs (as `stats` reads each run's traces,
 * memory and GPU samples) prepares as many statements for 10 runs as
 * for 300 and never has SQLite prepare a kept one again; the points of
 * the runs a reader planned to read (amd_store_plan_reads) load with
 * the run asked, its child runs with it, in the plan's order, within a
 * load's bounds of runs and points, each run once and no run unplanned.
 * The rows are put through the loader (table_load.h), as the ClickHouse
 * reader does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_samples.h"
#include "orphans.h"
#include "phase.h"
#include "run_facts.h"
#include "runs.h"
#include "sqlite_int.h"
#include "stmt_cache.h"
#include "store_read.h"
#include "table_load.h"

static int loads;

static struct amd_cell num(int64_t v)
{
	return (struct amd_cell){.type = AMD_CELL_INT, .i = v};
}

static struct amd_cell text(const char *s)
{
	return (struct amd_cell){.type = AMD_CELL_TEXT, .s = s, .n = strlen(s)};
}

static void load_rows(struct amd_store *st, const char *table, const char *cols,
		      const struct amd_cell *cells)
{
	struct amd_err err = {0};
	struct amd_table_load *l;
	assert_int_equal(amd_table_load_open(st, table, cols, &l, &err), 0);
	assert_int_equal(amd_table_load_row(l, cells, &err), 0);
	assert_int_equal(amd_table_load_close(l, 1, &err), 0);
}

/* the hook's load: source 1's region, no run owning it (an orphan) */
static int load_region(void *ctx, struct amd_store *st, struct amd_err *err)
{
	(void)ctx;
	loads++;
	if (amd_store_begin(st, err) < 0)
		return -1;
	const struct amd_cell r[] = {num(1), num(1), num(7), num(8), num(9)};
	load_rows(st, "region", "id,source_id,kind_id,profiler_id,name_id", r);
	return amd_store_commit(st, err);
}

/* A loaded store holding one source, its region left "on the server". */
static struct amd_store *store_with_left_region(void)
{
	struct amd_err err = {0};
	struct amd_store *st;
	assert_int_equal(amd_store_open_loading("clickhouse://test", &st, &err), 0);
	assert_int_equal(amd_store_begin(st, &err), 0);
	const struct amd_cell s[] = {num(1), text("/data/trace.json"), text("torch-trace"),
				     num(10), text("ab"), num(1)};
	load_rows(st, "source", "id,path,kind,size,sha256,ingested_at", s);
	assert_int_equal(amd_store_commit(st, &err), 0);
	const struct amd_store_remote r = {.left = "region", .load = load_region};
	amd_store_set_remote(st, &r);
	amd_store_loaded(st);
	loads = 0;
	return st;
}

static void orphans_see_the_left_rows(void **state)
{
	(void)state;
	struct amd_err err = {0};
	struct amd_store *st = store_with_left_region();
	/* a statement that reads no region loads nothing */
	assert_int_equal(amd_store_sweep_id(st, "none", &err), 0);
	assert_int_equal(amd_store_source_count(st, &err), 1);
	assert_int_equal(loads, 0);
	/* orphans.c reads region without asking: the store loads it */
	struct amd_orphan *v = NULL;
	size_t n = 0;
	assert_int_equal(amd_store_orphans(st, &v, &n, &err), 0);
	assert_int_equal(loads, 1);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].path, "/data/trace.json");
	amd_orphans_free(v, n);
	/* loaded once */
	assert_int_equal(amd_store_orphans(st, &v, &n, &err), 0);
	assert_int_equal(loads, 1);
	assert_int_equal(n, 1);
	amd_orphans_free(v, n);
	amd_store_close(st);
}

static void loads_inside_a_read_transaction(void **state)
{
	(void)state;
	struct amd_err err = {0};
	struct amd_store *st = store_with_left_region();
	assert_int_equal(amd_store_read_begin(st, &err), 0);
	struct amd_orphan *v = NULL;
	size_t n = 0;
	int rc = amd_store_orphans(st, &v, &n, &err);
	if (rc < 0)
		fail_msg("%s", err.msg);
	amd_store_read_end(st);
	assert_int_equal(loads, 1);
	assert_int_equal(n, 1);
	amd_orphans_free(v, n);
	amd_store_close(st);
}

/* Runs 1..n (run 1 with a trace, its comm phase and memory peaks). */
static void load_runs(struct amd_store *st, int n)
{
	struct amd_err err = {0};
	struct amd_table_load *l;
	assert_int_equal(amd_store_begin(st, &err), 0);
	assert_int_equal(amd_table_load_open(st, "run", "id,ext_id", &l, &err), 0);
	for (int i = 1; i <= n; i++) {
		char ext[32];
		snprintf(ext, sizeof ext, "r%d", i);
		const struct amd_cell r[] = {num(i), text(ext)};
		assert_int_equal(amd_table_load_row(l, r, &err), 0);
	}
	assert_int_equal(amd_table_load_close(l, 1, &err), 0);
	const struct amd_cell t[] = {num(5), num(1), num(1), num(0)};
	load_rows(st, "trace", "id,run_id,source_id,rank", t);
	const struct amd_cell d[] = {num(40), text(amd_phase_names[AMD_PHASE_COMM])};
	load_rows(st, "dict", "id,s", d);
	const struct amd_cell p[] = {num(5), num(40), num(1234)};
	load_rows(st, "trace_phase", "trace_id,phase_id,ns", p);
	const struct amd_cell m[] = {num(5), num(1), num(0), num(0), num(77), num(88), num(3)};
	load_rows(st, "trace_memory", "trace_id,device_type,device_id,from_totals,"
		  "peak_allocated,peak_reserved,events", m);
	assert_int_equal(amd_store_commit(st, &err), 0);
}

/* One run's reads as `stats` asks them, checked against what run 1
 * holds; returns the runs the probe (a kept statement) counts. */
static int64_t read_run(struct amd_store *st, int64_t run, sqlite3_stmt *probe)
{
	struct amd_err err = {0};
	struct amd_trace_row *t;
	struct amd_mem_row *m;
	struct amd_gpu_sample *g;
	size_t nt, nm, ng;
	assert_int_equal(amd_store_run_traces(st, run, &t, &nt, &err), 0);
	assert_int_equal(amd_store_run_memory(st, run, &m, &nm, &err), 0);
	assert_int_equal(amd_gpu_samples_run(st, run, &g, &ng, &err), 0);
	assert_int_equal(amd_store_sweep_id(st, "none", &err), 0);
	assert_int_equal(nt, run == 1);
	assert_int_equal(nm, run == 1);
	assert_int_equal(ng, 0);
	if (run == 1) {
		assert_int_equal(t[0].phase_ns[AMD_PHASE_COMM], 1234);
		assert_int_equal(m[0].peak_allocated, 77);
	}
	free(t);
	free(m);
	free(g);
	sqlite3_bind_int64(probe, 1, run);
	assert_int_equal(sqlite3_step(probe), SQLITE_ROW);
	int64_t k = sqlite3_column_int64(probe, 0);
	assert_int_equal(amd_store_cached_done(st, probe, sqlite3_step(probe), &err), 0);
	return k;
}

static const char probe_sql[] = "SELECT count(*) FROM run WHERE id <= ?1";

/* Statements prepared by reading runs 1..n. */
static size_t prepares_over(struct amd_store *st, int n)
{
	struct amd_err err = {0};
	sqlite3_stmt *probe = amd_store_cached(st, probe_sql, &err);
	assert_non_null(probe);
	size_t before = amd_store_prepares(st);
	for (int i = 1; i <= n; i++)
		assert_int_equal(read_run(st, i, probe), i);
	return amd_store_prepares(st) - before;
}

static void many_runs_prepare_once(void **state)
{
	(void)state;
	struct amd_store *st = store_with_left_region();
	load_runs(st, 300);
	size_t first = prepares_over(st, 10), few = prepares_over(st, 10),
	       many = prepares_over(st, 300);
	/* each run's uncached look-up (amd_store_sweep_id) and nothing else */
	assert_int_equal(few, 10);
	assert_int_equal(many, 300);
	assert_true(first > few);
	/* the authorizer watching for the left table was not switched around
	 * each prepare: that expired the kept statements, parsed again */
	struct amd_err err = {0};
	sqlite3_stmt *probe = amd_store_cached(st, probe_sql, &err);
	assert_int_equal(sqlite3_stmt_status(probe, SQLITE_STMTSTATUS_REPREPARE, 0), 0);
	assert_int_equal(loads, 0);
	amd_store_close(st);
}

/* ---- a read's on-demand point loads, batched (amd_store_need_key) ---- */

/* runs 1..NRUNS; runs NRUNS + 1 .. NRUNS + NCHILD the child runs of
 * runs 1..NCHILD (one each) */
#define NRUNS 1200
#define NCHILD 100
static int planned[NRUNS + 1], loaded[NRUNS + NCHILD + 1];
static int64_t points_each;
static size_t batch_calls, biggest;

/* the remote's load_runs: notes the runs (sorted, each once) */
static int note_load(void *ctx, struct amd_store *st, const int64_t *runs, size_t n,
		     struct amd_err *err)
{
	(void)ctx;
	(void)st;
	(void)err;
	batch_calls++;
	biggest = n > biggest ? n : biggest;
	for (size_t i = 0; i < n; i++) {
		assert_true(runs[i] >= 1 && runs[i] <= NRUNS + NCHILD);
		assert_true(i == 0 || runs[i - 1] < runs[i]);
		loaded[runs[i]]++;
	}
	return 0;
}

/* the remote's run_points: points_each a run */
static int64_t each_points(void *ctx, int64_t run)
{
	(void)ctx;
	(void)run;
	return points_each;
}

static const char *const left_keys[] = {"m"};

/* The child runs of runs 1..NCHILD. */
static void load_child_runs(struct amd_store *st)
{
	struct amd_err err = {0};
	struct amd_table_load *l;
	assert_int_equal(amd_store_begin(st, &err), 0);
	assert_int_equal(amd_table_load_open(st, "run", "id,ext_id,parent_ext_id", &l, &err), 0);
	for (int i = 1; i <= NCHILD; i++) {
		char ext[32], parent[32];
		snprintf(ext, sizeof ext, "c%d", i);
		snprintf(parent, sizeof parent, "r%d", i);
		const struct amd_cell r[] = {num(NRUNS + i), text(ext), text(parent)};
		assert_int_equal(amd_table_load_row(l, r, &err), 0);
	}
	assert_int_equal(amd_table_load_close(l, 1, &err), 0);
	assert_int_equal(amd_store_commit(st, &err), 0);
}

/* A loaded store of runs 1..NRUNS (and the child runs) whose key "m"
 * is left on the server, npoints a run. */
static struct amd_store *store_with_left_points(int64_t npoints)
{
	struct amd_err err = {0};
	struct amd_store *st;
	assert_int_equal(amd_store_open_loading("clickhouse://test", &st, &err), 0);
	load_runs(st, NRUNS);
	load_child_runs(st);
	const struct amd_store_remote r = {.left = "metric_point", .keys = left_keys, .nkeys = 1,
					   .load_runs = note_load, .run_points = each_points};
	amd_store_set_remote(st, &r);
	amd_store_loaded(st);
	memset(loaded, 0, sizeof loaded);
	memset(planned, 0, sizeof planned);
	points_each = npoints;
	batch_calls = biggest = 0;
	return st;
}

/* Plans the runs id % 3 != 0, in id order (descending: from the last),
 * and reads "m" of them in that order and of runs 3 and 6 (unplanned)
 * first: each run read and its child run loaded once, no other. */
static void read_planned(struct amd_store *st, int descending)
{
	struct amd_err err = {0};
	int64_t plan[NRUNS];
	size_t n = 0;
	for (int k = 1; k <= NRUNS; k++) {
		int i = descending ? NRUNS + 1 - k : k;
		if ((planned[i] = i % 3 != 0))
			plan[n++] = i;
	}
	assert_int_equal(amd_store_plan_reads(st, plan, n, &err), 0);
	int64_t asks[NRUNS + 2] = {3, 6};
	memcpy(asks + 2, plan, n * sizeof *plan);
	for (size_t k = 0; k < n + 2; k++) {
		struct amd_point *p = NULL;
		size_t np = 0;
		assert_int_equal(amd_run_metric(st, asks[k], "m", &p, &np, &err), 0);
		free(p);
	}
	assert_int_equal(amd_store_plan_reads(st, NULL, 0, &err), 0);
	for (int i = 1; i <= NRUNS + NCHILD; i++) {
		int parent = i > NRUNS ? i - NRUNS : i;
		assert_int_equal(loaded[i], planned[parent] || parent == 3 || parent == 6);
	}
}

static void point_loads_batch_the_planned_runs(void **state)
{
	(void)state;
	struct amd_store *st = store_with_left_points(10);
	read_planned(st, 0);
	/* runs 3 and 6 (with their child runs) alone, then the 800 runs
	 * planned (and the 66 child runs of runs 1..100 planned): 512 runs
	 * a load (one load each run before batching: 802) */
	assert_int_equal(batch_calls, 4);
	assert_int_equal(biggest, AMD_NEED_BATCH_RUNS);
	amd_store_close(st);
}

static void point_loads_follow_the_plans_order(void **state)
{
	(void)state;
	struct amd_store *st = store_with_left_points(10);
	read_planned(st, 1);
	assert_int_equal(batch_calls, 4);
	amd_store_close(st);
}

static void point_loads_stay_within_the_points_bound(void **state)
{
	(void)state;
	/* 7 runs of 8,193 points past the asked one fill the bound (65,536;
	 * 3 of runs 1..100 with their child runs); runs 3 and 6 alone: 111
	 * loads (a replay of the rule in Python, not this code, counted
	 * them), the biggest 9 runs (an asked one and its child run, one
	 * with a child, 5 without, where runs 1..100 end) */
	struct amd_store *st = store_with_left_points(AMD_NEED_BATCH_POINTS / 8 + 1);
	read_planned(st, 0);
	assert_int_equal(batch_calls, 111);
	assert_int_equal(biggest, 9);
	amd_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(orphans_see_the_left_rows),
		cmocka_unit_test(loads_inside_a_read_transaction),
		cmocka_unit_test(many_runs_prepare_once),
		cmocka_unit_test(point_loads_batch_the_planned_runs),
		cmocka_unit_test(point_loads_follow_the_plans_order),
		cmocka_unit_test(point_loads_stay_within_the_points_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
