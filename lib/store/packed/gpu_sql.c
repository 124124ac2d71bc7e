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

struct gpu_acc {
	struct gpu_row *v;
	size_t n, cap;
	int oom;
};

static double arg_double(sqlite3_value *v)
{
	return sqlite3_value_type(v) == SQLITE_NULL ? NAN : sqlite3_value_double(v);
}

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct gpu_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
	if (!a || a->oom)
		return;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		struct gpu_row *v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			a->oom = 1;
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	struct gpu_row *r = &a->v[a->n++];
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
	struct gpu_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	struct amd_gpu_sample *g = NULL;
	unsigned char *out = NULL;
	if (!a->oom && (g = malloc((a->n + 1) * sizeof *g)) &&
	    (out = sqlite3_malloc64((sqlite3_uint64)a->n * AMD_GPU_SAMPLE_BYTES + 1))) {
		qsort(a->v, a->n, sizeof *a->v, by_seq);
		for (size_t i = 0; i < a->n; i++)
			g[i] = a->v[i].g;
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

struct gs_cursor {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *q;
	struct amd_gpu_sample *v; /* the chunk's samples */
	size_t n, i;
	int64_t source, rowid;
	sqlite3_value *run; /* NULL or an integer: a copy of the row's */
	int eof;
};

static int gs_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **msg)
{
	return amd_packed_vtab_connect(db, "CREATE TABLE x(source_id INTEGER, run_id INTEGER,"
				       " gpu INTEGER, ts_ms INTEGER, util_pct REAL, mem_util_pct REAL,"
				       " power_w REAL, mem_used_mib REAL, temp_c REAL)", out);
}

/* The constraints the scan uses, in argv order: equality on source_id,
 * run_id, gpu (omitted: exact), then ts_ms >= / > and <= / < (kept:
 * they only skip chunks). idxStr spells them, one letter each. */
static int gs_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	static const struct {
		int col, op;
		char letter;
	} use[] = {
		{COL_SOURCE, SQLITE_INDEX_CONSTRAINT_EQ, 's'}, {COL_RUN, SQLITE_INDEX_CONSTRAINT_EQ, 'r'},
		{COL_GPU, SQLITE_INDEX_CONSTRAINT_EQ, 'g'},    {COL_TS, SQLITE_INDEX_CONSTRAINT_GE, 'a'},
		{COL_TS, SQLITE_INDEX_CONSTRAINT_GT, 'a'},     {COL_TS, SQLITE_INDEX_CONSTRAINT_LE, 'b'},
		{COL_TS, SQLITE_INDEX_CONSTRAINT_LT, 'b'},
	};
	char *str = sqlite3_malloc(16);
	if (!str)
		return SQLITE_NOMEM;
	int argv = 0;
	double cost = 1e7;
	for (size_t u = 0; u < sizeof use / sizeof use[0] && argv < 15; u++)
		for (int i = 0; i < info->nConstraint; i++) {
			const struct sqlite3_index_constraint *k = &info->aConstraint[i];
			if (!k->usable || k->op != use[u].op || k->iColumn != use[u].col ||
			    info->aConstraintUsage[i].argvIndex)
				continue;
			str[argv] = use[u].letter;
			info->aConstraintUsage[i].argvIndex = ++argv;
			info->aConstraintUsage[i].omit = use[u].col != COL_TS;
			cost /= use[u].col == COL_TS ? 2 : 100;
			break;
		}
	str[argv] = '\0';
	info->idxStr = str;
	info->needToFreeIdxStr = 1;
	info->estimatedCost = cost;
	return SQLITE_OK;
}

static int gs_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	return amd_packed_cursor_open(sizeof(struct gs_cursor), out);
}

