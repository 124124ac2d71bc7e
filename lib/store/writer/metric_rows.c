/* metric_rows.c — point, GPU sample, py-spy stack, region, operator
 * average and caller edge rows into their packs (metric_rows.h). */
#include "metric_rows.h"
#include "schema.h"
#include "sqlite_int.h"

#include "call_sql.h"
#include "gpu_sql.h"
#include "metric_sql.h"
#include "op_sql.h"
#include "region_sql.h"
#include "stack_sql.h"

int amd_metric_rows_open(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "CREATE TEMP TABLE metric_point(run_id INTEGER NOT NULL,"
			      " key_id INTEGER NOT NULL, step INTEGER NOT NULL, ts_ms INTEGER,"
			      " value REAL, source_id INTEGER NOT NULL, seq INTEGER NOT NULL)", err);
}

int amd_metric_rows_pack(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, AMD_METRIC_PACK_SQL("temp.metric_point")
			      "DROP TABLE temp.metric_point;", err);
}

int amd_gpu_rows_open(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "CREATE TEMP TABLE gpu_sample(source_id INTEGER NOT NULL,"
			      " run_id INTEGER, gpu INTEGER NOT NULL, ts_ms INTEGER NOT NULL,"
			      " util_pct REAL, mem_util_pct REAL, power_w REAL, mem_used_mib REAL,"
			      " temp_c REAL, seq INTEGER NOT NULL)", err);
}

int amd_gpu_rows_pack(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, AMD_GPU_PACK_SQL("temp.gpu_sample")
			      "DROP TABLE temp.gpu_sample;", err);
}

int amd_stack_rows_open(struct amd_store *st, int nodes, struct amd_err *err)
{
	return amd_store_exec(st, nodes ? "CREATE TEMP TABLE stack_node(id INTEGER PRIMARY KEY,"
				  " parent_id INTEGER, frame_id INTEGER NOT NULL,"
				  " source_id INTEGER NOT NULL)"
				: "CREATE TEMP TABLE stack_sample(source_id INTEGER NOT NULL,"
				  " run_id INTEGER, leaf_id INTEGER NOT NULL, process_id INTEGER,"
				  " thread_id INTEGER, samples INTEGER NOT NULL,"
				  " seconds REAL NOT NULL)", err);
}

int amd_stack_rows_pack(struct amd_store *st, int nodes, struct amd_err *err)
{
	return amd_store_exec(st, nodes ? AMD_STACK_NODE_PACK_SQL("temp.stack_node")
				  "DROP TABLE temp.stack_node;"
				: AMD_STACK_SAMPLE_PACK_SQL("(SELECT rowid AS seq, * FROM"
							    " temp.stack_sample)")
				  "DROP TABLE temp.stack_sample;", err);
}

int amd_region_rows_open(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "CREATE TEMP TABLE region(id INTEGER PRIMARY KEY,"
			      " source_id INTEGER NOT NULL, run_id INTEGER, rank INTEGER,"
			      " device INTEGER, kind_id INTEGER NOT NULL, profiler_id INTEGER NOT NULL,"
			      " name_id INTEGER NOT NULL, file_id INTEGER, line INTEGER, key INTEGER,"
			      " parent_key INTEGER, calls INTEGER, prim_calls INTEGER, self_ns INTEGER,"
			      " total_ns INTEGER, bytes INTEGER)", err);
}

int amd_region_rows_pack(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, AMD_REGION_PACK_SQL("temp.region") "DROP TABLE temp.region;",
			      err);
}

int amd_op_rows_open(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "CREATE TEMP TABLE op_average(run_id INTEGER,"
			      " source_id INTEGER NOT NULL, name_id INTEGER NOT NULL, rank INTEGER,"
			      " self_cuda_us REAL, cuda_total_us REAL, calls INTEGER, role INTEGER)",
			      err);
}

int amd_op_rows_pack(struct amd_store *st, struct amd_err *err)
{
	if (amd_store_op_roles_of_older_rows(st, err) < 0)
		return -1;
	return amd_store_exec(st, AMD_OP_PACK_SQL("(SELECT rowid AS seq, * FROM temp.op_average)")
			      "DROP TABLE temp.op_average;", err);
}

int amd_call_rows_open(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, "CREATE TEMP TABLE region_call(source_id INTEGER NOT NULL,"
			      " caller_key INTEGER NOT NULL, callee_key INTEGER NOT NULL,"
			      " calls INTEGER, prim_calls INTEGER, self_ns INTEGER, total_ns INTEGER)",
			      err);
}

int amd_call_rows_pack(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, AMD_CALL_PACK_SQL("(SELECT rowid AS seq, * FROM temp.region_call)")
			      "DROP TABLE temp.region_call;", err);
}
