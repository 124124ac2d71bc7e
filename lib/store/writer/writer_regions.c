/* writer_regions.c — the unit writer's regions (writer_regions.h): a
 * parser's regions and caller edges as rows of region and region_call,
 * and, when the unit ends, the regions of what the older readers report
 * in their own tables — trace ops (kind from the Kineto category),
 * collectives, operator averages, and py-spy functions (summed in
 * memory as the stacks are written: writer_stack.c) — so one query
 * reads every profiler. */
#include "writer_regions.h"
#include "writer_profile.h"
#include "writer_sink.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "stmt_cache.h"

static struct row_table region_table = ROW_TABLE(
	"region(source_id, run_id, rank, device, kind_id, profiler_id, name_id, file_id, line,"
	" key, parent_key, calls, prim_calls, self_ns, total_ns, bytes)", 16);
static struct row_table region_call_table = ROW_TABLE(
	"region_call(source_id, caller_key, callee_key, calls, prim_calls, self_ns, total_ns)", 7);

int writer_region(struct amd_sink *s, const struct amd_region_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	int64_t nid = amd_store_intern(ss->st, r->name, err);
	int64_t kid = nid < 0 ? -1 : amd_store_intern(ss->st, r->kind, err);
	int64_t pid = kid < 0 ? -1 : amd_store_intern(ss->st, r->profiler, err);
	int64_t fid = pid < 0 ? -1 : r->file ? amd_store_intern(ss->st, r->file, err) : 0;
	if (fid < 0)
		return -1;
	const struct row_cell row[] = {
		row_int(ss->source_id),   writer_run_cell(ss),        row_int_opt(r->rank),
		row_int_opt(r->device),   row_int(kid),               row_int(pid),
		row_int(nid),             row_int_or_null(fid),       row_int_or_null(r->line),
		row_int_or_null(r->key),  row_int_or_null(r->parent_key), row_int_opt(r->calls),
		row_int_opt(r->prim_calls), row_int_opt(r->self_ns),  row_int_opt(r->total_ns),
		row_int_opt(r->bytes),
	};
	return writer_hold(ss, &ss->region_rows, &region_table, row, err);
}

int writer_region_call(struct amd_sink *s, const struct amd_region_call *c,
		       struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (c->caller_key <= 0 || c->callee_key <= 0)
		return amd_fail(err, "%s: a caller edge without its regions", ss->path);
	const struct row_cell row[] = {
		row_int(ss->source_id), row_int(c->caller_key), row_int(c->callee_key),
		row_int_opt(c->calls),  row_int_opt(c->prim_calls), row_int_opt(c->self_ns),
		row_int_opt(c->total_ns),
	};
	return writer_hold(ss, &ss->region_call_rows, &region_call_table, row, err);
}

/* Kineto categories and the region kind each stands for; any other
 * category is an operator. */
static const struct {
	const char *cat, *kind;
} cat_kinds[] = {
	{"kernel", AMD_REGION_KERNEL},        {"gpu_memcpy", AMD_REGION_MEMCPY},
	{"memcpy", AMD_REGION_MEMCPY},        {"gpu_memset", AMD_REGION_MEMSET},
	{"memset", AMD_REGION_MEMSET},        {"cuda_runtime", AMD_REGION_API},
	{"cuda_driver", AMD_REGION_API},      {"runtime", AMD_REGION_API},
	{"driver", AMD_REGION_API},           {"user_annotation", AMD_REGION_NVTX},
	{"gpu_user_annotation", AMD_REGION_NVTX}, {"python_function", AMD_REGION_FUNCTION},
	{"Trace", AMD_REGION_STEP}, /* "PyTorch Profiler (0)": the profiler's own span */
};
#define N_CAT_KINDS (sizeof cat_kinds / sizeof cat_kinds[0])

/* One INSERT … SELECT over this source's rows: ?1 the source; ?2 the
 * profiler; ?3 the region kind (op or the family's own). sql is a static
 * text: its statement is prepared once per connection (stmt_cache.h),
 * not once per unit. */
static int derive(struct amd_store_sink *ss, const char *sql, const char *profiler,
		  const char *kind, struct amd_err *err)
{
	int64_t pid = amd_store_intern(ss->st, profiler, err);
	int64_t kid = pid < 0 ? -1 : amd_store_intern(ss->st, kind, err);
	if (kid < 0)
		return -1;
	sqlite3_stmt *q = amd_store_cached(ss->st, sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, ss->source_id);
	sqlite3_bind_int64(q, 2, pid);
	sqlite3_bind_int64(q, 3, kid);
	int rc = writer_exec(ss, q, err);
	amd_store_cached_drop(q);
	return rc;
}

