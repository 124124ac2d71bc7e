/* writer_batch.c — the unit's held rows of region, region_call and
 * op_average and their multi-row INSERTs (writer_batch.h). Each table's
 * statements are texts made once per process: one for a full batch,
 * one for a single row (the rest of a batch at the end); both prepared
 * once per connection (stmt_cache.h). */
#include "writer_batch.h"
#include "writer_sink.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stmt_cache.h"

/* At most this many parameters in one statement (SQLite's historic
 * SQLITE_MAX_VARIABLE_NUMBER) and rows in a batch. */
#define MAX_PARAMS 999
#define MAX_ROWS 64

static const struct {
	const char *head; /* "INSERT INTO t(columns) VALUES" */
	int ncols;
} tables[WT_COUNT] = {
	[WT_REGION] = {"INSERT INTO region(source_id, run_id, rank, device, kind_id, profiler_id,"
		       " name_id, file_id, line, key, parent_key, calls, prim_calls, self_ns,"
		       " total_ns, bytes) VALUES", 16},
	[WT_REGION_CALL] = {"INSERT INTO region_call(source_id, caller_key, callee_key, calls,"
			    " prim_calls, self_ns, total_ns) VALUES", 7},
	[WT_OP_AVERAGE] = {"INSERT INTO op_average(run_id, source_id, name_id, rank,"
			   " self_cuda_us, cuda_total_us, calls) VALUES", 7},
};

static char one_sql[WT_COUNT][512];
static char many_sql[WT_COUNT][8192];
static int batch_rows[WT_COUNT];
static pthread_once_t sql_once = PTHREAD_ONCE_INIT;

/* head, then rows tuples of ncols "?" into out. */
static void write_values(char *out, size_t size, const char *head, int ncols, int rows)
{
	size_t len = (size_t)snprintf(out, size, "%s", head);
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < ncols; c++)
			len += (size_t)snprintf(out + len, size - len, "%s?%s",
						c ? "," : r ? ",(" : "(", c == ncols - 1 ? ")" : "");
}

static void write_sql(void)
{
	for (int t = 0; t < WT_COUNT; t++) {
		int rows = MAX_PARAMS / tables[t].ncols;
		batch_rows[t] = rows < MAX_ROWS ? rows : MAX_ROWS;
		write_values(one_sql[t], sizeof one_sql[t], tables[t].head, tables[t].ncols, 1);
		write_values(many_sql[t], sizeof many_sql[t], tables[t].head, tables[t].ncols,
			     batch_rows[t]);
	}
}

struct writer_batches {
	struct writer_val held[WT_COUNT][MAX_PARAMS];
	int n[WT_COUNT]; /* rows held per table */
};

static void bind_val(sqlite3_stmt *q, int i, const struct writer_val *v)
{
	if (v->type == WV_INT)
		sqlite3_bind_int64(q, i, v->u.i);
	else if (v->type == WV_REAL)
		sqlite3_bind_double(q, i, v->u.d);
	else
		sqlite3_bind_null(q, i);
}

/* rows held rows of t, from the first, by sql (rows tuples). */
static int write_rows(struct amd_store_sink *ss, enum writer_table t, const char *sql,
		      const struct writer_val *v, int rows, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(ss->st, sql, err);
	if (!q)
		return -1;
	for (int i = 0; i < rows * tables[t].ncols; i++)
		bind_val(q, i + 1, &v[i]);
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	return rc == SQLITE_DONE ? 0 : writer_sql_fail(ss, err);
}

static int flush_table(struct amd_store_sink *ss, enum writer_table t, struct amd_err *err)
{
	struct writer_batches *b = ss->batches;
	int n = b->n[t], rc = 0;
	b->n[t] = 0;
	if (n == batch_rows[t])
		return write_rows(ss, t, many_sql[t], b->held[t], n, err);
	for (int r = 0; r < n && rc == 0; r++)
		rc = write_rows(ss, t, one_sql[t], b->held[t] + r * tables[t].ncols, 1, err);
	return rc;
}

int writer_batch_add(struct amd_store_sink *ss, enum writer_table t,
		     const struct writer_val *row, struct amd_err *err)
{
	pthread_once(&sql_once, write_sql);
	struct writer_batches *b = ss->batches;
	if (!b && !(b = ss->batches = calloc(1, sizeof *b)))
		return amd_fail(err, "%s: out of memory", ss->path);
	int k = tables[t].ncols;
	memcpy(b->held[t] + b->n[t] * k, row, (size_t)k * sizeof *row);
	if (++b->n[t] == batch_rows[t])
		return flush_table(ss, t, err);
	return 0;
}

int writer_batch_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	for (int t = 0; t < WT_COUNT && ss->batches; t++)
		if (ss->batches->n[t] && flush_table(ss, t, err) < 0)
			return -1;
	return 0;
}

void writer_batch_free(struct amd_store_sink *ss)
{
	free(ss->batches);
	ss->batches = NULL;
}

struct writer_val wv_int(int64_t v)
{
	return (struct writer_val){.type = WV_INT, .u.i = v};
}

struct writer_val wv_opt(int64_t v)
{
	return v >= 0 ? wv_int(v) : (struct writer_val){.type = WV_NULL};
}

struct writer_val wv_nonzero(int64_t v)
{
	return v ? wv_int(v) : (struct writer_val){.type = WV_NULL};
}

struct writer_val wv_real(double v)
{
	return isnan(v) ? (struct writer_val){.type = WV_NULL}
			: (struct writer_val){.type = WV_REAL, .u.d = v};
}

struct writer_val wv_run(const struct amd_store_sink *ss)
{
	return ss->run_id > 0 ? wv_int(ss->run_id) : (struct writer_val){.type = WV_NULL};
}
