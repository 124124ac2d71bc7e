/* metric_sql.h — the packed metric series (metric_pack.h) seen from SQL,
 * registered on every connection amdahl opens (and, through
 * metric_ext.c, in the `sqlite3` shell with `.load`):
 *  - metric_point: an eponymous read-only virtual table, one row per
 *    point (run_id, key_id, step, ts_ms, value, source_id, seq), the
 *    shape the store had before the packed layout; value is NULL for a
 *    NaN; seq is the point's order in its series; equality on run_id,
 *    key_id and source_id reads only the matching series.
 *  - amd_metric_pack(seq, step, ts_ms, value): an aggregate packing its
 *    rows, ordered by seq, into one `points` blob (NULL ts_ms is 0, NULL
 *    value NaN); AMD_METRIC_PACK_SQL uses it to turn a table of point
 *    rows into metric_series chunk rows. */
#ifndef AMD_METRIC_SQL_H
#define AMD_METRIC_SQL_H

#include <sqlite3.h>

#include "metric_pack.h"

#define AMD_METRIC_CHUNK_SQL "4096" /* AMD_METRIC_CHUNK, spelled for SQL */

/* INSERTs into metric_series the points of table ROWS (columns run_id,
 * key_id, step, ts_ms, value, source_id, seq), one series per (source,
 * run, key), cut into chunks of AMD_METRIC_CHUNK points in seq order.
 * Used by the migration from row-per-point stores and by the ClickHouse
 * load. */
#define AMD_METRIC_PACK_SQL(rows)                                                            \
	"INSERT INTO metric_series(source_id, run_id, key_id, chunk, n, points)"            \
	" SELECT source_id, run_id, key_id, chunk, count(*),"                                \
	"  amd_metric_pack(seq, step, ts_ms, value) FROM (SELECT *, (row_number() OVER"      \
	"  (PARTITION BY source_id, run_id, key_id ORDER BY seq) - 1) / " AMD_METRIC_CHUNK_SQL \
	"  AS chunk FROM " rows ") GROUP BY source_id, run_id, key_id, chunk;\n"

/* Registers metric_point and amd_metric_pack on db; an SQLite code. */
int amd_metric_sql_register(sqlite3 *db);

/* Unpacks column `points` (col) of a metric_series row whose column n
 * (col_n) says its count; what names the row for a message. */
int amd_metric_row_unpack(sqlite3_stmt *q, int col, int col_n, const char *what,
			  struct amd_metric_cols *c, struct amd_err *err);

#endif
