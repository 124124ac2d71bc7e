/* gpu_sql.h — the packed GPU samples (gpu_pack.h) seen from SQL,
 * registered with the metric SQL (metric_sql.h) on every connection
 * amdahl opens and in the `sqlite3` shell's extension:
 *  - gpu_sample: an eponymous read-only virtual table, one row per sample
 *    (source_id, run_id, gpu, ts_ms, util_pct, mem_util_pct, power_w,
 *    mem_used_mib, temp_c), the shape the store had before the packed
 *    layout; NULL for a value nvidia-smi did not give; equality on
 *    source_id, run_id and gpu reads only the matching series, a range
 *    on ts_ms skips the chunks outside it.
 *  - amd_gpu_pack(seq, ts_ms, util_pct, mem_util_pct, power_w,
 *    mem_used_mib, temp_c): an aggregate packing its rows, ordered by
 *    seq, into one `samples` blob (NULL values NaN); AMD_GPU_PACK_SQL
 *    uses it to turn a table of sample rows into gpu_series chunk rows.
 *  - amd_gpu_any_in(samples, t0_ms, t1_ms): 1 when a sample of the blob
 *    lies in t0_ms..t1_ms, else 0 (orphans.c). */
#ifndef AMD_GPU_SQL_H
#define AMD_GPU_SQL_H

#include <sqlite3.h>

#include "gpu_pack.h"

/* INSERTs into gpu_series the samples of table ROWS (columns source_id,
 * run_id, gpu, ts_ms, util_pct, mem_util_pct, power_w, mem_used_mib,
 * temp_c and seq, their order), one series per (source, run, GPU), cut
 * into chunks of AMD_GPU_CHUNK samples in seq order. Used by the
 * migration from row-per-sample stores and by the ClickHouse load. */
#define AMD_GPU_PACK_SQL(rows)                                                               \
	"INSERT INTO gpu_series(source_id, run_id, gpu, chunk, n, t0_ms, t1_ms, samples)"    \
	" SELECT source_id, run_id, gpu, chunk, count(*), min(ts_ms), max(ts_ms),"           \
	"  amd_gpu_pack(seq, ts_ms, util_pct, mem_util_pct, power_w, mem_used_mib, temp_c)"  \
	"  FROM (SELECT *, (row_number() OVER (PARTITION BY source_id, run_id, gpu"          \
	"  ORDER BY seq) - 1) / " AMD_GPU_CHUNK_SQL " AS chunk FROM " rows ")"                \
	" GROUP BY source_id, run_id, gpu, chunk;\n"

/* Registers gpu_sample, amd_gpu_pack and amd_gpu_any_in on db; an
 * SQLite code. */
int amd_gpu_sql_register(sqlite3 *db);

#endif
