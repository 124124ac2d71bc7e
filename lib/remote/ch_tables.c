/* ch_tables.c — the fact tables on ClickHouse (ch_tables.h). Every row
 * carries src, the ingest attempt that wrote it; a source row (the
 * commit, written last by ch_ship.c) makes an attempt visible. Strings
 * with a global identity get the same id on every host (chid(), the
 * SHA-256 id of amd_ch_string_id); ids local to a unit stay local. Rows
 * go out in the staging store's insertion order, numbered in rn, so a
 * reader gets them back in the order a SQLite store holds them. */
#include "ch_tables.h"

#include <string.h>

#define RUN(x) "(SELECT chid(ext_id) FROM run WHERE id = " x ")"
#define KEY(x) "(SELECT chid(s) FROM dict WHERE id = " x ")"
#define I64N "Nullable(Int64)"
#define F64N "Nullable(Float64)"
#define STRN "Nullable(String)"

const struct ch_table amd_ch_tables[] = {
	{1, "dict", "1",
	 "id Int64, s String", "id", "id,s", "dp",
	 "SELECT chid(s), s, ?1 FROM dict ORDER BY id"},
	/* pushed with a source: the sweeps of its runs (the view run of
	 * ch_push.c), and sweeps without runs, as an ingest writes them */
	{1, "sweep", "id IN (SELECT sweep_id FROM run) OR id NOT IN"
		     " (SELECT sweep_id FROM main.run WHERE sweep_id IS NOT NULL)",
	 "id Int64, name String, ext_id " STRN ", axis " STRN, "name",
	 "id,name,ext_id,axis", "wppp",
	 "SELECT chid(name), name, ext_id, axis, ?1 FROM sweep ORDER BY id"},
	{1, "run", NULL,
	 "id Int64, sweep_id " I64N ", ext_id String, name " STRN ", parent_ext_id " STRN
	 ", strategy " STRN ", n " I64N ", nodes " I64N ", rank " I64N ", repeat " I64N
	 ", status " I64N ", start_ms " I64N ", end_ms " I64N ", source_id " I64N
	 ", entry_point " STRN ", program " STRN, "ext_id",
	 "id,sweep_id,ext_id,name,parent_ext_id,strategy,n,nodes,rank,repeat,status,start_ms,"
	 "end_ms,source_id,entry_point,program", "rwpppppppppppspp",
	 "SELECT chid(r.ext_id), (SELECT chid(name) FROM sweep WHERE id = r.sweep_id), r.ext_id,"
	 " r.name, r.parent_ext_id, r.strategy, r.n, r.nodes, r.rank, r.repeat, r.status,"
	 " r.start_ms, r.end_ms, CASE WHEN r.source_id IS NULL THEN NULL ELSE ?1 END,"
	 " r.entry_point, r.program, ?1 FROM run r ORDER BY r.id"},
	{1, "param", "source_id = $S",
	 "run_id Int64, key_id Int64, value " STRN ", source_id Int64",
	 "(run_id, key_id)", "run_id,key_id,value,source_id", "rdps",
	 "SELECT " RUN("p.run_id") ", " KEY("p.key_id") ", p.value, ?1, ?1 FROM param p"},
	{1, "tag", "source_id = $S",
	 "run_id Int64, key_id Int64, value " STRN ", source_id Int64",
	 "(run_id, key_id)", "run_id,key_id,value,source_id", "rdps",
	 "SELECT " RUN("t.run_id") ", " KEY("t.key_id") ", t.value, ?1, ?1 FROM tag t"},
	{1, "metric_point", "source_id = $S", /* the virtual table over metric_series */
	 "run_id Int64, key_id Int64, step Int64, ts_ms " I64N ", value " F64N
	 ", source_id Int64", "(run_id, key_id, step)",
	 "run_id,key_id,step,ts_ms,value,source_id", "rdppps",
	 "SELECT chid(r.ext_id), chid(d.s), m.step, m.ts_ms, m.value, ?1, ?1"
	 " FROM metric_point m JOIN run r ON r.id = m.run_id JOIN dict d ON d.id = m.key_id"
	 " ORDER BY m.run_id, m.key_id, m.step, m.source_id, m.seq"},
	{1, "trace", "source_id = $S",
	 "id Int64, run_id " I64N ", source_id Int64, rank " I64N ", world_size " I64N
	 ", backend " STRN ", device " STRN ", start_ns " I64N ", end_ns " I64N ", events " I64N
	 ", has_gpu " I64N ", comp_fraction " F64N, "(src, id)",
	 "id,run_id,source_id,rank,world_size,backend,device,start_ns,end_ns,events,has_gpu,"
	 "comp_fraction", "crsppppppppp",
	 "SELECT t.id, " RUN("t.run_id") ", ?1, t.rank, t.world_size, t.backend, t.device,"
	 " t.start_ns, t.end_ns, t.events, t.has_gpu, t.comp_fraction, ?1 FROM trace t ORDER BY t.id"},
	{1, "trace_phase", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "trace_id Int64, phase_id Int64, ns Int64", "(src, trace_id)",
	 "trace_id,phase_id,ns", "cdp",
	 "SELECT p.trace_id, " KEY("p.phase_id") ", p.ns, ?1 FROM trace_phase p"},
	{1, "trace_step", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "trace_id Int64, step Int64, start_ns " I64N ", dur_ns " I64N,
	 "(src, trace_id, step)", "trace_id,step,start_ns,dur_ns", "cppp",
	 "SELECT s.trace_id, s.step, s.start_ns, s.dur_ns, ?1 FROM trace_step s ORDER BY s.rowid"},
	{1, "trace_collective", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "trace_id Int64, name_id Int64, seq " I64N ", start_ns " I64N
	 ", dur_ns " I64N ", bytes " I64N ", group_size " I64N ", group_id " I64N, "(src, trace_id)",
	 "trace_id,name_id,seq,start_ns,dur_ns,bytes,group_size,group_id", "cdpppppd",
	 "SELECT c.trace_id, " KEY("c.name_id") ", c.seq, c.start_ns, c.dur_ns, c.bytes,"
	 " c.group_size, " KEY("c.group_id") ", ?1 FROM trace_collective c ORDER BY c.rowid"},
	/* role: since schema 5 (amd_ch_added_columns) */
	{1, "op_average", "source_id = $S",
	 "run_id " I64N ", source_id Int64, name_id Int64, rank " I64N
	 ", self_cuda_us " F64N ", cuda_total_us " F64N ", calls " I64N ", role " I64N, "src",
	 "run_id,source_id,name_id,rank,self_cuda_us,cuda_total_us,calls,role", "rsdppppp",
	 "SELECT " RUN("a.run_id") ", ?1, " KEY("a.name_id") ", a.rank, a.self_cuda_us,"
	 " a.cuda_total_us, a.calls, a.role, ?1 FROM op_average a ORDER BY a.rowid"},
	{1, "frame", "id IN (SELECT frame_id FROM main.stack_node WHERE source_id = $S)",
	 "id Int64, name_id Int64, file_id " I64N ", line " I64N, "id",
	 "id,name_id,file_id,line", "fddp",
	 "SELECT gid, " KEY("f.name_id") ", " KEY("f.file_id") ", f.line, ?1"
	 " FROM frame f JOIN temp.chframe c ON c.local = f.id ORDER BY f.id"},
	{1, "stack_node", "source_id = $S",
	 "id Int64, parent_id " I64N ", frame_id Int64, source_id Int64",
	 "(src, id)", "id,parent_id,frame_id,source_id", "ccfs",
	 "SELECT n.id, n.parent_id, (SELECT gid FROM temp.chframe WHERE local = n.frame_id),"
	 " ?1, ?1 FROM stack_node n ORDER BY n.id"},
	{1, "stack_sample", "source_id = $S",
	 "source_id Int64, run_id " I64N ", leaf_id Int64, process_id " I64N
	 ", thread_id " I64N ", samples Int64, seconds Float64", "src",
	 "source_id,run_id,leaf_id,process_id,thread_id,samples,seconds", "srcddpp",
	 "SELECT ?1, " RUN("s.run_id") ", s.leaf_id, " KEY("s.process_id") ", "
	 KEY("s.thread_id") ", s.samples, s.seconds, ?1 FROM stack_sample s ORDER BY s.rowid"},
	{1, "gpu_sample", "source_id = $S",
	 "source_id Int64, run_id " I64N ", gpu Int64, ts_ms Int64, util_pct " F64N
	 ", mem_util_pct " F64N ", power_w " F64N ", mem_used_mib " F64N ", temp_c " F64N,
	 "(src, gpu, ts_ms)", "source_id,run_id,gpu,ts_ms,util_pct,mem_util_pct,power_w,"
	 "mem_used_mib,temp_c", "srppppppp",
	 "SELECT ?1, " RUN("g.run_id") ", g.gpu, g.ts_ms, g.util_pct, g.mem_util_pct,"
	 " g.power_w, g.mem_used_mib, g.temp_c, ?1 FROM gpu_sample g ORDER BY g.rowid"},
	{2, "region", "source_id = $S",
	 "id Int64, source_id Int64, run_id " I64N ", rank " I64N ", device " I64N
	 ", kind_id Int64, profiler_id Int64, name_id Int64, file_id " I64N ", line " I64N
	 ", key " I64N ", parent_key " I64N ", calls " I64N ", prim_calls " I64N
	 ", self_ns " I64N ", total_ns " I64N ", bytes " I64N, "(src, id)",
	 "id,source_id,run_id,rank,device,kind_id,profiler_id,name_id,file_id,line,key,"
	 "parent_key,calls,prim_calls,self_ns,total_ns,bytes", "csrppddddpppppppp",
	 "SELECT g.id, ?1, " RUN("g.run_id") ", g.rank, g.device, " KEY("g.kind_id") ", "
	 KEY("g.profiler_id") ", " KEY("g.name_id") ", " KEY("g.file_id") ", g.line, g.key,"
	 " g.parent_key, g.calls, g.prim_calls, g.self_ns, g.total_ns, g.bytes, ?1"
	 " FROM region g ORDER BY g.id"},
	{2, "region_call", "source_id = $S",
	 "source_id Int64, caller_key Int64, callee_key Int64, calls " I64N ", prim_calls " I64N
	 ", self_ns " I64N ", total_ns " I64N, "src",
	 "source_id,caller_key,callee_key,calls,prim_calls,self_ns,total_ns", "spppppp",
	 "SELECT ?1, c.caller_key, c.callee_key, c.calls, c.prim_calls, c.self_ns, c.total_ns, ?1"
	 " FROM region_call c ORDER BY c.rowid"},
	/* a trace op's detail (schema 4: trace_op's rows are regions now;
	 * the trace_op table an older server holds is read no more) */
	{4, "region_detail", "region_id IN (SELECT id FROM main.region WHERE source_id = $S)",
	 "region_id Int64, category_id " I64N ", min_ns " I64N ", max_ns " I64N ", seq " I64N,
	 "(src, region_id)", "region_id,category_id,min_ns,max_ns,seq", "cdppp",
	 "SELECT d.region_id, " KEY("d.category_id") ", d.min_ns, d.max_ns, d.seq, ?1"
	 " FROM region_detail d ORDER BY d.region_id"},
	{2, "trace_memory", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "trace_id Int64, device_type Int64, device_id Int64, from_totals Int64, peak_allocated "
	 I64N ", peak_reserved " I64N ", events Int64", "(src, trace_id)",
	 "trace_id,device_type,device_id,from_totals,peak_allocated,peak_reserved,events",
	 "cpppppp",
	 "SELECT m.trace_id, m.device_type, m.device_id, m.from_totals, m.peak_allocated,"
	 " m.peak_reserved, m.events, ?1 FROM trace_memory m"
	 " ORDER BY m.trace_id, m.device_type, m.device_id"},
	{2, "trace_memory_sample", "trace_id IN (SELECT id FROM main.trace WHERE source_id = $S)",
	 "trace_id Int64, device_type Int64, device_id Int64, ts_ns Int64, allocated " I64N
	 ", reserved " I64N, "(src, trace_id)",
	 "trace_id,device_type,device_id,ts_ns,allocated,reserved", "cppppp",
	 "SELECT s.trace_id, s.device_type, s.device_id, s.ts_ns, s.allocated, s.reserved, ?1"
	 " FROM trace_memory_sample s ORDER BY s.rowid"},
	/* ingest --events: ordered for per-run/rank queries; the sort key has
	 * no Nullable on 18.16, so a trace of no run has run_id 0 and an
	 * unknown rank -1 here (NULL on SQLite) */
	{3, "trace_event", "source_id = $S",
	 "trace_id Int64, source_id Int64, run_id Int64, rank Int64, stream " I64N
	 ", kind String, name_id Int64, seq Int64, start_ns Int64, dur_ns Int64, bytes " I64N,
	 "(run_id, rank, start_ns)",
	 "trace_id,source_id,run_id,rank,stream,kind,name_id,seq,start_ns,dur_ns,bytes",
	 "csrpppdpppp",
	 "SELECT e.trace_id, ?1, IFNULL(" RUN("e.run_id") ", 0), IFNULL(e.rank, -1), e.stream,"
	 " e.kind, " KEY("e.name_id") ", e.seq, e.start_ns, e.dur_ns, e.bytes, ?1"
	 " FROM trace_event e ORDER BY e.rowid"},
};

const size_t amd_ch_table_count = sizeof amd_ch_tables / sizeof amd_ch_tables[0];

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