/* The ops' statements, one per category of cat_kinds and a last for
 * every other category, written once per process. */
static char ops_sql[N_CAT_KINDS + 1][1024];
static pthread_once_t ops_sql_once = PTHREAD_ONCE_INIT;

static void write_ops_sql(void)
{
	static const char head[] =
		"INSERT INTO region(source_id, run_id, rank, kind_id, profiler_id, name_id,"
		" calls, prim_calls, self_ns, total_ns)"
		" SELECT t.source_id, t.run_id, t.rank, ?3, ?2, o.name_id, o.count, o.count,"
		" o.self_ns, o.total_ns FROM trace_op o JOIN trace t ON t.id=o.trace_id"
		" LEFT JOIN dict c ON c.id=o.cat_id WHERE t.source_id=?1 AND ";
	char list[512] = "";
	size_t len = 0;
	for (size_t i = 0; i < N_CAT_KINDS; i++) {
		snprintf(ops_sql[i], sizeof ops_sql[i], "%sc.s='%s'", head, cat_kinds[i].cat);
		len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", i ? "," : "",
					cat_kinds[i].cat);
	}
	snprintf(ops_sql[N_CAT_KINDS], sizeof ops_sql[N_CAT_KINDS],
		 "%s(c.s IS NULL OR c.s NOT IN (%s))", head, list);
}

/* Trace ops of cat_kinds[i]'s category become regions of its kind;
 * i == N_CAT_KINDS: the ops of every other category, as operators. */
static int derive_ops(struct amd_store_sink *ss, size_t i, struct amd_err *err)
{
	pthread_once(&ops_sql_once, write_ops_sql);
	return derive(ss, ops_sql[i], "torch", i < N_CAT_KINDS ? cat_kinds[i].kind : AMD_REGION_OP,
		      err);
}

/* The profiler's step annotations (ProfilerStep#N, written as user
 * annotations) are steps, not ranges of the user's code. */
static const char steps_sql[] =
	"UPDATE region SET kind_id=?3 WHERE source_id=?1 AND profiler_id=?2"
	" AND name_id IN (SELECT id FROM dict WHERE s GLOB 'ProfilerStep#[0-9]*')";

static const char collectives_sql[] =
	"INSERT INTO region(source_id, run_id, rank, kind_id, profiler_id, name_id, calls,"
	" prim_calls, self_ns, total_ns, bytes)"
	" SELECT t.source_id, t.run_id, t.rank, ?3, ?2, c.name_id, count(*), count(*),"
	" sum(c.dur_ns), sum(c.dur_ns), sum(CASE WHEN c.bytes >= 0 THEN c.bytes END)"
	" FROM trace_collective c"
	" JOIN trace t ON t.id=c.trace_id WHERE t.source_id=?1 GROUP BY t.id, c.name_id";

/* itwinai's key_averages CSV: CUDA times in µs. */
static const char op_averages_sql[] =
	"INSERT INTO region(source_id, run_id, rank, kind_id, profiler_id, name_id, calls,"
	" prim_calls, self_ns, total_ns)"
	" SELECT source_id, run_id, rank, ?3, ?2, name_id, calls, calls,"
	" CAST(round(self_cuda_us * 1000) AS INTEGER), CAST(round(cuda_total_us * 1000) AS INTEGER)"
	" FROM op_average WHERE source_id=?1";

int writer_regions_derive(struct amd_store_sink *ss, struct amd_err *err)
{
	if (writer_held_flush(ss, err) < 0) /* the held rows first: the SQL below reads them */
		return -1;
	for (size_t i = 0; i <= N_CAT_KINDS; i++)
		if (derive_ops(ss, i, err) < 0)
			return -1;
	if (derive(ss, steps_sql, "torch", AMD_REGION_STEP, err) < 0 ||
	    derive(ss, collectives_sql, "torch", AMD_REGION_COLLECTIVE, err) < 0 ||
	    derive(ss, op_averages_sql, "torch-averages", AMD_REGION_OP_DEVICE, err) < 0 ||
	    writer_stack_regions(ss, "py-spy", AMD_REGION_FUNCTION, err) < 0)
		return -1;
	return 0;
}
