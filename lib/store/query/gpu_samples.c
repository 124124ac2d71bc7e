/* gpu_samples.c — the SQL behind gpu_samples.h: nvidia-smi samples of a
 * run or of a time window, read from their packed chunk rows
 * (gpu_series, gpu_pack.h) and ordered by GPU and time; samples of equal
 * GPU and time keep the order of the log (as the rows of the
 * row-per-sample layout did). */
#include "gpu_samples.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "gpu_pack.h"
#include "stmt_cache.h"

#define COLUMNS "gpu, chunk, n, samples, source_id"

/* The chunk row q holds appended to *out; only samples in t0..t1 when
 * window. */
static int append_chunk(struct amd_store *st, sqlite3_stmt *q, int window, int64_t t0,
			int64_t t1, struct amd_gpu_sample **out, size_t *n, size_t *cap,
			struct amd_err *err)
{
	const void *blob = sqlite3_column_blob(q, 3);
	size_t len = (size_t)sqlite3_column_bytes(q, 3), k = len / AMD_GPU_SAMPLE_BYTES;
	if (len && !blob)
		return amd_fail(err, "%s: out of memory", st->path);
	if (amd_grow_to(out, *n + k + 1, cap, sizeof **out, 256) < 0)
		return amd_fail(err, "%s: out of memory", st->path);
	char what[200];
	snprintf(what, sizeof what, "%s: gpu_series source %lld gpu %d chunk %lld", st->path,
		 (long long)sqlite3_column_int64(q, 4), sqlite3_column_int(q, 0),
		 (long long)sqlite3_column_int64(q, 1));
	if (amd_gpu_unpack(blob, len, sqlite3_column_int(q, 0), what, *out + *n, err) < 0)
		return -1;
	if ((int64_t)k != sqlite3_column_int64(q, 2))
		return amd_fail(err, "%s: n says %lld samples, the blob holds %zu", what,
				(long long)sqlite3_column_int64(q, 2), k);
	size_t keep = *n;
	for (size_t i = *n; i < *n + k; i++)
		if (!window || ((*out)[i].ts_ms >= t0 && (*out)[i].ts_ms <= t1))
			(*out)[keep++] = (*out)[i];
	*n = keep;
	return 0;
}

struct ordered {
	struct amd_gpu_sample g;
	size_t seq;
};

static int by_gpu_time(const void *x, const void *y)
{
	const struct ordered *a = x, *b = y;
	if (a->g.gpu != b->g.gpu)
		return a->g.gpu < b->g.gpu ? -1 : 1;
	if (a->g.ts_ms != b->g.ts_ms)
		return a->g.ts_ms < b->g.ts_ms ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* v in GPU, time order (a stable sort); -1 when out of memory. */
static int order(struct amd_gpu_sample *v, size_t n)
{
	size_t i = 1;
	while (i < n && (v[i - 1].gpu < v[i].gpu ||
			 (v[i - 1].gpu == v[i].gpu && v[i - 1].ts_ms <= v[i].ts_ms)))
		i++;
	if (i >= n)
		return 0;
	struct ordered *o = malloc(n * sizeof *o);
	if (!o)
		return -1;
	for (i = 0; i < n; i++)
		o[i] = (struct ordered){v[i], i};
	qsort(o, n, sizeof *o, by_gpu_time);
	for (i = 0; i < n; i++)
		v[i] = o[i].g;
	free(o);
	return 0;
}

/* q (a cached statement, given back) yields COLUMNS in (source, GPU,
 * chunk) order; the samples go to *out. */
static int collect(struct amd_store *st, sqlite3_stmt *q, int window, int64_t t0, int64_t t1,
		   struct amd_gpu_sample **out, size_t *n, struct amd_err *err)
{
	size_t cap = 0;
	int rc, bad = 0;
	while (!bad && (rc = sqlite3_step(q)) == SQLITE_ROW)
		bad = append_chunk(st, q, window, t0, t1, out, n, &cap, err) < 0;
	if (bad)
		amd_store_cached_drop(q);
	else
		bad = amd_store_cached_done(st, q, rc, err) < 0;
	if (!bad && order(*out, *n) < 0)
		bad = amd_fail(err, "%s: out of memory", st->path) < 0;
	if (!bad)
		return 0;
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

int amd_gpu_samples_run(struct amd_store *st, int64_t run, struct amd_gpu_sample **out,
			size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT " COLUMNS " FROM gpu_series WHERE run_id=?1 ORDER BY source_id, gpu, chunk",
		err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	return collect(st, q, 0, 0, 0, out, n, err);
}

int amd_gpu_samples_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			   struct amd_gpu_sample **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT " COLUMNS " FROM gpu_series WHERE t1_ms >= ?1 AND t0_ms <= ?2"
		" ORDER BY source_id, gpu, chunk", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, t0_ms);
	sqlite3_bind_int64(q, 2, t1_ms);
	return collect(st, q, 1, t0_ms, t1_ms, out, n, err);
}
