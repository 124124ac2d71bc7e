/* writer_regions.c — the unit writer's regions (writer_regions.h): a
 * reader's regions and caller edges as rows of region and region_call,
 * held and written many to a statement (row_batch.h). Every profiler's
 * regions come from its reader (lib/model/region.h); the store derives
 * none. */
#include "writer_regions.h"
#include "writer_profile.h"
#include "writer_sink.h"

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
