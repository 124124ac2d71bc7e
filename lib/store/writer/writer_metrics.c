/* writer_metrics.c — a unit's metric points into table metric_series
 * (metric_pack.h): the points of each (run, key) are buffered, one
 * series per cached key slot, and written as one packed chunk row when
 * the series ends (another run's point for the key, the key leaving the
 * cache, the end of the unit) or reaches AMD_METRIC_CHUNK points. So a
 * series costs one INSERT per chunk, not one per point, and memory
 * stays bounded (WRITER_METRIC_KEYS chunks). */
#include "writer_sink.h"

#include <stdlib.h>
#include <string.h>

/* Writes slot's buffered points as one chunk row and empties it. */
static int flush_slot(struct amd_store_sink *ss, unsigned slot, struct amd_err *err)
{
	struct writer_series *b = &ss->metric_buf[slot];
	if (b->c.n == 0)
		return 0;
	if (!ss->metric_blob &&
	    !(ss->metric_blob = malloc((size_t)AMD_METRIC_CHUNK * AMD_METRIC_POINT_BYTES)))
		return amd_fail(err, "%s: out of memory", ss->path);
	sqlite3_stmt *q = writer_cached(ss, &ss->ins_metric,
		"INSERT INTO metric_series(source_id, run_id, key_id, chunk, n, points)"
		" VALUES(?1,?2,?3,?4,?5,?6)", err);
	if (!q)
		return -1;
	amd_metric_pack(&b->c, ss->metric_blob);
	sqlite3_bind_int64(q, 1, ss->source_id);
	sqlite3_bind_int64(q, 2, b->run);
	sqlite3_bind_int64(q, 3, ss->metric_key_id[slot]);
	sqlite3_bind_int64(q, 4, ss->metric_chunk++);
	sqlite3_bind_int64(q, 5, (sqlite3_int64)b->c.n);
	sqlite3_bind_blob(q, 6, ss->metric_blob, (int)(b->c.n * AMD_METRIC_POINT_BYTES),
			  SQLITE_STATIC);
	b->c.n = 0;
	return writer_exec(ss, q, err);
}

int writer_metrics_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	for (unsigned i = 0; i < WRITER_METRIC_KEYS; i++)
		if (flush_slot(ss, i, err) < 0)
			return -1;
	return 0;
}

void writer_metrics_free(struct amd_store_sink *ss)
{
	for (unsigned i = 0; i < WRITER_METRIC_KEYS; i++) {
		free(ss->metric_key[i]);
		amd_metric_cols_free(&ss->metric_buf[i].c);
	}
	free(ss->metric_blob);
}

/* key's slot in the cache of the unit's last keys (interned on a miss;
 * the key it replaces has its points written first). */
static int metric_key_slot(struct amd_store_sink *ss, const char *key, struct amd_err *err)
{
	for (unsigned i = 0; i < WRITER_METRIC_KEYS && ss->metric_key[i]; i++)
		if (strcmp(ss->metric_key[i], key) == 0)
			return (int)i;
	int64_t kid = amd_store_intern(ss->st, key, err);
	if (kid < 0)
		return -1;
	unsigned slot = ss->metric_key_next++ % WRITER_METRIC_KEYS;
	if (flush_slot(ss, slot, err) < 0)
		return -1;
	free(ss->metric_key[slot]);
	if (!(ss->metric_key[slot] = strdup(key)))
		return amd_fail(err, "%s: out of memory", ss->path);
	ss->metric_key_id[slot] = kid;
	return (int)slot;
}

/* The slot's buffer, allocated at its first point. */
static int series_buffer(struct amd_store_sink *ss, struct writer_series *b,
			 struct amd_err *err)
{
	if (b->c.step)
		return 0;
	b->c.step = malloc(AMD_METRIC_CHUNK * sizeof *b->c.step);
	b->c.ts_ms = malloc(AMD_METRIC_CHUNK * sizeof *b->c.ts_ms);
	b->c.value = malloc(AMD_METRIC_CHUNK * sizeof *b->c.value);
	if (b->c.step && b->c.ts_ms && b->c.value)
		return 0;
	amd_metric_cols_free(&b->c);
	return amd_fail(err, "%s: out of memory", ss->path);
}

int writer_metric(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		  double value, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (ss->run_id <= 0)
		return amd_fail(err, "%s: a metric before any run", ss->path);
	int slot = metric_key_slot(ss, key, err);
	if (slot < 0)
		return -1;
	struct writer_series *b = &ss->metric_buf[slot];
	if ((b->run != ss->run_id || b->c.n == AMD_METRIC_CHUNK) &&
	    flush_slot(ss, (unsigned)slot, err) < 0)
		return -1;
	if (series_buffer(ss, b, err) < 0)
		return -1;
	b->run = ss->run_id;
	b->c.step[b->c.n] = step;
	b->c.ts_ms[b->c.n] = ts_ms;
	b->c.value[b->c.n++] = value;
	return 0;
}
