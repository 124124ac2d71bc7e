/* call_sql.c — the region_call virtual table and the amd_call_pack
 * aggregate (call_sql.h). Compiled into the library, and again with
 * AMD_SQLITE_EXT for the `sqlite3` shell's loadable extension
 * (metric_ext.c). */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "call_sql.h"
#include "packed_vtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- amd_call_pack(seq, caller, callee, calls, prim, self, total) ---- */

struct call_row {
	int64_t seq;
	struct amd_packed_call e;
};

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	struct call_row *r = amd_packed_acc_add(ctx, sizeof *r);
	if (!r)
		return;
	int64_t *v = r->e.v;
	r->seq = sqlite3_value_int64(argv[0]);
	v[AMD_CL_NULLS] = 0;
	for (int c = AMD_CL_CALLER; c < AMD_CALL_COLUMNS; c++) {
		int null = c >= AMD_CL_CALLS && sqlite3_value_type(argv[c]) == SQLITE_NULL;
		v[c] = null ? 0 : sqlite3_value_int64(argv[c]);
		v[AMD_CL_NULLS] |= null ? AMD_CALL_NULL(c) : 0;
	}
}

static int by_seq(const void *x, const void *y)
{
	const struct call_row *a = x, *b = y;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The rows in seq order, their edges moved to the front of the rows'
 * array (an edge is no longer than a row) and packed into the blob. */
static void pack_final(sqlite3_context *ctx)
{
	struct amd_packed_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a || a->n == 0) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	struct call_row *v = a->v;
	struct amd_packed_call *e = a->v;
	unsigned char *out = NULL;
	size_t bytes = 0;
	if (!a->oom) {
		qsort(v, a->n, sizeof *v, by_seq);
		for (size_t i = 0; i < a->n; i++)
			memmove(&e[i], &v[i].e, sizeof *e);
		bytes = amd_call_packed_size(e, a->n);
		out = sqlite3_malloc64(bytes);
	}
	if (out) {
		amd_call_pack(e, a->n, out);
		sqlite3_result_blob64(ctx, out, bytes, sqlite3_free);
	} else
		sqlite3_result_error_nomem(ctx);
	free(a->v);
}

/* ---- the region_call virtual table ---- */

/* The table's columns: source_id (0), then caller_key..total_ns as
 * the blob's columns AMD_CL_CALLER..AMD_CL_TOTAL (1..6). */
enum { COL_SOURCE };
_Static_assert(AMD_CL_CALLER == 1 && AMD_CL_TOTAL == 6, "region_call's columns moved");

static int unpack_calls(const void *blob, size_t len, int64_t n, const char *what, void *out,
			struct amd_err *err)
{
	return amd_call_unpack(blob, len, n, what, out, err);
}

static int call_unpack(struct amd_packed_cursor *c)
{
	return amd_packed_unpack_counted(c, "region_call_pack", sizeof(struct amd_packed_call),
					 unpack_calls);
}

/* Column col (the table's: source_id, then the edge's columns) of the
 * current edge, NULL when its mask says so. */
static void call_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
	const int64_t *v = ((const struct amd_packed_call *)c->v)[c->i].v;
	if (col == 0)
		sqlite3_result_int64(ctx, c->source);
	else if (col >= AMD_CL_CALLS && (v[AMD_CL_NULLS] & AMD_CALL_NULL(col)))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v[col]);
}

/* The pack's rowid, then the edge's place: write order. */
static sqlite3_int64 call_rowid(const struct amd_packed_cursor *c)
{
	return (sqlite3_int64)((uint64_t)c->pack << 32 | (uint64_t)c->i);
}

static const struct amd_packed_use call_use[] = {
	AMD_PACKED_EQ(COL_SOURCE, 's', "source_id"),
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def call_def = {
	.schema = "CREATE TABLE x(source_id INTEGER, caller_key INTEGER, callee_key INTEGER,"
		  " calls INTEGER, prim_calls INTEGER, self_ns INTEGER, total_ns INTEGER)",
	.scan = "SELECT rowid, n, edges, source_id FROM main.region_call_pack WHERE 1",
	.order = " ORDER BY rowid",
	.use = call_use,
	.cursor_size = sizeof(struct amd_packed_cursor),
	.unpack = call_unpack,
	.column = call_column,
	.rowid = call_rowid,
};

int amd_call_sql_register(sqlite3 *db)
{
	int rc = amd_packed_create_module(db, "region_call", &call_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_call_pack", 7, SQLITE_UTF8, NULL, NULL,
					     pack_step, pack_final);
	return rc;
}
