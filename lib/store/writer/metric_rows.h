/* metric_rows.h — metric points and GPU samples arriving row by row
 * (the ClickHouse load) into the packed series of metric_series (and of
 * gpu_series): a temporary table
 * `metric_point` (it hides the virtual table of that name) takes the
 * rows, then they are packed through amd_metric_pack (metric_sql.h). */
#ifndef AMD_METRIC_ROWS_H
#define AMD_METRIC_ROWS_H

#include "store.h"

/* Creates temp.metric_point(run_id, key_id, step, ts_ms, value,
 * source_id, seq) for INSERTs. */
int amd_metric_rows_open(struct amd_store *st, struct amd_err *err);

/* Packs its rows into metric_series (seq orders a series' points) and
 * drops it. */
int amd_metric_rows_pack(struct amd_store *st, struct amd_err *err);

/* The same for GPU samples (gpu_sql.h): temp.gpu_sample(source_id,
 * run_id, gpu, ts_ms, util_pct, mem_util_pct, power_w, mem_used_mib,
 * temp_c, seq) hides the virtual table gpu_sample; its rows are packed
 * into gpu_series chunk rows, seq ordering each series. */
int amd_gpu_rows_open(struct amd_store *st, struct amd_err *err);
int amd_gpu_rows_pack(struct amd_store *st, struct amd_err *err);

/* The same for py-spy stacks (stack_sql.h), nodes (nodes 1) or samples
 * (0): temp.stack_node(id, parent_id, frame_id, source_id) or
 * temp.stack_sample(source_id, run_id, leaf_id, process_id, thread_id,
 * samples, seconds) hides the virtual table; its rows are packed into
 * stack_node_pack / stack_sample_pack rows, the samples in rowid order. */
int amd_stack_rows_open(struct amd_store *st, int nodes, struct amd_err *err);
int amd_stack_rows_pack(struct amd_store *st, int nodes, struct amd_err *err);
/* The same for regions (region_sql.h): temp.region, region's columns,
 * packed into region_pack rows (a stretch of ids sharing source and run). */
int amd_region_rows_open(struct amd_store *st, struct amd_err *err);
int amd_region_rows_pack(struct amd_store *st, struct amd_err *err);
/* The same for operator averages (op_sql.h): temp.op_average,
 * op_average's columns, packed into op_average_pack rows (a stretch of
 * rows sharing source and run, in rowid order) once the rows shipped
 * without a role have theirs (amd_store_op_roles_of_older_rows). */
int amd_op_rows_open(struct amd_store *st, struct amd_err *err);
int amd_op_rows_pack(struct amd_store *st, struct amd_err *err);
/* The same for regions' caller edges (call_sql.h): temp.region_call,
 * region_call's columns, packed into region_call_pack rows (a stretch
 * of rows sharing a source, in rowid order). */
int amd_call_rows_open(struct amd_store *st, struct amd_err *err);
int amd_call_rows_pack(struct amd_store *st, struct amd_err *err);

#endif
