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

/* ---- amd_call_pack(seq, caller, callee, calls, prim, self, total) ---- */

struct call_row {
	int64_t seq;
	struct amd_packed_call e;
};

/* argument k as an int64, or 0 with bit set in *nulls when it is NULL */
static int64_t arg(sqlite3_value **argv, int k, int64_t bit, int64_t *nulls)
{
	if (sqlite3_value_type(argv[k]) != SQLITE_NULL)
		return sqlite3_value_int64(argv[k]);
	*nulls |= bit;
	return 0;
}

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	struct call_row *r = amd_packed_acc_add(ctx, sizeof *r);
	if (!r)
		return;
	struct amd_packed_call *e = &r->e;
	e->nulls = 0;
	r->seq = sqlite3_value_int64(argv[0]);
	e->caller_key = sqlite3_value_int64(argv[1]);
	e->callee_key = sqlite3_value_int64(argv[2]);
	e->calls = arg(argv, 3, AMD_CALL_NULL_CALLS, &e->nulls);
	e->prim_calls = arg(argv, 4, AMD_CALL_NULL_PRIM, &e->nulls);
	e->self_ns = arg(argv, 5, AMD_CALL_NULL_SELF, &e->nulls);
	e->total_ns = arg(argv, 6, AMD_CALL_NULL_TOTAL, &e->nulls);
}

static int by_seq(const void *x, const void *y)
{
	const struct call_row *a = x, *b = y;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The rows in seq order, packed in place (a record is no longer than a
 * row) and handed to SQLite as the blob. */
static void pack_final(sqlite3_context *ctx)
{
	struct amd_packed_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a || a->n == 0) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	struct call_row *v = a->v;
	unsigned char *out = a->oom ? NULL : sqlite3_malloc64((sqlite3_uint64)a->n * AMD_CALL_BYTES);
	if (out) {
		qsort(v, a->n, sizeof *v, by_seq);
		for (size_t i = 0; i < a->n; i++)
			amd_call_pack(&v[i].e, 1, out + i * AMD_CALL_BYTES);
		sqlite3_result_blob64(ctx, out, (sqlite3_uint64)a->n * AMD_CALL_BYTES, sqlite3_free);
	} else
		sqlite3_result_error_nomem(ctx);
	free(a->v);
}

/* ---- the region_call virtual table ---- */

enum { COL_SOURCE, COL_CALLER, COL_CALLEE, COL_CALLS, COL_PRIM, COL_SELF, COL_TOTAL };

static int call_unpack(struct amd_packed_cursor *c)
{
	const void *blob;
	size_t len;
	int rc = amd_packed_blob(c, 2, &blob, &len);
	size_t n = len / AMD_CALL_BYTES;
	if (rc == SQLITE_OK)
		rc = amd_packed_records(c, n, sizeof(struct amd_packed_call));
	if (rc != SQLITE_OK)
		return rc;
	char what[96];
	struct amd_err err = {0};
	snprintf(what, sizeof what, "region_call_pack %lld",
		 (long long)sqlite3_column_int64(c->q, 0));
	if (amd_call_unpack(blob, len, what, c->v, &err) < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	if ((int64_t)n != sqlite3_column_int64(c->q, 1))
		return amd_packed_vtab_corrupt(&c->base,
					       "region_call_pack: n is not the blob's count of edges");
	c->n = n;
	return SQLITE_OK;
}

/* v, or NULL when the mask's bit says so */
static void result_int(sqlite3_context *ctx, int64_t v, int64_t nulls, int64_t bit)
{
	if (nulls & bit)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
}

static void call_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
	const struct amd_packed_call *e = (const struct amd_packed_call *)c->v + c->i;
	switch (col) {
	case COL_SOURCE: sqlite3_result_int64(ctx, c->source); break;
	case COL_CALLER: sqlite3_result_int64(ctx, e->caller_key); break;
	case COL_CALLEE: sqlite3_result_int64(ctx, e->callee_key); break;
	case COL_CALLS: result_int(ctx, e->calls, e->nulls, AMD_CALL_NULL_CALLS); break;
	case COL_PRIM: result_int(ctx, e->prim_calls, e->nulls, AMD_CALL_NULL_PRIM); break;
	case COL_SELF: result_int(ctx, e->self_ns, e->nulls, AMD_CALL_NULL_SELF); break;
	default: result_int(ctx, e->total_ns, e->nulls, AMD_CALL_NULL_TOTAL); break;
	}
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
