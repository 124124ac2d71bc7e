/* gpu_sql.c — the gpu_sample virtual table, the amd_gpu_pack aggregate
 * and amd_gpu_any_in (gpu_sql.h). Compiled into the library, and again
 * with AMD_SQLITE_EXT for the `sqlite3` shell's loadable extension
 * (metric_ext.c), where SQLite's API comes through sqlite3ext.h. */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "gpu_sql.h"
#include "packed_vtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- amd_gpu_pack(seq, ts_ms, util, mem_util, power, mem_used, temp) ---- */

struct gpu_row {
	int64_t seq;
	struct amd_gpu_sample g;
};

static double arg_double(sqlite3_value *v)
{
	return sqlite3_value_type(v) == SQLITE_NULL ? NAN : sqlite3_value_double(v);
}

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct gpu_row *r = amd_packed_acc_add(ctx, sizeof *r);
	if (!r)
		return;
	r->seq = sqlite3_value_int64(argv[0]);
	r->g.ts_ms = sqlite3_value_int64(argv[1]);
	r->g.util_pct = arg_double(argv[2]);
	r->g.mem_util_pct = arg_double(argv[3]);
	r->g.power_w = arg_double(argv[4]);
	r->g.mem_used_mib = arg_double(argv[5]);
	r->g.temp_c = arg_double(argv[6]);
}

static int by_seq(const void *x, const void *y)
{
	const struct gpu_row *a = x, *b = y;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static void pack_final(sqlite3_context *ctx)
{
	struct amd_packed_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	struct amd_gpu_sample *g = NULL;
	unsigned char *out = NULL;
	if (!a->oom && (g = malloc((a->n + 1) * sizeof *g)) &&
	    (out = sqlite3_malloc64((sqlite3_uint64)a->n * AMD_GPU_SAMPLE_BYTES + 1))) {
		struct gpu_row *v = a->v;
		qsort(v, a->n, sizeof *v, by_seq);
		for (size_t i = 0; i < a->n; i++)
			g[i] = v[i].g;
		amd_gpu_pack(g, a->n, out);
		sqlite3_result_blob64(ctx, out, (sqlite3_uint64)a->n * AMD_GPU_SAMPLE_BYTES,
				      sqlite3_free);
	} else
		sqlite3_result_error_nomem(ctx);
	free(g);
	free(a->v);
}

/* ---- amd_gpu_any_in(samples, t0_ms, t1_ms) ---- */

static void any_in(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const void *blob = sqlite3_value_blob(argv[0]);
	size_t n = (size_t)sqlite3_value_bytes(argv[0]) / AMD_GPU_SAMPLE_BYTES;
	int64_t t0 = sqlite3_value_int64(argv[1]), t1 = sqlite3_value_int64(argv[2]);
	int hit = 0;
	if (sqlite3_value_type(argv[1]) == SQLITE_NULL || sqlite3_value_type(argv[2]) == SQLITE_NULL)
		n = 0; /* BETWEEN with a NULL end holds for no sample */
	for (size_t i = 0; i < n && !hit && blob; i++) {
		int64_t t = amd_gpu_blob_ts(blob, i);
		hit = t >= t0 && t <= t1;
	}
	sqlite3_result_int(ctx, hit);
}

/* ---- the gpu_sample virtual table ---- */

enum { COL_SOURCE, COL_RUN, COL_GPU, COL_TS, COL_UTIL, COL_MEMUTIL, COL_POWER, COL_MEMUSED,
       COL_TEMP };

static int gs_unpack(struct amd_packed_cursor *c)
{
	const void *blob;
	size_t len;
	int rc = amd_packed_blob(c, 2, &blob, &len);
	size_t n = len / AMD_GPU_SAMPLE_BYTES;
	if (rc == SQLITE_OK)
		rc = amd_packed_records(c, n, sizeof(struct amd_gpu_sample));
	if (rc != SQLITE_OK)
		return rc;
	int gpu = sqlite3_column_int(c->q, 5);
	char what[160];
	struct amd_err err = {0};
	snprintf(what, sizeof what, "gpu_series source %lld gpu %d chunk %lld",
		 (long long)sqlite3_column_int64(c->q, 3), gpu,
		 (long long)sqlite3_column_int64(c->q, 6));
	if (amd_gpu_unpack(blob, len, gpu, what, c->v, &err) < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	if ((int64_t)n != sqlite3_column_int64(c->q, 1))
		return amd_packed_vtab_corrupt(&c->base, "gpu_series: n is not the blob's count of samples");
	c->n = n;
	return SQLITE_OK;
}

static void gs_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
	const struct amd_gpu_sample *g = (const struct amd_gpu_sample *)c->v + c->i;
	switch (col) {
	case COL_SOURCE: sqlite3_result_int64(ctx, c->source); break;
	case COL_RUN: sqlite3_result_value(ctx, c->run); break;
	case COL_GPU: sqlite3_result_int(ctx, g->gpu); break;
	case COL_TS: sqlite3_result_int64(ctx, g->ts_ms); break;
	case COL_UTIL: amd_packed_result_double(ctx, g->util_pct); break;
	case COL_MEMUTIL: amd_packed_result_double(ctx, g->mem_util_pct); break;
	case COL_POWER: amd_packed_result_double(ctx, g->power_w); break;
	case COL_MEMUSED: amd_packed_result_double(ctx, g->mem_used_mib); break;
	default: amd_packed_result_double(ctx, g->temp_c); break;
	}
}

/* Equality on source_id, run_id, gpu (exact), then ts_ms >= / > and
 * <= / < (kept: they only skip chunks). */
static const struct amd_packed_use gs_use[] = {
	AMD_PACKED_EQ(COL_SOURCE, 's', "source_id"),
	AMD_PACKED_EQ(COL_RUN, 'r', "run_id"),
	AMD_PACKED_EQ(COL_GPU, 'g', "gpu"),
	{COL_TS, SQLITE_INDEX_CONSTRAINT_GE, 'a', 1, 0, 2, " AND t1_ms >= ?"},
	{COL_TS, SQLITE_INDEX_CONSTRAINT_GT, 'a', 1, 0, 2, " AND t1_ms >= ?"},
	{COL_TS, SQLITE_INDEX_CONSTRAINT_LE, 'b', 1, 0, 2, " AND t0_ms <= ?"},
	{COL_TS, SQLITE_INDEX_CONSTRAINT_LT, 'b', 1, 0, 2, " AND t0_ms <= ?"},
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def gs_def = {
	.schema = "CREATE TABLE x(source_id INTEGER, run_id INTEGER, gpu INTEGER, ts_ms INTEGER,"
		  " util_pct REAL, mem_util_pct REAL, power_w REAL, mem_used_mib REAL,"
		  " temp_c REAL)",
	.scan = "SELECT rowid, n, samples, source_id, run_id, gpu, chunk FROM main.gpu_series"
		" WHERE 1",
	.order = " ORDER BY source_id, gpu, chunk",
	.use = gs_use,
	.has_run = 1,
	.cursor_size = sizeof(struct amd_packed_cursor),
	.unpack = gs_unpack,
	.column = gs_column,
};

int amd_gpu_sql_register(sqlite3 *db)
{
	int rc = amd_packed_create_module(db, "gpu_sample", &gs_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_gpu_pack", 7, SQLITE_UTF8, NULL, NULL,
					     pack_step, pack_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_gpu_any_in", 3,
					     SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, any_in, NULL,
					     NULL);
	return rc;
}
