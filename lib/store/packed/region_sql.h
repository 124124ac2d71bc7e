/* region_sql.h — the packed regions (region_pack.h) seen from SQL,
 * registered with the metric SQL (metric_sql.h) on every connection
 * amdahl opens and in the `sqlite3` shell's extension:
 *  - region: an eponymous read-only virtual table, one row per region
 *    (id, source_id, run_id, rank, device, kind_id, profiler_id, name_id,
 *    file_id, line, key, parent_key, calls, prim_calls, self_ns,
 *    total_ns, bytes), the shape the store had before the packed layout,
 *    in id order, the rowid being the id; equality on id is a binary
 *    search in the pack whose id range holds it (the pack a cursor holds
 *    is kept between look-ups), equality on source_id, run_id or name_id
 *    reads only the matching packs.
 *  - amd_region_pack(id, rank, device, kind_id, profiler_id, name_id,
 *    file_id, line, key, parent_key, calls, prim_calls, self_ns,
 *    total_ns, bytes): an aggregate packing its rows (in id order) into
 *    one blob; AMD_REGION_PACK_SQL uses it. */
#ifndef AMD_REGION_SQL_H
#define AMD_REGION_SQL_H

#include <sqlite3.h>

#include "region_pack.h"

/* INSERTs into region_pack the rows of table ROWS (region's columns),
 * one pack per stretch of ids sharing a source and a run (so packs'
 * id ranges never overlap), and into region_pack_name each name of a
 * pack. Used by the migration from row-per-region stores and by the
 * ClickHouse load. */
#define AMD_REGION_PACK_SQL(rows)                                                             \
	"INSERT INTO region_pack(source_id, run_id, n, id_lo, id_hi, regions)"                \
	" SELECT source_id, run_id, count(*), min(id), max(id),"                              \
	"  amd_region_pack(id, rank, device, kind_id, profiler_id, name_id, file_id, line,"   \
	"  key, parent_key, calls, prim_calls, self_ns, total_ns, bytes) FROM"                \
	" (SELECT *, row_number() OVER (ORDER BY id) - row_number() OVER"                     \
	"  (PARTITION BY source_id, run_id ORDER BY id) AS stretch FROM " rows ")"            \
	" GROUP BY source_id, run_id, stretch ORDER BY min(id);\n"                           \
	"INSERT OR IGNORE INTO region_pack_name(name_id, pack) SELECT g.name_id, p.id"        \
	" FROM " rows " g JOIN region_pack p ON p.id_lo = (SELECT max(id_lo) FROM region_pack" \
	"  WHERE id_lo <= g.id) ORDER BY 1, 2;\n"

/* The packed table and its indexes (schema.c's migration 15), and which
 * packs hold a name (region_pack_name: one name across a sweep, regions.c's
 * across_sql, reads only those packs, as the rows' index (run_id, name_id)
 * let it). A pack's id is an INTEGER PRIMARY KEY, kept by VACUUM. */
#define AMD_REGION_PACK_TABLES_SQL                                                            \
	"CREATE TABLE IF NOT EXISTS region_pack(id INTEGER PRIMARY KEY,"                      \
	" source_id INTEGER NOT NULL, run_id INTEGER,"                                        \
	" n INTEGER NOT NULL, id_lo INTEGER NOT NULL, id_hi INTEGER NOT NULL,"                \
	" regions BLOB NOT NULL);\n"                                                          \
	"CREATE INDEX IF NOT EXISTS region_pack_ids ON region_pack(id_lo, id_hi);\n"          \
	"CREATE INDEX IF NOT EXISTS region_pack_source ON region_pack(source_id);\n"          \
	"CREATE INDEX IF NOT EXISTS region_pack_run ON region_pack(run_id);\n"                \
	"CREATE TABLE IF NOT EXISTS region_pack_name(name_id INTEGER NOT NULL,"               \
	" pack INTEGER NOT NULL, PRIMARY KEY(name_id, pack)) WITHOUT ROWID;\n"

/* Registers region and the aggregate on db; an SQLite code. */
int amd_region_sql_register(sqlite3 *db);

#endif
