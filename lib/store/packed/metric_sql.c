/* metric_sql.c — the metric_point virtual table and the amd_metric_pack
 * aggregate (metric_sql.h). Compiled into the library, and again with
 * AMD_SQLITE_EXT for the `sqlite3` shell's loadable extension
 * (metric_ext.c), where SQLite's API comes through sqlite3ext.h. */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "metric_sql.h"
#include "stack_sql.h"
#include "op_sql.h"
#include "call_sql.h"
#include "region_sql.h"
#include "gpu_sql.h"
#include "packed_vtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int amd_metric_row_unpack(sqlite3_stmt *q, int col, int col_n, const char *what,
			  struct amd_metric_cols *c, struct amd_err *err)
{
	const void *blob = sqlite3_column_blob(q, col);
	size_t len = (size_t)sqlite3_column_bytes(q, col);
	if (len && !blob)
		return amd_fail(err, "%s: out of memory", what);
	if (amd_metric_unpack(blob, len, what, c, err) < 0)
		return -1;
	if ((int64_t)c->n != sqlite3_column_int64(q, col_n)) {
		amd_metric_cols_free(c);
		return amd_fail(err, "%s: n says %lld points, the blob holds %zu", what,
				(long long)sqlite3_column_int64(q, col_n), (size_t)len / 24);
	}
	return 0;
}

/* ---- amd_metric_pack(seq, step, ts_ms, value) ---- */

struct pack_acc {
	struct amd_metric_cols c;
	int64_t *seq;
	size_t cap;
	int oom;
};

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct pack_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
	if (!a || a->oom)
		return;
	if (a->c.n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		int64_t *seq = realloc(a->seq, cap * sizeof *seq);
		a->seq = seq ? seq : a->seq;
		int64_t *step = realloc(a->c.step, cap * sizeof *step);
		a->c.step = step ? step : a->c.step;
		int64_t *ts = realloc(a->c.ts_ms, cap * sizeof *ts);
		a->c.ts_ms = ts ? ts : a->c.ts_ms;
		double *v = realloc(a->c.value, cap * sizeof *v);
		a->c.value = v ? v : a->c.value;
		if (!seq || !step || !ts || !v) {
			a->oom = 1;
			return;
		}
		a->cap = cap;
	}
	size_t i = a->c.n++;
	a->seq[i] = sqlite3_value_int64(argv[0]);
	a->c.step[i] = sqlite3_value_int64(argv[1]);
	a->c.ts_ms[i] = sqlite3_value_int64(argv[2]); /* NULL: 0 */
	a->c.value[i] = sqlite3_value_type(argv[3]) == SQLITE_NULL ? NAN
				: sqlite3_value_double(argv[3]);
}

struct seq_ix {
	int64_t seq;
	size_t i;
};

static int by_seq(const void *x, const void *y)
{
	const struct seq_ix *a = x, *b = y;
	if (a->seq != b->seq)
		return (a->seq > b->seq) - (a->seq < b->seq);
	return (a->i > b->i) - (a->i < b->i);
}

/* Puts a's points in seq order (rows may come in any order); -1 when
 * out of memory. */
static int pack_order(struct pack_acc *a)
{
	size_t n = a->c.n;
	struct seq_ix *ix = malloc(n * sizeof *ix);
	int64_t *s = malloc(n * sizeof *s), *t = malloc(n * sizeof *t);
	double *v = malloc(n * sizeof *v);
	int ok = ix && s && t && v;
	if (ok) {
		for (size_t i = 0; i < n; i++)
			ix[i] = (struct seq_ix){a->seq[i], i};
		qsort(ix, n, sizeof *ix, by_seq);
		for (size_t i = 0; i < n; i++) {
			s[i] = a->c.step[ix[i].i];
			t[i] = a->c.ts_ms[ix[i].i];
			v[i] = a->c.value[ix[i].i];
		}
		memcpy(a->c.step, s, n * sizeof *s);
		memcpy(a->c.ts_ms, t, n * sizeof *t);
		memcpy(a->c.value, v, n * sizeof *v);
	}
	free(ix);
	free(s);
	free(t);
	free(v);
	return ok ? 0 : -1;
}

static void pack_final(sqlite3_context *ctx)
{
	struct pack_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	unsigned char *out = NULL;
	if (!a->oom && pack_order(a) == 0 &&
	    (out = sqlite3_malloc64((sqlite3_uint64)a->c.n * AMD_METRIC_POINT_BYTES + 1))) {
		amd_metric_pack(&a->c, out);
		sqlite3_result_blob64(ctx, out, (sqlite3_uint64)a->c.n * AMD_METRIC_POINT_BYTES,
				      sqlite3_free);
	} else
		sqlite3_result_error_nomem(ctx);
	free(a->seq);
	amd_metric_cols_free(&a->c);
}

