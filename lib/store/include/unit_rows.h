/* unit_rows.h — a store's rows streamed out for another backend to
 * write (issue 37): the ClickHouse backend ships a unit from the staging
 * store (or one source of a local store, `push`) through these iterators
 * instead of reading the store's tables itself. The metric points come
 * straight from the packed series (metric_pack.h): one series at a time,
 * its run and key named once, not a row per point. */
#ifndef AMD_UNIT_ROWS_H
#define AMD_UNIT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

struct amd_series_iter;

/* One (run, metric key) series: its points in the order a SQLite store
 * gives them (metric_point ORDER BY run_id, key_id, step, source_id,
 * seq): by step, a repeated step in its sources' and logging order.
 * ts_ms is 0 where unknown, value NaN where logged as NaN (NULL in SQL).
 * Valid until the next call. */
struct amd_series_rows {
	int64_t run_id, key_id; /* the store's own ids */
	const char *run_ext;    /* the run's ext_id */
	const char *key;        /* the metric key */
	size_t run_ext_len, key_len;
	const int64_t *step, *ts_ms;
	const double *value;
	size_t n;
};

/* Opens the series of st in run, key order: every source's when
 * source_id is 0, else only that source's. */
int amd_series_iter_open(struct amd_store *st, int64_t source_id,
			 struct amd_series_iter **out, struct amd_err *err);

/* The next series into row: 1, 0 after the last, -1 with err set. */
int amd_series_iter_next(struct amd_series_iter *it, struct amd_series_rows *row,
			 struct amd_err *err);

void amd_series_iter_close(struct amd_series_iter *it);

#endif
