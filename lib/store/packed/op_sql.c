/* op_sql.c — the op_average virtual table and the amd_op_pack aggregate
 * (op_sql.h). Compiled into the library, and again with AMD_SQLITE_EXT
 * for the `sqlite3` shell's loadable extension (metric_ext.c). */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "op_sql.h"
#include "packed_vtab.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- amd_op_pack(seq, name_id, rank, self, total, calls, role) ---- */

struct op_row {
	int64_t seq;
	struct amd_packed_op op;
};

/* v as an int64, or 0 with bit set in *nulls when v is NULL. */
static int64_t arg_int(sqlite3_value *v, int64_t bit, int64_t *nulls)
{
	if (sqlite3_value_type(v) != SQLITE_NULL)
		return sqlite3_value_int64(v);
	*nulls |= bit;
	return 0;
}

/* The same for a REAL. */
static double arg_real(sqlite3_value *v, int64_t bit, int64_t *nulls)
{
	if (sqlite3_value_type(v) != SQLITE_NULL)
		return sqlite3_value_double(v);
	*nulls |= bit;
	return 0;
}

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	struct op_row *r = amd_packed_acc_add(ctx, sizeof *r);
	if (!r)
		return;
	struct amd_packed_op *o = &r->op;
	o->nulls = 0;
	r->seq = sqlite3_value_int64(argv[0]);
	o->name_id = sqlite3_value_int64(argv[1]);
	o->rank = arg_int(argv[2], AMD_OP_NULL_RANK, &o->nulls);
	o->self_cuda_us = arg_real(argv[3], AMD_OP_NULL_SELF, &o->nulls);
	o->cuda_total_us = arg_real(argv[4], AMD_OP_NULL_TOTAL, &o->nulls);
	o->calls = arg_int(argv[5], AMD_OP_NULL_CALLS, &o->nulls);
	o->role = arg_int(argv[6], AMD_OP_NULL_ROLE, &o->nulls);
}

static int by_seq(const void *x, const void *y)
{
	const struct op_row *a = x, *b = y;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* o[0..n) packed as the result of ctx, or an out-of-memory error. */
static void result_pack(sqlite3_context *ctx, const struct amd_packed_op *o, size_t n)
{
	size_t bytes = amd_op_packed_size(o, n);
	unsigned char *out = sqlite3_malloc64(bytes + 1);
	if (!out) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	amd_op_pack(o, n, out);
	sqlite3_result_blob64(ctx, out, bytes, sqlite3_free);
}

static void pack_final(sqlite3_context *ctx)
{
	struct amd_packed_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		result_pack(ctx, NULL, 0);
		return;
	}
	struct amd_packed_op *o = NULL;
	if (!a->oom && (o = malloc((a->n + 1) * sizeof *o))) {
		struct op_row *v = a->v;
		qsort(v, a->n, sizeof *v, by_seq);
		for (size_t i = 0; i < a->n; i++)
			o[i] = v[i].op;
		result_pack(ctx, o, a->n);
	} else
		sqlite3_result_error_nomem(ctx);
	free(o);
	free(a->v);
}

/* ---- amd_op_from_records(ops): a schema-16 blob repacked (migration 17) ---- */

static void from_records(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	size_t len = (size_t)sqlite3_value_bytes(argv[0]);
	const void *blob = sqlite3_value_blob(argv[0]);
	size_t n = len / AMD_OP_RECORD_BYTES;
	struct amd_packed_op *o = malloc((n + 1) * sizeof *o);
	struct amd_err err = {0};
	if (!o)
		sqlite3_result_error_nomem(ctx);
	else if (amd_op_from_records(blob, len, "op_average_pack", o, &err) < 0)
		sqlite3_result_error(ctx, err.msg, -1);
	else
		result_pack(ctx, o, n);
	free(o);
}

/* ---- the op_average virtual table ---- */

enum { COL_RUN, COL_SOURCE, COL_NAME, COL_RANK, COL_SELF, COL_TOTAL, COL_CALLS, COL_ROLE };

static int unpack_ops(const void *blob, size_t len, int64_t n, const char *what, void *out,
		      struct amd_err *err)
{
	return amd_op_unpack(blob, len, n, what, out, err);
}

static int op_unpack(struct amd_packed_cursor *c)
{
	return amd_packed_unpack_counted(c, "op_average_pack", sizeof(struct amd_packed_op),
					 unpack_ops);
}

static void result_int(sqlite3_context *ctx, int64_t v, int null)
{
	if (null)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
}

static void result_real(sqlite3_context *ctx, double v, int null)
{
	if (null)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, v);
}

static void op_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
	const struct amd_packed_op *o = (const struct amd_packed_op *)c->v + c->i;
	switch (col) {
	case COL_RUN: sqlite3_result_value(ctx, c->run); break;
	case COL_SOURCE: sqlite3_result_int64(ctx, c->source); break;
	case COL_NAME: sqlite3_result_int64(ctx, o->name_id); break;
	case COL_RANK: result_int(ctx, o->rank, o->nulls & AMD_OP_NULL_RANK); break;
	case COL_SELF: result_real(ctx, o->self_cuda_us, o->nulls & AMD_OP_NULL_SELF); break;
	case COL_TOTAL: result_real(ctx, o->cuda_total_us, o->nulls & AMD_OP_NULL_TOTAL); break;
	case COL_CALLS: result_int(ctx, o->calls, o->nulls & AMD_OP_NULL_CALLS); break;
	default: result_int(ctx, o->role, o->nulls & AMD_OP_NULL_ROLE); break;
	}
}

/* The pack's rowid, then the row's place: write order. */
static sqlite3_int64 op_rowid(const struct amd_packed_cursor *c)
{
	return (sqlite3_int64)((uint64_t)c->pack << 32 | (uint64_t)c->i);
}

static const struct amd_packed_use op_use[] = {
	AMD_PACKED_EQ(COL_SOURCE, 's', "source_id"),
	AMD_PACKED_EQ(COL_RUN, 'r', "run_id"),
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def op_def = {
	.schema = "CREATE TABLE x(run_id INTEGER, source_id INTEGER, name_id INTEGER,"
		  " rank INTEGER, self_cuda_us REAL, cuda_total_us REAL, calls INTEGER,"
		  " role INTEGER)",
	.scan = "SELECT rowid, n, ops, source_id, run_id FROM main.op_average_pack WHERE 1",
	.order = " ORDER BY rowid",
	.use = op_use,
	.has_run = 1,
	.cursor_size = sizeof(struct amd_packed_cursor),
	.unpack = op_unpack,
	.column = op_column,
	.rowid = op_rowid,
};

int amd_op_sql_register(sqlite3 *db)
{
	int rc = amd_packed_create_module(db, "op_average", &op_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_op_pack", 7, SQLITE_UTF8, NULL, NULL,
					     pack_step, pack_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_op_from_records", 1,
					     SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, from_records,
					     NULL, NULL);
	return rc;
}
