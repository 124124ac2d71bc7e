/* ch_tables.c — the fact tables on ClickHouse (ch_tables.h). Every row
 * carries src, the ingest attempt that wrote it; a source row (the
 * commit, written last by ch_ship.c) makes an attempt visible. Strings
 * with a global identity get the same id on every host (chid(), the
 * SHA-256 id of amd_ch_string_id, of the identity the store's row stream
 * gives: unit_rows.h); ids local to a unit stay local. Rows go out in
 * the staging store's order, numbered in rn, so a reader gets them back
 * in the order a SQLite store holds them. */
#include "ch_tables.h"

#include <string.h>

#define I64N "Nullable(Int64)"
#define F64N "Nullable(Float64)"
#define STRN "Nullable(String)"

const struct ch_table amd_ch_tables[] = {
	{1, "dict",
	 "id Int64, s String", "id", "id,s", "dp", NULL},
	{1, "sweep",
	 "id Int64, name String, ext_id " STRN ", axis " STRN, "name",
	 "id,name,ext_id,axis", "wppp", NULL},
	{1, "run",
	 "id Int64, sweep_id " I64N ", ext_id String, name " STRN ", parent_ext_id " STRN
	 ", strategy " STRN ", n " I64N ", nodes " I64N ", rank " I64N ", repeat " I64N
	 ", status " I64N ", start_ms " I64N ", end_ms " I64N ", source_id " I64N
	 ", entry_point " STRN ", program " STRN, "ext_id",
	 "id,sweep_id,ext_id,name,parent_ext_id,strategy,n,nodes,rank,repeat,status,start_ms,"
	 "end_ms,source_id,entry_point,program", "rwpppppppppppspp", NULL},
	{1, "param",
	 "run_id Int64, key_id Int64, value " STRN ", source_id Int64",
	 "(run_id, key_id)", "run_id,key_id,value,source_id", "rdps", NULL},
	{1, "tag",
	 "run_id Int64, key_id Int64, value " STRN ", source_id Int64",
	 "(run_id, key_id)", "run_id,key_id,value,source_id", "rdps", NULL},
	{1, "metric_point", /* the virtual table over metric_series */
	 "run_id Int64, key_id Int64, step Int64, ts_ms " I64N ", value " F64N
	 ", source_id Int64", "(run_id, key_id, step)",
	 "run_id,key_id,step,ts_ms,value,source_id", "rdppps", NULL},
	{1, "trace",
	 "id Int64, run_id " I64N ", source_id Int64, rank " I64N ", world_size " I64N
	 ", backend " STRN ", device " STRN ", start_ns " I64N ", end_ns " I64N ", events " I64N
	 ", has_gpu " I64N ", comp_fraction " F64N, "(src, id)",
	 "id,run_id,source_id,rank,world_size,backend,device,start_ns,end_ns,events,has_gpu,"
	 "comp_fraction", "crsppppppppp", NULL},
	{1, "trace_phase",
	 "trace_id Int64, phase_id Int64, ns Int64", "(src, trace_id)",
	 "trace_id,phase_id,ns", "cdp", NULL},
	{1, "trace_step",
	 "trace_id Int64, step Int64, start_ns " I64N ", dur_ns " I64N,
	 "(src, trace_id, step)", "trace_id,step,start_ns,dur_ns", "cppp", NULL},
	{1, "trace_collective",
	 "trace_id Int64, name_id Int64, seq " I64N ", start_ns " I64N
	 ", dur_ns " I64N ", bytes " I64N ", group_size " I64N ", group_id " I64N, "(src, trace_id)",
	 "trace_id,name_id,seq,start_ns,dur_ns,bytes,group_size,group_id", "cdpppppd", NULL},
	/* role: since schema 5 (amd_ch_added_columns) */
	{1, "op_average",
	 "run_id " I64N ", source_id Int64, name_id Int64, rank " I64N
	 ", self_cuda_us " F64N ", cuda_total_us " F64N ", calls " I64N ", role " I64N, "src",
	 "run_id,source_id,name_id,rank,self_cuda_us,cuda_total_us,calls,role", "rsdppppp", NULL},
	{1, "frame",
	 "id Int64, name_id Int64, file_id " I64N ", line " I64N, "id",
	 "id,name_id,file_id,line", "fddp", NULL},
	{1, "stack_node",
	 "id Int64, parent_id " I64N ", frame_id Int64, source_id Int64",
	 "(src, id)", "id,parent_id,frame_id,source_id", "ccfs", NULL},
	{1, "stack_sample",
	 "source_id Int64, run_id " I64N ", leaf_id Int64, process_id " I64N
	 ", thread_id " I64N ", samples Int64, seconds Float64", "src",
	 "source_id,run_id,leaf_id,process_id,thread_id,samples,seconds", "srcddpp", NULL},
	{1, "gpu_sample",
	 "source_id Int64, run_id " I64N ", gpu Int64, ts_ms Int64, util_pct " F64N
	 ", mem_util_pct " F64N ", power_w " F64N ", mem_used_mib " F64N ", temp_c " F64N,
	 "(src, gpu, ts_ms)", "source_id,run_id,gpu,ts_ms,util_pct,mem_util_pct,power_w,"
	 "mem_used_mib,temp_c", "srppppppp", NULL},
	{2, "region",
	 "id Int64, source_id Int64, run_id " I64N ", rank " I64N ", device " I64N
	 ", kind_id Int64, profiler_id Int64, name_id Int64, file_id " I64N ", line " I64N
	 ", key " I64N ", parent_key " I64N ", calls " I64N ", prim_calls " I64N
	 ", self_ns " I64N ", total_ns " I64N ", bytes " I64N, "(src, id)",
	 "id,source_id,run_id,rank,device,kind_id,profiler_id,name_id,file_id,line,key,"
	 "parent_key,calls,prim_calls,self_ns,total_ns,bytes", "csrppddddpppppppp", NULL},
	{2, "region_call",
	 "source_id Int64, caller_key Int64, callee_key Int64, calls " I64N ", prim_calls " I64N
	 ", self_ns " I64N ", total_ns " I64N, "src",
	 "source_id,caller_key,callee_key,calls,prim_calls,self_ns,total_ns", "spppppp", NULL},
	/* a trace op's detail (schema 4: trace_op's rows are regions now;
	 * the trace_op table an older server holds is read no more) */
	{4, "region_detail",
	 "region_id Int64, category_id " I64N ", min_ns " I64N ", max_ns " I64N ", seq " I64N,
	 "(src, region_id)", "region_id,category_id,min_ns,max_ns,seq", "cdppp", NULL},
	{2, "trace_memory",
	 "trace_id Int64, device_type Int64, device_id Int64, from_totals Int64, peak_allocated "
	 I64N ", peak_reserved " I64N ", events Int64", "(src, trace_id)",
	 "trace_id,device_type,device_id,from_totals,peak_allocated,peak_reserved,events",
	 "cpppppp", NULL},
	{2, "trace_memory_sample",
	 "trace_id Int64, device_type Int64, device_id Int64, ts_ns Int64, allocated " I64N
	 ", reserved " I64N, "(src, trace_id)",
	 "trace_id,device_type,device_id,ts_ns,allocated,reserved", "cppppp", NULL},
	/* ingest --events: ordered for per-run/rank queries; the sort key has
	 * no Nullable on 18.16, so a trace of no run has run_id 0 and an
	 * unknown rank -1 here (NULL on SQLite) */
	{3, "trace_event",
	 "trace_id Int64, source_id Int64, run_id Int64, rank Int64, stream " I64N
	 ", kind String, name_id Int64, seq Int64, start_ns Int64, dur_ns Int64, bytes " I64N,
	 "(run_id, rank, start_ns)",
	 "trace_id,source_id,run_id,rank,stream,kind,name_id,seq,start_ns,dur_ns,bytes",
	 "csrpppdpppp", "..0-......."},
};

const size_t amd_ch_table_count = sizeof amd_ch_tables / sizeof amd_ch_tables[0];
_Static_assert(sizeof amd_ch_tables / sizeof amd_ch_tables[0] <= AMD_CH_TABLES_MAX,
	       "AMD_CH_TABLES_MAX (ch_tables.h) is below the number of tables");

const struct ch_added_column amd_ch_added_columns[] = {
	/* an op's role, as the reader gives it (schema 5); an older row's
	 * is NULL, given by the loader (amd_store_op_roles_of_older_rows) */
	{5, "op_average", "role", I64N},
	/* what launched a run (schema 6); an older row's are NULL, taken
	 * from its tags by the loader (amd_store_run_launch_of_older_rows) */
	{6, "run", "entry_point", STRN},
	{6, "run", "program", STRN},
	/* a collective's process group (schema 7, issue 34); an older row's
	 * is NULL: its seq counted per name, as the store's older rows */
	{7, "trace_collective", "group_id", I64N},
};

const size_t amd_ch_added_column_count =
	sizeof amd_ch_added_columns / sizeof amd_ch_added_columns[0];

int amd_ch_table_loaded(const struct ch_table *t)
{
	return strcmp(t->name, "trace_event") != 0;
}
