/* writer_calls.c — a unit's caller edges (cProfile's callers) into table
 * region_call_pack (call_pack.h): the edges are held and written as one
 * packed row when the buffer holds AMD_CALL_CHUNK of them and before SQL
 * that reads them (writer_held_flush), so the packs keep the order the
 * reader gave them and a profile costs an INSERT per 4,096 edges, not a
 * row and an index entry per edge. */
#include "writer_regions.h"
#include "writer_sink.h"

#include <stdlib.h>

#include "buf.h"
#include "stmt_cache.h"

int writer_calls_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->n_calls == 0)
		return 0;
	size_t bytes = amd_call_packed_size(ss->calls, ss->n_calls);
	unsigned char *blob = malloc(bytes);
	sqlite3_stmt *q = blob ? amd_store_cached(ss->st,
		"INSERT INTO region_call_pack(source_id, n, edges) VALUES(?1,?2,?3)", err) : NULL;
	if (!q) {
		free(blob);
		return blob ? -1 : amd_fail(err, "%s: out of memory", ss->path);
	}
	amd_call_pack(ss->calls, ss->n_calls, blob);
	sqlite3_bind_int64(q, 1, ss->source_id);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)ss->n_calls);
	sqlite3_bind_blob64(q, 3, blob, bytes, free);
	ss->n_calls = 0;
	int rc = writer_exec(ss, q, err);
	amd_store_cached_drop(q);
	return rc;
}

void writer_calls_free(struct amd_store_sink *ss)
{
	free(ss->calls);
	ss->calls = NULL;
	ss->n_calls = ss->cap_calls = 0;
}

/* v as column c of e: NULL (a bit of its mask) when negative, as
 * row_int_opt wrote it. */
static void opt(struct amd_packed_call *e, int c, int64_t v)
{
	e->v[c] = v < 0 ? 0 : v;
	e->v[AMD_CL_NULLS] |= v < 0 ? AMD_CALL_NULL(c) : 0;
}

int writer_region_call(struct amd_sink *s, const struct amd_region_call *c,
		       struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (c->caller_key <= 0 || c->callee_key <= 0)
		return amd_fail(err, "%s: a caller edge without its regions", ss->path);
	if (ss->n_calls == AMD_CALL_CHUNK && writer_calls_flush(ss, err) < 0)
		return -1;
	if (amd_grow(&ss->calls, ss->n_calls, &ss->cap_calls, sizeof *ss->calls, 256) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	struct amd_packed_call *e = &ss->calls[ss->n_calls++];
	*e = (struct amd_packed_call){.v = {[AMD_CL_CALLER] = c->caller_key,
					    [AMD_CL_CALLEE] = c->callee_key}};
	opt(e, AMD_CL_CALLS, c->calls);
	opt(e, AMD_CL_PRIM, c->prim_calls);
	opt(e, AMD_CL_SELF, c->self_ns);
	opt(e, AMD_CL_TOTAL, c->total_ns);
	return 0;
}
