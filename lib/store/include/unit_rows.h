/* unit_rows.h — a store's rows streamed out for another backend to
 * write (issue 37): the ClickHouse backend ships a unit from the staging
 * store (or one source of a local store, `push`) through these iterators
 * and never reads the store's tables itself. The metric points come
 * straight from the packed series (metric_pack.h): one series at a time,
 * its run and key named once, not a row per point. Every other fact
 * table comes as rows of typed cells (unit_tables.c), its ids that mean
 * the same thing on every host given by their identity. */
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

/* One value of a row: NULL, an integer, a double or text (n bytes at
 * s, NUL-ended; valid until the next row). */
enum amd_cell_type { AMD_CELL_NULL, AMD_CELL_INT, AMD_CELL_REAL, AMD_CELL_TEXT };
struct amd_cell {
	enum amd_cell_type type;
	int64_t i;
	double f;
	const char *s;
	size_t n;
};

#define AMD_TABLE_COLS_MAX 24

struct amd_table_iter;

/* Opens the rows of fact table `table` (every table a unit writes but
 * metric_point, which amd_series_iter_open gives), in the store's order.
 * Its columns are the table's own (docs/design.md, "The ClickHouse
 * backend"), except that a column naming a run, a sweep, a dict string
 * or a frame holds that thing's identity as text: the run's ext_id, the
 * sweep's name, the string, or a frame's name, file and line joined by
 * char 31 (an unknown file or line is empty). dict's first column is
 * its string, as is sweep's (its name) and run's (its ext_id); a trace,
 * stack node or region keeps its number (local to its source). NULL
 * stays NULL. */
int amd_table_iter_open(struct amd_store *st, const char *table, struct amd_table_iter **out,
			struct amd_err *err);
int amd_table_iter_columns(const struct amd_table_iter *it);
/* The next row's cells (amd_table_iter_columns of them): 1, 0 after the
 * last, -1 with err set. Valid until the next call. */
int amd_table_iter_next(struct amd_table_iter *it, const struct amd_cell **cells,
			struct amd_err *err);
void amd_table_iter_close(struct amd_table_iter *it);

/* From now on the table iterators of st show only the rows of local
 * source source_id (and the runs and sweeps they name; a run's
 * source_id only where the source owns it): `push`, one source at a
 * time. */
int amd_table_rows_of_source(struct amd_store *st, int64_t source_id, struct amd_err *err);

/* A source of a store, as the store keeps it. */
struct amd_source_entry {
	int64_t id;
	const char *path, *kind, *sha256;
	uint64_t size;
};
typedef int amd_source_each_fn(void *ctx, const struct amd_source_entry *e,
			       struct amd_err *err);

/* Calls fn for each source of st in id order; stops at fn's -1. */
int amd_store_sources_each(struct amd_store *st, amd_source_each_fn *fn, void *ctx,
			   struct amd_err *err);

/* A run of another store (a remote backend's) copied into st, owned by
 * no source, so a unit's facts join it: the values, in this order, of
 * its sweep (name, ext_id, axis; a NULL name: none) and of the run
 * (ext_id, name, parent_ext_id, strategy, n, nodes, rank, repeat,
 * status, start_ms, end_ms). A sweep of that name or a run of that
 * ext_id st holds already is kept as it is. */
#define AMD_RUN_COPY_COLS 14
int amd_store_put_run_copy(struct amd_store *st, const struct amd_cell v[AMD_RUN_COPY_COLS],
			   struct amd_err *err);
/* Run id of from, with its sweep, copied into to so (as above). */
int amd_store_copy_run(struct amd_store *from, int64_t id, struct amd_store *to,
		       struct amd_err *err);
/* The id of the run of ext_id in st: 0 when none, -1 with err set. */
int64_t amd_store_run_by_ext_id(struct amd_store *st, const char *ext_id, struct amd_err *err);
/* How many runs st holds; -1 with err set. */
int64_t amd_store_run_count(struct amd_store *st, struct amd_err *err);
/* The ext_id of run id into *ext (the caller frees it). */
int amd_store_run_ext_id(struct amd_store *st, int64_t id, char **ext, struct amd_err *err);

#endif
