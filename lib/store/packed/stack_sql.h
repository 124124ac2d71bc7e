/* stack_sql.h — the packed py-spy stacks (stack_pack.h) seen from SQL,
 * registered with the metric SQL (metric_sql.h) on every connection
 * amdahl opens and in the `sqlite3` shell's extension:
 *  - stack_node: an eponymous read-only virtual table, one row per trie
 *    node (id, parent_id, frame_id, source_id), the shape the store had
 *    before the packed layout (parent_id NULL at a root); equality on id
 *    is a binary search in one pack (the pack a cursor holds is kept
 *    between look-ups), equality on source_id reads that source's packs.
 *  - stack_sample: the same for samples (source_id, run_id, leaf_id,
 *    process_id, thread_id, samples, seconds), in file order; equality
 *    on source_id or run_id reads only the matching packs. Its rowid
 *    orders the rows (the pack's rowid, then the sample's place).
 *  - amd_stack_node_pack(id, parent_id, frame_id) and
 *    amd_stack_sample_pack(seq, leaf_id, process_id, thread_id, samples,
 *    seconds): aggregates packing their rows into one blob (nodes in id
 *    order, samples in seq order); AMD_STACK_PACK_SQL uses them. */
#ifndef AMD_STACK_SQL_H
#define AMD_STACK_SQL_H

#include <sqlite3.h>

#include "stack_pack.h"

/* INSERTs into stack_node_pack the rows of table NODES (columns id,
 * parent_id, frame_id, source_id), one pack per source; into
 * stack_sample_pack those of SAMPLES (source_id, run_id, leaf_id,
 * process_id, thread_id, samples, seconds and seq, which orders them),
 * one pack per (source, run). Used by the migration from row-per-node
 * stores and by the ClickHouse load. */
#define AMD_STACK_NODE_PACK_SQL(nodes)                                                        \
	"INSERT INTO stack_node_pack(source_id, n, id_lo, id_hi, nodes)"                      \
	" SELECT source_id, count(*), min(id), max(id),"                                      \
	"  amd_stack_node_pack(id, parent_id, frame_id) FROM " nodes                          \
	" GROUP BY source_id ORDER BY min(id);\n"
#define AMD_STACK_SAMPLE_PACK_SQL(samples)                                                    \
	"INSERT INTO stack_sample_pack(source_id, run_id, n, samples)"                        \
	" SELECT source_id, run_id, count(*),"                                                \
	"  amd_stack_sample_pack(seq, leaf_id, process_id, thread_id, samples, seconds)"      \
	"  FROM " samples " GROUP BY source_id, run_id ORDER BY min(seq);\n"

/* The packed tables and their indexes (schema.c's migration 14 and
 * schema_fresh.c's text say the same; SQLite keeps them in sqlite_master
 * without IF NOT EXISTS, which lets the migration run again on a store a
 * test rewound to an older version). */
#define AMD_STACK_PACK_TABLES_SQL                                                             \
	"CREATE TABLE IF NOT EXISTS stack_node_pack(source_id INTEGER NOT NULL,"              \
	" n INTEGER NOT NULL, id_lo INTEGER NOT NULL, id_hi INTEGER NOT NULL,"                \
	" nodes BLOB NOT NULL);\n"                                                            \
	"CREATE INDEX IF NOT EXISTS stack_node_pack_source ON stack_node_pack(source_id);\n"  \
	"CREATE INDEX IF NOT EXISTS stack_node_pack_ids ON stack_node_pack(id_hi, id_lo);\n"  \
	"CREATE TABLE IF NOT EXISTS stack_sample_pack(source_id INTEGER NOT NULL,"            \
	" run_id INTEGER, n INTEGER NOT NULL, samples BLOB NOT NULL);\n"                      \
	"CREATE INDEX IF NOT EXISTS stack_sample_pack_source ON"                              \
	" stack_sample_pack(source_id);\n"                                                    \
	"CREATE INDEX IF NOT EXISTS stack_sample_pack_run ON stack_sample_pack(run_id);\n"

/* Registers stack_node, stack_sample and the two aggregates on db; an
 * SQLite code. */
int amd_stack_sql_register(sqlite3 *db);

#endif
