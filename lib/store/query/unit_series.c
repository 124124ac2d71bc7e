/* unit_series.c — a store's metric series streamed out (unit_rows.h):
 * metric_series chunk rows read in (run, key, source, chunk) order, the
 * chunks of one (run, key) unpacked (metric_pack.h) and joined, then put
 * in step order when they are not (a stable sort: a repeated step keeps
 * its source and logging order), as metric_point's ORDER BY gives them. */
#include "unit_rows.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "metric_sql.h"

struct amd_series_iter {
	struct amd_store *st;
	sqlite3_stmt *q;
	int pending; /* q holds a row not yet taken (the next series' first) */
	int done;
	struct amd_metric_cols c; /* the series being built */
	size_t cap;
	struct amd_buf run_ext, key;
};

/* Columns of the chunk rows, in the order a series is built. */
static const char series_sql[] =
	"SELECT s.run_id, s.key_id, r.ext_id, d.s, s.source_id, s.chunk, s.n, s.points"
	" FROM main.metric_series s JOIN main.run r ON r.id = s.run_id"
	" JOIN main.dict d ON d.id = s.key_id WHERE ?1 = 0 OR s.source_id = ?1"
	" ORDER BY s.run_id, s.key_id, s.source_id, s.chunk";

int amd_series_iter_open(struct amd_store *st, int64_t source_id,
			 struct amd_series_iter **out, struct amd_err *err)
{
	*out = NULL;
	struct amd_series_iter *it = calloc(1, sizeof *it);
	if (!it)
		return amd_fail(err, "%s: out of memory", st->path);
	it->st = st;
	if (!(it->q = amd_store_prepare(st, series_sql, err))) {
		free(it);
		return -1;
	}
	sqlite3_bind_int64(it->q, 1, source_id);
	*out = it;
	return 0;
}

void amd_series_iter_close(struct amd_series_iter *it)
{
	if (!it)
		return;
	sqlite3_finalize(it->q);
	amd_metric_cols_free(&it->c);
	amd_buf_free(&it->run_ext);
	amd_buf_free(&it->key);
	free(it);
}

/* Steps q unless a row is pending: 1 with a row, 0 at the end, -1. */
static int take_row(struct amd_series_iter *it, struct amd_err *err)
{
	if (it->pending) {
		it->pending = 0;
		return 1;
	}
	if (it->done)
		return 0;
	int rc = sqlite3_step(it->q);
	if (rc == SQLITE_ROW)
		return 1;
	it->done = 1;
	return rc == SQLITE_DONE ? 0 : amd_store_step_fail(it->st, rc, err);
}

/* Appends the current row's chunk to the series being built. */
static int add_chunk(struct amd_series_iter *it, struct amd_err *err)
{
	char what[200];
	snprintf(what, sizeof what, "%s: metric_series run %lld key %lld source %lld chunk %lld",
		 it->st->path, (long long)sqlite3_column_int64(it->q, 0),
		 (long long)sqlite3_column_int64(it->q, 1),
		 (long long)sqlite3_column_int64(it->q, 4),
		 (long long)sqlite3_column_int64(it->q, 5));
	struct amd_metric_cols chunk;
	if (amd_metric_row_unpack(it->q, 7, 6, what, &chunk, err) < 0)
		return -1;
	size_t need = it->c.n + chunk.n, cap = it->cap, c2 = it->cap, c3 = it->cap;
	int bad = amd_grow_to(&it->c.step, need, &cap, sizeof *it->c.step, 4096) < 0 ||
		  amd_grow_to(&it->c.ts_ms, need, &c2, sizeof *it->c.ts_ms, 4096) < 0 ||
		  amd_grow_to(&it->c.value, need, &c3, sizeof *it->c.value, 4096) < 0;
	if (!bad) {
		it->cap = cap;
		memcpy(it->c.step + it->c.n, chunk.step, chunk.n * sizeof *chunk.step);
		memcpy(it->c.ts_ms + it->c.n, chunk.ts_ms, chunk.n * sizeof *chunk.ts_ms);
		memcpy(it->c.value + it->c.n, chunk.value, chunk.n * sizeof *chunk.value);
		it->c.n = need;
	}
	amd_metric_cols_free(&chunk);
	return bad ? amd_fail(err, "%s: out of memory", it->st->path) : 0;
}

struct step_ix {
	int64_t step;
	size_t i;
};

static int by_step(const void *x, const void *y)
{
	const struct step_ix *a = x, *b = y;
	if (a->step != b->step)
		return (a->step > b->step) - (a->step < b->step);
	return (a->i > b->i) - (a->i < b->i);
}

/* Puts the series in step order, keeping the order of equal steps. */
static int sort_by_step(struct amd_series_iter *it, struct amd_err *err)
{
	struct amd_metric_cols *c = &it->c;
	size_t n = c->n, k = 1;
	while (k < n && c->step[k - 1] <= c->step[k])
		k++;
	if (k >= n)
		return 0;
	struct step_ix *ix = malloc(n * sizeof *ix);
	int64_t *ts = malloc(n * sizeof *ts);
	double *v = malloc(n * sizeof *v);
	if (!ix || !ts || !v) {
		free(ix), free(ts), free(v);
		return amd_fail(err, "%s: out of memory", it->st->path);
	}
	for (size_t i = 0; i < n; i++)
		ix[i] = (struct step_ix){c->step[i], i};
	qsort(ix, n, sizeof *ix, by_step);
	for (size_t i = 0; i < n; i++) {
		ts[i] = c->ts_ms[ix[i].i];
		v[i] = c->value[ix[i].i];
		c->step[i] = ix[i].step;
	}
	memcpy(c->ts_ms, ts, n * sizeof *ts);
	memcpy(c->value, v, n * sizeof *v);
	free(ix), free(ts), free(v);
	return 0;
}

/* Copies column i's text into b (NUL-terminated). */
static int keep_text(struct amd_series_iter *it, int i, struct amd_buf *b, size_t *len)
{
	const unsigned char *s = sqlite3_column_text(it->q, i);
	*len = (size_t)sqlite3_column_bytes(it->q, i);
	b->len = 0;
	return s ? amd_buf_append(b, s, *len) : -1;
}

int amd_series_iter_next(struct amd_series_iter *it, struct amd_series_rows *row,
			 struct amd_err *err)
{
	int got;
	do { /* a series whose chunks are all empty is no series */
		it->c.n = 0;
		if ((got = take_row(it, err)) <= 0)
			return got;
		row->run_id = sqlite3_column_int64(it->q, 0);
		row->key_id = sqlite3_column_int64(it->q, 1);
		if (keep_text(it, 2, &it->run_ext, &row->run_ext_len) < 0 ||
		    keep_text(it, 3, &it->key, &row->key_len) < 0)
			return amd_fail(err, "%s: out of memory", it->st->path);
		do {
			if (add_chunk(it, err) < 0 || (got = take_row(it, err)) < 0)
				return -1;
		} while (got && sqlite3_column_int64(it->q, 0) == row->run_id &&
			 sqlite3_column_int64(it->q, 1) == row->key_id);
		it->pending = got;
	} while (it->c.n == 0);
	if (sort_by_step(it, err) < 0)
		return -1;
	row->run_ext = it->run_ext.data;
	row->key = it->key.data;
	row->step = it->c.step;
	row->ts_ms = it->c.ts_ms;
	row->value = it->c.value;
	row->n = it->c.n;
	return 1;
}
