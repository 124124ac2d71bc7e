/* call_sql.h — regions' packed caller edges (call_pack.h) seen from
 * SQL, registered with the metric SQL (metric_sql.h) on every connection
 * amdahl opens and in the `sqlite3` shell's extension:
 *  - region_call: an eponymous read-only virtual table, one row per
 *    caller edge (source_id, caller_key, callee_key, calls, prim_calls,
 *    self_ns, total_ns), the shape the store had before the packed
 *    layout, in the order they were written (the rowid: the pack's
 *    rowid, then the edge's place); equality on source_id reads only
 *    that source's packs.
 *  - amd_call_pack(seq, caller_key, callee_key, calls, prim_calls,
 *    self_ns, total_ns): an aggregate packing its rows, ordered by seq,
 *    into one `edges` blob; AMD_CALL_PACK_SQL uses it. */
#ifndef AMD_CALL_SQL_H
#define AMD_CALL_SQL_H

#include <sqlite3.h>

#include "call_pack.h"

/* INSERTs into region_call_pack the rows of table ROWS (region_call's
 * columns and seq, their order), one pack per stretch of rows (in seq
 * order) sharing a source, cut every AMD_CALL_CHUNK rows. Used by the
 * migration from row-per-edge stores and by the ClickHouse load. */
#define AMD_CALL_PACK_SQL(rows)                                                               \
	"INSERT INTO region_call_pack(source_id, n, edges)"                                   \
	" SELECT source_id, count(*), amd_call_pack(seq, caller_key, callee_key, calls,"      \
	"  prim_calls, self_ns, total_ns) FROM"                                               \
	" (SELECT *, (row_number() OVER (PARTITION BY source_id, stretch ORDER BY seq)"       \
	"  - 1) / " AMD_CALL_CHUNK_SQL " AS chunk FROM"                                       \
	" (SELECT *, row_number() OVER (ORDER BY seq) - row_number() OVER"                    \
	"  (PARTITION BY source_id ORDER BY seq) AS stretch FROM " rows "))"                  \
	" GROUP BY source_id, stretch, chunk ORDER BY min(seq);\n"

/* The packed table and its index (schema.c's migration 17 says it). */
#define AMD_CALL_PACK_TABLES_SQL                                                              \
	"CREATE TABLE IF NOT EXISTS region_call_pack(source_id INTEGER NOT NULL,"             \
	" n INTEGER NOT NULL, edges BLOB NOT NULL);\n"                                        \
	"CREATE INDEX IF NOT EXISTS region_call_pack_source ON region_call_pack(source_id);\n"

/* Registers region_call and amd_call_pack on db; an SQLite code. */
int amd_call_sql_register(sqlite3 *db);

#endif
