/* op_sql.h — the packed operator averages (op_pack.h) seen from SQL,
 * registered with the metric SQL (metric_sql.h) on every connection
 * amdahl opens and in the `sqlite3` shell's extension:
 *  - op_average: an eponymous read-only virtual table, one row per
 *    operator average (run_id, source_id, name_id, rank, self_cuda_us,
 *    cuda_total_us, calls, role), the shape the store had before the
 *    packed layout, in the order they were written (the rowid: the
 *    pack's rowid, then the row's place); equality on source_id or
 *    run_id reads only the matching packs.
 *  - amd_op_pack(seq, name_id, rank, self_cuda_us, cuda_total_us, calls,
 *    role): an aggregate packing its rows, ordered by seq, into one
 *    `ops` blob; AMD_OP_PACK_SQL uses it. */
#ifndef AMD_OP_SQL_H
#define AMD_OP_SQL_H

#include <sqlite3.h>

#include "op_pack.h"

/* INSERTs into op_average_pack the rows of table ROWS (op_average's
 * columns and seq, their order), one pack per stretch of rows (in seq
 * order) sharing a source and a run, cut every AMD_OP_CHUNK rows. Used
 * by the migration from row-per-op stores and by the ClickHouse load. */
#define AMD_OP_PACK_SQL(rows)                                                                 \
	"INSERT INTO op_average_pack(source_id, run_id, n, ops)"                              \
	" SELECT source_id, run_id, count(*),"                                                \
	"  amd_op_pack(seq, name_id, rank, self_cuda_us, cuda_total_us, calls, role) FROM"    \
	" (SELECT *, (row_number() OVER (PARTITION BY source_id, run_id, stretch ORDER BY seq)" \
	"  - 1) / " AMD_OP_CHUNK_SQL " AS chunk FROM"                                         \
	" (SELECT *, row_number() OVER (ORDER BY seq) - row_number() OVER"                    \
	"  (PARTITION BY source_id, run_id ORDER BY seq) AS stretch FROM " rows "))"          \
	" GROUP BY source_id, run_id, stretch, chunk ORDER BY min(seq);\n"

/* The packed table and its indexes (schema.c's migration 16 and
 * schema_fresh.c's text say the same). */
#define AMD_OP_PACK_TABLES_SQL                                                                \
	"CREATE TABLE IF NOT EXISTS op_average_pack(source_id INTEGER NOT NULL,"              \
	" run_id INTEGER, n INTEGER NOT NULL, ops BLOB NOT NULL);\n"                          \
	"CREATE INDEX IF NOT EXISTS op_average_pack_source ON op_average_pack(source_id);\n"  \
	"CREATE INDEX IF NOT EXISTS op_average_pack_run ON op_average_pack(run_id);\n"

/* Registers op_average and amd_op_pack on db; an SQLite code. */
int amd_op_sql_register(sqlite3 *db);

#endif
