/* writer_regions.c — the unit writer's regions (writer_regions.h): a
 * reader's regions and caller edges as rows of region and region_call,
 * and a region's detail (a trace op's category, shortest and longest
 * call, place among the trace's ops) as a row of region_detail, all
 * held and written many to a statement (row_batch.h). Every profiler's
 * regions come from its reader (lib/model/region.h); the store derives
 * none. */
#include "writer_regions.h"
#include "writer_profile.h"
#include "writer_sink.h"

static struct row_table region_table = ROW_TABLE(
	"region(id, source_id, run_id, rank, device, kind_id, profiler_id, name_id, file_id,"
	" line, key, parent_key, calls, prim_calls, self_ns, total_ns, bytes)", 17);
static struct row_table region_call_table = ROW_TABLE(
	"region_call(source_id, caller_key, callee_key, calls, prim_calls, self_ns, total_ns)", 7);
static struct row_table region_detail_table = ROW_TABLE(
	"region_detail(region_id, category_id, min_ns, max_ns, seq)", 5);

/* The id of the unit's next region: one above the table's largest,
 * counted from the unit's first region (the unit holds the store's
 * write transaction), the id SQLite would give it; so a region's detail
 * row can name it while both wait in their batches. */
static int64_t next_region_id(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->next_region == 0) {
		sqlite3_stmt *q = amd_store_prepare(ss->st,
			"SELECT COALESCE(max(id), 0) FROM region", err);
		if (!q)
			return -1;
		int rc = sqlite3_step(q);
		int64_t top = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
		sqlite3_finalize(q);
		if (top < 0)
			return writer_sql_fail(ss, err);
		if (top == INT64_MAX)
			return amd_fail(err, "%s: cannot number new regions", ss->path);
		ss->next_region = top + 1;
	}
	return ss->next_region++;
}

/* Region id's detail row. */
static int region_detail(struct amd_store_sink *ss, int64_t id, const struct amd_region_detail *d,
			 struct amd_err *err)
{
	int64_t cid = d->category ? amd_store_intern(ss->st, d->category, err) : 0;
	if (cid < 0)
		return -1;
	const struct row_cell row[] = {
		row_int(id), row_int_or_null(cid), row_int(d->min_ns), row_int(d->max_ns),
		row_int(d->seq),
	};
	return writer_hold(ss, &ss->region_detail_rows, &region_detail_table, row, err);
}

int writer_region(struct amd_sink *s, const struct amd_region_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	int64_t nid = amd_store_intern(ss->st, r->name, err);
	int64_t kid = nid < 0 ? -1 : amd_store_intern(ss->st, r->kind, err);
	int64_t pid = kid < 0 ? -1 : amd_store_intern(ss->st, r->profiler, err);
	int64_t fid = pid < 0 ? -1 : r->file ? amd_store_intern(ss->st, r->file, err) : 0;
	int64_t id = fid < 0 ? -1 : next_region_id(ss, err);
	if (id < 0)
		return -1;
	const struct row_cell row[] = {
		row_int(id),              row_int(ss->source_id),     writer_run_cell(ss),
		row_int_opt(r->rank),     row_int_opt(r->device),     row_int(kid),
		row_int(pid),             row_int(nid),               row_int_or_null(fid),
		row_int_or_null(r->line), row_int_or_null(r->key),    row_int_or_null(r->parent_key),
		row_int_opt(r->calls),    row_int_opt(r->prim_calls), row_int_opt(r->self_ns),
		row_int_opt(r->total_ns), row_int_opt(r->bytes),
	};
	if (writer_hold(ss, &ss->region_rows, &region_table, row, err) < 0)
		return -1;
	return r->detail ? region_detail(ss, id, r->detail, err) : 0;
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