/* ---- the metric_point virtual table ---- */

enum { COL_RUN, COL_KEY, COL_STEP, COL_TS, COL_VALUE, COL_SOURCE, COL_SEQ };

struct mp_cursor {
	struct amd_packed_cursor base;
	struct amd_metric_cols c; /* the chunk's points */
	int64_t run, key, source; /* the chunk's series */
	int64_t seq0, last_n;     /* the chunk's first seq; the last chunk's n */
};

static int mp_unpack(struct amd_packed_cursor *cur)
{
	struct mp_cursor *c = (struct mp_cursor *)cur;
	sqlite3_stmt *q = cur->q;
	char what[200];
	struct amd_err err = {0};
	/* (SQLite's message: the caller names the store) */
	snprintf(what, sizeof what, "metric_series run %lld key %lld source %lld chunk %lld",
		 (long long)sqlite3_column_int64(q, 4), (long long)sqlite3_column_int64(q, 5),
		 (long long)sqlite3_column_int64(q, 3), (long long)sqlite3_column_int64(q, 6));
	amd_metric_cols_free(&c->c);
	if (amd_metric_row_unpack(q, 2, 1, what, &c->c, &err) < 0)
		return amd_packed_vtab_corrupt(&cur->base, err.msg);
	cur->n = c->c.n;
	return SQLITE_OK;
}

/* A chunk of the series before continues its seq; another starts at 0. */
static int mp_keys(struct amd_packed_cursor *cur)
{
	struct mp_cursor *c = (struct mp_cursor *)cur;
	int64_t run = sqlite3_column_int64(cur->q, 4), key = sqlite3_column_int64(cur->q, 5);
	int same = cur->row && run == c->run && key == c->key && cur->source == c->source;
	c->seq0 = same ? c->seq0 + c->last_n : 0;
	c->last_n = (int64_t)cur->n;
	c->run = run, c->key = key, c->source = cur->source;
	return SQLITE_OK;
}

static void mp_column(struct amd_packed_cursor *cur, sqlite3_context *ctx, int col)
{
	struct mp_cursor *c = (struct mp_cursor *)cur;
	switch (col) {
	case COL_RUN: sqlite3_result_int64(ctx, c->run); break;
	case COL_KEY: sqlite3_result_int64(ctx, c->key); break;
	case COL_STEP: sqlite3_result_int64(ctx, c->c.step[cur->i]); break;
	case COL_TS: sqlite3_result_int64(ctx, c->c.ts_ms[cur->i]); break;
	case COL_VALUE: amd_packed_result_double(ctx, c->c.value[cur->i]); break;
	case COL_SOURCE: sqlite3_result_int64(ctx, c->source); break;
	default: sqlite3_result_int64(ctx, c->seq0 + (int64_t)cur->i); break;
	}
}

static void mp_clear(struct amd_packed_cursor *cur)
{
	amd_metric_cols_free(&((struct mp_cursor *)cur)->c);
}

/* Equality on run_id, key_id and source_id reads only those series. */
static const struct amd_packed_use mp_use[] = {
	AMD_PACKED_EQ(COL_RUN, 'r', "run_id"),
	AMD_PACKED_EQ(COL_KEY, 'k', "key_id"),
	AMD_PACKED_EQ(COL_SOURCE, 's', "source_id"),
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def mp_def = {
	.schema = "CREATE TABLE x(run_id INTEGER, key_id INTEGER, step INTEGER, ts_ms INTEGER,"
		  " value REAL, source_id INTEGER, seq INTEGER)",
	.scan = "SELECT rowid, n, points, source_id, run_id, key_id, chunk FROM main.metric_series"
		" WHERE 1",
	.order = " ORDER BY run_id, key_id, source_id, chunk",
	.use = mp_use,
	.plan_by_number = 1,
	.cursor_size = sizeof(struct mp_cursor),
	.unpack = mp_unpack,
	.keys = mp_keys,
	.column = mp_column,
	.clear = mp_clear,
};

int amd_metric_sql_register(sqlite3 *db)
{
	int rc = amd_packed_create_module(db, "metric_point", &mp_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_metric_pack", 4, SQLITE_UTF8, NULL, NULL,
					     pack_step, pack_final);
	if (rc == SQLITE_OK)
		rc = amd_gpu_sql_register(db); /* the GPU samples too */
	if (rc == SQLITE_OK)
		rc = amd_stack_sql_register(db); /* and py-spy stacks */
	if (rc == SQLITE_OK)
		rc = amd_op_sql_register(db); /* and operator averages */
	if (rc == SQLITE_OK)
		rc = amd_call_sql_register(db); /* and regions' caller edges */
	return rc == SQLITE_OK ? amd_region_sql_register(db) : rc; /* and regions */
}