static int gs_close(sqlite3_vtab_cursor *cur)
{
	struct gs_cursor *c = (struct gs_cursor *)cur;
	sqlite3_finalize(c->q);
	sqlite3_value_free(c->run);
	free(c->v);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* Reads chunk rows until one with samples; sets eof after the last. */
static int gs_load(struct gs_cursor *c)
{
	c->n = c->i = 0;
	while (c->n == 0) {
		int rc = sqlite3_step(c->q);
		if (rc == SQLITE_DONE) {
			c->eof = 1;
			return SQLITE_OK;
		}
		if (rc != SQLITE_ROW)
			return rc;
		c->source = sqlite3_column_int64(c->q, 0);
		sqlite3_value_free(c->run);
		if (!(c->run = sqlite3_value_dup(sqlite3_column_value(c->q, 1))))
			return SQLITE_NOMEM;
		int gpu = sqlite3_column_int(c->q, 2);
		const void *blob = sqlite3_column_blob(c->q, 5);
		size_t len = (size_t)sqlite3_column_bytes(c->q, 5);
		size_t n = len / AMD_GPU_SAMPLE_BYTES;
		if (len && !blob)
			return SQLITE_NOMEM;
		free(c->v);
		if (!(c->v = malloc((n + 1) * sizeof *c->v)))
			return SQLITE_NOMEM;
		char what[160];
		struct amd_err err = {0};
		snprintf(what, sizeof what, "gpu_series source %lld gpu %d chunk %lld",
			 (long long)c->source, gpu, (long long)sqlite3_column_int64(c->q, 3));
		if (amd_gpu_unpack(blob, len, gpu, what, c->v, &err) < 0)
			return amd_packed_vtab_corrupt(&c->base, err.msg);
		if ((int64_t)n != sqlite3_column_int64(c->q, 4))
			return amd_packed_vtab_corrupt(&c->base, "gpu_series: n is not the blob's count of samples");
		c->n = n;
	}
	return SQLITE_OK;
}

static int gs_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	struct gs_cursor *c = (struct gs_cursor *)cur;
	struct amd_packed_vtab *v = (struct amd_packed_vtab *)cur->pVtab;
	char sql[400];
	size_t len = (size_t)snprintf(sql, sizeof sql, "SELECT source_id, run_id, gpu, chunk, n,"
				      " samples FROM main.gpu_series WHERE 1");
	for (int i = 0; idx_str && idx_str[i] && len < sizeof sql; i++) {
		static const char *const cond[] = {" AND source_id = ?", " AND run_id = ?",
						   " AND gpu = ?", " AND t1_ms >= ?", " AND t0_ms <= ?"};
		len += (size_t)snprintf(sql + len, sizeof sql - len, "%s",
					cond[strchr("srgab", idx_str[i]) - "srgab"]);
	}
	if (len < sizeof sql)
		snprintf(sql + len, sizeof sql - len, " ORDER BY source_id, gpu, chunk");
	sqlite3_finalize(c->q);
	c->q = NULL;
	int rc = sqlite3_prepare_v2(v->db, sql, -1, &c->q, NULL);
	if (rc != SQLITE_OK)
		return rc;
	for (int i = 0; i < argc; i++)
		sqlite3_bind_value(c->q, i + 1, argv[i]);
	c->eof = 0;
	c->rowid = 0;
	return gs_load(c);
}

static int gs_next(sqlite3_vtab_cursor *cur)
{
	struct gs_cursor *c = (struct gs_cursor *)cur;
	c->rowid++;
	if (++c->i < c->n)
		return SQLITE_OK;
	return gs_load(c);
}

static int gs_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct gs_cursor *)cur)->eof;
}

static int gs_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct gs_cursor *c = (struct gs_cursor *)cur;
	const struct amd_gpu_sample *g = &c->v[c->i];
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
	return SQLITE_OK;
}

static int gs_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = ((struct gs_cursor *)cur)->rowid;
	return SQLITE_OK;
}

static sqlite3_module gs_module = {
	.iVersion = 0,
	.xConnect = gs_connect,
	.xBestIndex = gs_best_index,
	.xDisconnect = amd_packed_vtab_disconnect,
	.xOpen = gs_open,
	.xClose = gs_close,
	.xFilter = gs_filter,
	.xNext = gs_next,
	.xEof = gs_eof,
	.xColumn = gs_column,
	.xRowid = gs_rowid,
};

int amd_gpu_sql_register(sqlite3 *db)
{
	int rc = sqlite3_create_module(db, "gpu_sample", &gs_module, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_gpu_pack", 7, SQLITE_UTF8, NULL, NULL,
					     pack_step, pack_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_gpu_any_in", 3,
					     SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, any_in, NULL,
					     NULL);
	return rc;
}
