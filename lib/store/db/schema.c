/* schema.c — the store's schema, version by version. Migration N
 * takes a store at version N-1 to N; a new release adds a row to
 * migrations[], never edits a released one.
 *
 * Shape (docs/design.md, "The store"): strings interned once in dict; narrow fact tables of
 * small integer keys and numbers; every fact row carries the source it
 * came from, so replacing or dropping a source is one DELETE per table. */
#include "schema.h"
#include "sqlite_int.h"

#include "gpu_sql.h"
#include "call_sql.h"
#include "metric_sql.h"
#include "op_sql.h"
#include "region_sql.h"
#include "stack_sql.h"

static const char v1[] =
	"CREATE TABLE dict(id INTEGER PRIMARY KEY, s TEXT NOT NULL UNIQUE);\n"
	/* one row per ingested unit: a file, or an MLflow run directory */
	"CREATE TABLE source(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,"
	" kind TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,"
	" ingested_at INTEGER NOT NULL);\n"
	"CREATE TABLE sweep(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
	" ext_id TEXT, axis TEXT);\n"
	/* a run as the source logged it; strategy/n/nodes/rank derived from
	 * its params at ingest; repeat is the launch's order among runs of
	 * the same name (computed by the run model) unless logged */
	"CREATE TABLE run(id INTEGER PRIMARY KEY, sweep_id INTEGER REFERENCES sweep(id),"
	" ext_id TEXT NOT NULL UNIQUE, name TEXT, parent_ext_id TEXT,"
	" strategy TEXT, n INTEGER, nodes INTEGER, rank INTEGER, repeat INTEGER,"
	" status INTEGER, start_ms INTEGER, end_ms INTEGER,"
	" source_id INTEGER REFERENCES source(id));\n"
	"CREATE INDEX run_sweep ON run(sweep_id);\n"
	"CREATE INDEX run_parent ON run(parent_ext_id);\n"
	"CREATE TABLE param(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,"
	" value TEXT, source_id INTEGER NOT NULL, PRIMARY KEY(run_id, key_id)) WITHOUT ROWID;\n"
	"CREATE TABLE tag(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,"
	" value TEXT, source_id INTEGER NOT NULL, PRIMARY KEY(run_id, key_id)) WITHOUT ROWID;\n"
	"CREATE TABLE metric_point(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,"
	" step INTEGER NOT NULL, ts_ms INTEGER, value REAL, source_id INTEGER NOT NULL);\n"
	"CREATE INDEX metric_point_run ON metric_point(run_id, key_id, step);\n"
	"CREATE INDEX metric_point_source ON metric_point(source_id);\n"
	/* one profiler trace of one rank */
	"CREATE TABLE trace(id INTEGER PRIMARY KEY, run_id INTEGER, source_id INTEGER NOT NULL,"
	" rank INTEGER, world_size INTEGER, backend TEXT, device TEXT,"
	" start_ns INTEGER, end_ns INTEGER, events INTEGER, has_gpu INTEGER,"
	" comp_fraction REAL);\n"
	"CREATE INDEX trace_run ON trace(run_id);\n"
	/* phase: compute, communication, memory, idle, other (ns), overlap */
	"CREATE TABLE trace_phase(trace_id INTEGER NOT NULL, phase_id INTEGER NOT NULL,"
	" ns INTEGER NOT NULL, PRIMARY KEY(trace_id, phase_id)) WITHOUT ROWID;\n"
	"CREATE TABLE trace_op(trace_id INTEGER NOT NULL, name_id INTEGER NOT NULL,"
	" cat_id INTEGER, count INTEGER, total_ns INTEGER, self_ns INTEGER,"
	" min_ns INTEGER, max_ns INTEGER);\n"
	"CREATE INDEX trace_op_trace ON trace_op(trace_id);\n"
	"CREATE TABLE trace_step(trace_id INTEGER NOT NULL, step INTEGER NOT NULL,"
	" start_ns INTEGER, dur_ns INTEGER);\n"
	"CREATE INDEX trace_step_trace ON trace_step(trace_id);\n"
	"CREATE TABLE trace_collective(trace_id INTEGER NOT NULL, name_id INTEGER NOT NULL,"
	" seq INTEGER, start_ns INTEGER, dur_ns INTEGER, bytes INTEGER, group_size INTEGER);\n"
	"CREATE INDEX trace_collective_trace ON trace_collective(trace_id);\n"
	/* itwinai torch_profiling_averages.csv rows (times in µs) */
	"CREATE TABLE op_average(run_id INTEGER, source_id INTEGER NOT NULL,"
	" name_id INTEGER NOT NULL, rank INTEGER, self_cuda_us REAL, cuda_total_us REAL,"
	" calls INTEGER);\n"
	"CREATE INDEX op_average_run ON op_average(run_id);\n"
	/* py-spy: frames and stacks as a trie (node = parent + frame) */
	"CREATE TABLE frame(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL,"
	" file_id INTEGER, line INTEGER, UNIQUE(name_id, file_id, line));\n"
	"CREATE TABLE stack_node(id INTEGER PRIMARY KEY, parent_id INTEGER,"
	" frame_id INTEGER NOT NULL, source_id INTEGER NOT NULL);\n"
	"CREATE INDEX stack_node_child ON stack_node(source_id, parent_id, frame_id);\n"
	"CREATE TABLE stack_sample(source_id INTEGER NOT NULL, run_id INTEGER,"
	" leaf_id INTEGER NOT NULL, process_id INTEGER, thread_id INTEGER,"
	" samples INTEGER NOT NULL, seconds REAL NOT NULL);\n"
	"CREATE INDEX stack_sample_source ON stack_sample(source_id);\n"
	"CREATE INDEX stack_sample_run ON stack_sample(run_id);\n"
	/* nvidia-smi samples */
	"CREATE TABLE gpu_sample(source_id INTEGER NOT NULL, run_id INTEGER,"
	" gpu INTEGER NOT NULL, ts_ms INTEGER NOT NULL, util_pct REAL,"
	" mem_util_pct REAL, power_w REAL, mem_used_mib REAL, temp_c REAL);\n"
	"CREATE INDEX gpu_sample_source ON gpu_sample(source_id);\n";

/* Memory per device of a trace recorded with profile_memory=True
 * (issue 15): peaks, and the bounded timeline of (time, allocated,
 * reserved) samples; bytes, NULL when unknown. */
static const char v_trace_memory[] =
	"CREATE TABLE trace_memory(trace_id INTEGER NOT NULL, device_type INTEGER NOT NULL,"
	" device_id INTEGER NOT NULL, from_totals INTEGER NOT NULL, peak_allocated INTEGER,"
	" peak_reserved INTEGER, events INTEGER NOT NULL,"
	" PRIMARY KEY(trace_id, device_type, device_id)) WITHOUT ROWID;\n"
	"CREATE TABLE trace_memory_sample(trace_id INTEGER NOT NULL,"
	" device_type INTEGER NOT NULL, device_id INTEGER NOT NULL, ts_ns INTEGER NOT NULL,"
	" allocated INTEGER, reserved INTEGER);\n"
	"CREATE INDEX trace_memory_sample_trace ON trace_memory_sample(trace_id);\n";

/* Regions (issue 14): every profiler's "where the time went" in
 * one shape (lib/model/region.h): per source, run and rank a named place
 * of a kind, measured by a profiler; key/parent_key are the unit's own
 * ids (caller edges in region_call refer to them); NULL numbers: the
 * source lacks them. */
static const char v_regions[] =
	"CREATE TABLE region(id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL,"
	" run_id INTEGER, rank INTEGER, device INTEGER, kind_id INTEGER NOT NULL,"
	" profiler_id INTEGER NOT NULL, name_id INTEGER NOT NULL, file_id INTEGER,"
	" line INTEGER, key INTEGER, parent_key INTEGER, calls INTEGER, prim_calls INTEGER,"
	" self_ns INTEGER, total_ns INTEGER, bytes INTEGER);\n"
	"CREATE INDEX region_source ON region(source_id, key);\n"
	"CREATE INDEX region_run ON region(run_id);\n"
	"CREATE INDEX region_name ON region(name_id);\n"
	"CREATE TABLE region_call(source_id INTEGER NOT NULL, caller_key INTEGER NOT NULL,"
	" callee_key INTEGER NOT NULL, calls INTEGER, prim_calls INTEGER, self_ns INTEGER,"
	" total_ns INTEGER);\n"
	"CREATE INDEX region_call_source ON region_call(source_id, callee_key);\n";

/* Events (issue 17, ingest --events): every GPU kernel, memcpy, memset
 * and collective of a trace, one row each; kind is 'kernel', 'memcpy',
 * 'memset' or 'collective'; seq numbers the trace's events of the same
 * name in start order; stream and bytes NULL when unknown. Only `amdahl sql`
 * reads it. */
static const char v_trace_event[] =
	"CREATE TABLE trace_event(trace_id INTEGER NOT NULL, source_id INTEGER NOT NULL,"
	" run_id INTEGER, rank INTEGER, stream INTEGER, kind TEXT NOT NULL,"
	" name_id INTEGER NOT NULL, seq INTEGER NOT NULL, start_ns INTEGER NOT NULL,"
	" dur_ns INTEGER NOT NULL, bytes INTEGER);\n"
	"CREATE INDEX trace_event_trace ON trace_event(trace_id, kind, seq);\n"
	"CREATE INDEX trace_event_source ON trace_event(source_id);\n";
/* Metric points clustered (issue 19, round two): one B-tree per point
 * instead of a rowid table plus two indexes. The key is (run, metric,
 * step) first, as every reader asks; source and seq (the point's order
 * in its source's unit: the old rowid for converted stores) make
 * repeated steps distinct. metric_series lists each source's (run,
 * metric) pairs, so replacing a source deletes its points through the
 * key instead of a source index. */
static const char v_metric_clustered[] =
	"CREATE TABLE metric_point_c(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL,"
	" step INTEGER NOT NULL, ts_ms INTEGER, value REAL, source_id INTEGER NOT NULL,"
	" seq INTEGER NOT NULL, PRIMARY KEY(run_id, key_id, step, source_id, seq)) WITHOUT ROWID;\n"
	"INSERT INTO metric_point_c SELECT run_id, key_id, step, ts_ms, value, source_id, rowid"
	" FROM metric_point;\n"
	"CREATE TABLE metric_series(source_id INTEGER NOT NULL, run_id INTEGER NOT NULL,"
	" key_id INTEGER NOT NULL, PRIMARY KEY(source_id, run_id, key_id)) WITHOUT ROWID;\n"
	"INSERT INTO metric_series SELECT DISTINCT source_id, run_id, key_id FROM metric_point;\n"
	"DROP TABLE metric_point;\n"
	"ALTER TABLE metric_point_c RENAME TO metric_point;\n";

/* Metric series packed (issue 19, round three): each (source, run,
 * metric) series is one row, or a chunk row per AMD_METRIC_CHUNK points,
 * holding its steps, times and values as little-endian arrays in one
 * blob (metric_pack.h); the virtual table metric_point (metric_sql.h)
 * shows them row by row. The old points are packed in their seq order. */
static const char v_metric_packed[] =
	"DROP TABLE metric_series;\n"
	"CREATE TABLE metric_series(source_id INTEGER NOT NULL, run_id INTEGER NOT NULL,"
	" key_id INTEGER NOT NULL, chunk INTEGER NOT NULL, n INTEGER NOT NULL,"
	" points BLOB NOT NULL);\n"
	"CREATE UNIQUE INDEX metric_series_key ON metric_series(run_id, key_id, source_id, chunk);\n"
	"CREATE INDEX metric_series_source ON metric_series(source_id);\n"
	AMD_METRIC_PACK_SQL("metric_point")
	"DROP TABLE metric_point;\n";

/* The table of operator averages as rows (schema 1 to 15) when the
 * store has none: a store of schema 16 that a test rewound to an older
 * version holds op_average_pack and no table of rows, and migrations 7,
 * 11 and 16 index, read and drop one. The empty table (role included: migration 11
 * copies it whole) hides the op_average virtual table until migration 16
 * drops it; the packs are left as they are. */
#define OP_ROWS_TABLE                                                                         \
	"CREATE TABLE IF NOT EXISTS op_average(run_id INTEGER, source_id INTEGER NOT NULL,"      \
	" name_id INTEGER NOT NULL, rank INTEGER, self_cuda_us REAL, cuda_total_us REAL,"       \
	" calls INTEGER, role INTEGER);\n"

/* Look-ups by source (issue 19, round eight), each a scan of a whole
 * table per unit — quadratic in a sweep's files, and under the write
 * lock: a unit's state (writer.c, amd_store_source_state: its path or
 * the same sha256 under another path) twice per unit; deriving a unit's
 * regions (then writer_regions.c) and replacing or forgetting a source,
 * which select its traces and operator averages by source_id. IF NOT
 * EXISTS: a store rebuilt at an older version by a test may hold them. */
static const char v_source_lookup[] =
	"CREATE INDEX IF NOT EXISTS source_sha256 ON source(sha256);\n"
	"CREATE INDEX IF NOT EXISTS trace_source ON trace(source_id);\n"
	OP_ROWS_TABLE
	"CREATE INDEX IF NOT EXISTS op_average_source ON op_average(source_id);\n";

/* GPU samples packed (issue 19, round nine): each (source, run, GPU)
 * series of nvidia-smi samples is one row, or a chunk row per
 * AMD_GPU_CHUNK samples, holding its times and five values as
 * little-endian arrays in one blob (gpu_pack.h), with the chunk's least
 * and greatest time; the virtual table gpu_sample (gpu_sql.h) shows them
 * row by row. The old rows are packed in their rowid (file) order.
 * IF NOT EXISTS: a store rewound to an older version by a test holds
 * gpu_series and no table gpu_sample (the empty one made here hides the
 * virtual table until it is dropped). */
static const char v_gpu_packed[] =
	"CREATE TABLE IF NOT EXISTS gpu_sample(source_id INTEGER NOT NULL, run_id INTEGER,"
	" gpu INTEGER NOT NULL, ts_ms INTEGER NOT NULL, util_pct REAL,"
	" mem_util_pct REAL, power_w REAL, mem_used_mib REAL, temp_c REAL);\n"
	"CREATE TABLE IF NOT EXISTS gpu_series(source_id INTEGER NOT NULL, run_id INTEGER,"
	" gpu INTEGER NOT NULL, chunk INTEGER NOT NULL, n INTEGER NOT NULL,"
	" t0_ms INTEGER NOT NULL, t1_ms INTEGER NOT NULL, samples BLOB NOT NULL);\n"
	"CREATE INDEX IF NOT EXISTS gpu_series_source ON gpu_series(source_id, gpu, chunk);\n"
	"CREATE INDEX IF NOT EXISTS gpu_series_run ON gpu_series(run_id);\n"
	AMD_GPU_PACK_SQL("(SELECT rowid AS seq, * FROM main.gpu_sample)")
	"DROP TABLE gpu_sample;\n";

/* The table of regions as rows (schema 3 to 14) when the store has none:
 * a store of schema 15 that a test rewound to an older version holds
 * region_pack and no table of rows, and migrations 9 and 15 make and
 * read one. The empty table hides the region virtual table until
 * migration 15 drops it; the packs are left as they are. */
#define REGION_ROWS_TABLE                                                                     \
	"CREATE TABLE IF NOT EXISTS region(id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL,"   \
	" run_id INTEGER, rank INTEGER, device INTEGER, kind_id INTEGER NOT NULL,"                \
	" profiler_id INTEGER NOT NULL, name_id INTEGER NOT NULL, file_id INTEGER, line INTEGER," \
	" key INTEGER, parent_key INTEGER, calls INTEGER, prim_calls INTEGER, self_ns INTEGER,"   \
	" total_ns INTEGER, bytes INTEGER);\n"

/* Region indexes by run (issue 19, round ten): region_name(name_id)
 * took a leaf in no order for every region a unit wrote (most of the
 * ~100 WAL frames each trace's commit wrote, under the write turn of
 * `ingest -j N`). One index (run_id, name_id) serves what both served:
 * a run's regions, and one name across a sweep (regions.c's across_sql:
 * an index search per run); a unit's rows share its run, so its entries
 * fall in that run's key range. (Keyed (run_id, source_id, name_id), a
 * unit's entries would sit side by side — 28 WAL frames a 64-rank
 * trace's commit instead of 44 — but one name across a sweep read each
 * run's whole range: 0.6 s a name on the 1,000 x 64 store.) */
static const char v_region_run_name[] =
	REGION_ROWS_TABLE
	"DROP INDEX IF EXISTS region_name;\n"
	"DROP INDEX IF EXISTS region_run;\n"
	"CREATE INDEX region_run ON region(run_id, name_id);\n";

/* Trace ops as regions (issue 32): a trace's ops were rows of trace_op
 * and again, derived from them, rows of region; the trace reader now
 * reports each op once, as a region with a detail row (the source's
 * category of it, its shortest and longest call, its place among the
 * trace's ops). Each trace op is paired with the region derived from it
 * — same source, rank, name, calls, self and total time, the n-th of
 * equals with the n-th — which gets the op's detail; then trace_op goes.
 * IF NOT EXISTS: a store rewound to an older version by a test already
 * holds region_detail and no trace_op. */
static const char v_region_detail[] =
	"CREATE TABLE IF NOT EXISTS region_detail(region_id INTEGER PRIMARY KEY,"
	" category_id INTEGER, min_ns INTEGER, max_ns INTEGER, seq INTEGER);\n"
	"CREATE TABLE IF NOT EXISTS trace_op(trace_id INTEGER NOT NULL, name_id INTEGER NOT NULL,"
	" cat_id INTEGER, count INTEGER, total_ns INTEGER, self_ns INTEGER, min_ns INTEGER,"
	" max_ns INTEGER);\n"
	"INSERT INTO region_detail"
	" WITH o AS (SELECT t.source_id AS src, t.rank, o.name_id AS name, o.count AS calls,"
	"  o.self_ns AS self, o.total_ns AS total, o.cat_id AS cat, o.min_ns AS mn,"
	"  o.max_ns AS mx, row_number() OVER (PARTITION BY o.trace_id ORDER BY o.rowid) AS seq,"
	"  row_number() OVER (PARTITION BY t.source_id, t.rank, o.name_id, o.count, o.self_ns,"
	"  o.total_ns ORDER BY o.rowid) AS k FROM trace_op o JOIN trace t ON t.id = o.trace_id),"
	" g AS (SELECT g.id, g.source_id AS src, g.rank, g.name_id AS name, g.calls,"
	"  g.self_ns AS self, g.total_ns AS total, row_number() OVER (PARTITION BY g.source_id,"
	"  g.rank, g.name_id, g.calls, g.self_ns, g.total_ns ORDER BY g.id) AS k"
	"  FROM region g WHERE g.source_id IN (SELECT source_id FROM trace) AND g.bytes IS NULL"
	"  AND g.key IS NULL AND g.calls = g.prim_calls"
	"  AND g.kind_id NOT IN (SELECT id FROM dict WHERE s = 'collective'))"
	" SELECT g.id, o.cat, o.mn, o.mx, o.seq"
	" FROM o JOIN g ON g.src = o.src AND g.rank IS o.rank AND g.name = o.name"
	"  AND g.calls = o.calls AND g.self = o.self AND g.total = o.total AND g.k = o.k"
	" ORDER BY g.id;\n"
	"DROP TABLE trace_op;\n";

/* Converts op_average rows written before the readers classified their
 * ops (a store of schema 10 or older; a ClickHouse store's rows shipped
 * before its version 5, loaded with no role): the role the itwinai
 * reader now gives each op (itwinai_csv.c, op_role), from PyTorch's op
 * names, as the computation fraction's query once told them apart.
 * The one SQL in lib/store that names a source format's words
 * (tests/check-tree.sh allows it alone); rows with a role are left as
 * they are. */
#define OP_ROLES_OF_OLDER_ROWS_SQL \
	"UPDATE op_average SET role = COALESCE((SELECT CASE" \
	" WHEN d.s GLOB 'ProfilerStep*' THEN 2" \
	" WHEN instr(d.s, 'aten::') OR instr(d.s, 'c10::') OR instr(d.s, 'autograd::')" \
	"  OR d.s GLOB ('*[ ' || char(9, 10, 11, 12, 13) || ']at::*') THEN 1 ELSE 0 END" \
	" FROM dict d WHERE d.id = op_average.name_id), 0) WHERE role IS NULL;\n"

int amd_store_op_roles_of_older_rows(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, OP_ROLES_OF_OLDER_ROWS_SQL, err);
}

/* Converts run rows written before the MLflow readers reported what
 * launched a run (a store of schema 11 or older; a ClickHouse store's
 * runs shipped before its version 6, loaded without them): the entry
 * point and program from the tags MLflow keeps them in, as the grouping
 * of unnamed runs once read them (mlflow_tags.c reads them now). Under
 * the same exception as OP_ROLES_OF_OLDER_ROWS_SQL; runs that have them
 * are left as they are. */
#define RUN_LAUNCH_TAG(key) "(SELECT g.value FROM tag g JOIN dict d ON d.id = g.key_id" \
	" WHERE g.run_id = run.id AND d.s = '" key "' LIMIT 1)"
#define RUN_LAUNCH_OF_OLDER_ROWS_SQL \
	"UPDATE run SET entry_point = " RUN_LAUNCH_TAG("mlflow.project.entryPoint") \
	" WHERE entry_point IS NULL;\n" \
	"UPDATE run SET program = " RUN_LAUNCH_TAG("mlflow.source.name") \
	" WHERE program IS NULL;\n"

int amd_store_run_launch_of_older_rows(struct amd_store *st, struct amd_err *err)
{
	return amd_store_exec(st, RUN_LAUNCH_OF_OLDER_ROWS_SQL, err);
}

/* Operator roles (issue 32): the reader that reports an operator
 * average says what it is (op_average.role, enum amd_op_role in
 * lib/model/sink.h); the store no longer tells PyTorch's op names apart. */
static const char v_op_role[] =
	OP_ROWS_TABLE
	"CREATE TABLE op_average_roled(run_id INTEGER, source_id INTEGER NOT NULL,"
	" name_id INTEGER NOT NULL, rank INTEGER, self_cuda_us REAL, cuda_total_us REAL,"
	" calls INTEGER, role INTEGER);\n"
	/* the table copied, not ALTERed: a store rewound to an older version
	 * by a test already has the column; rowids kept (the row order) */
	"INSERT INTO op_average_roled(rowid, run_id, source_id, name_id, rank, self_cuda_us,"
	" cuda_total_us, calls) SELECT rowid, run_id, source_id, name_id, rank, self_cuda_us,"
	" cuda_total_us, calls FROM op_average ORDER BY rowid;\n"
	"DROP TABLE op_average;\n"
	"ALTER TABLE op_average_roled RENAME TO op_average;\n"
	"CREATE INDEX op_average_run ON op_average(run_id);\n"
	"CREATE INDEX op_average_source ON op_average(source_id);\n"
	OP_ROLES_OF_OLDER_ROWS_SQL;

/* What launched a run (issue 32): the MLflow readers report a run's
 * entry point and program (amd_run_rec), stored in run columns; the
 * grouping of unnamed runs reads them, not MLflow's tags. The table is
 * copied, not ALTERed (a store rewound to an older version by a test
 * already has the columns), ids kept. */
static const char v_run_launch[] =
	"CREATE TABLE run_launched(id INTEGER PRIMARY KEY, sweep_id INTEGER REFERENCES sweep(id),"
	" ext_id TEXT NOT NULL UNIQUE, name TEXT, parent_ext_id TEXT,"
	" strategy TEXT, n INTEGER, nodes INTEGER, rank INTEGER, repeat INTEGER,"
	" status INTEGER, start_ms INTEGER, end_ms INTEGER,"
	" source_id INTEGER REFERENCES source(id), entry_point TEXT, program TEXT);\n"
	"INSERT INTO run_launched(id, sweep_id, ext_id, name, parent_ext_id, strategy, n, nodes,"
	" rank, repeat, status, start_ms, end_ms, source_id) SELECT id, sweep_id, ext_id, name,"
	" parent_ext_id, strategy, n, nodes, rank, repeat, status, start_ms, end_ms, source_id"
	" FROM run ORDER BY id;\n"
	"DROP TABLE run;\n"
	"ALTER TABLE run_launched RENAME TO run;\n"
	"CREATE INDEX run_sweep ON run(sweep_id);\n"
	"CREATE INDEX run_parent ON run(parent_ext_id);\n"
	RUN_LAUNCH_OF_OLDER_ROWS_SQL;

/* Process groups (issue 34): a collective call's process group
 * ("Process Group Name" of Kineto's record_param_comms and NCCL kernels),
 * a dict id, NULL when the trace does not say; its seq counts per group
 * and name. Copied, not ALTERed, as v_run_launch; older rows keep NULL
 * (their seq counted per name). */
static const char v_coll_group[] =
	"CREATE TABLE trace_collective_grouped(trace_id INTEGER NOT NULL,"
	" name_id INTEGER NOT NULL, seq INTEGER, start_ns INTEGER, dur_ns INTEGER, bytes INTEGER,"
	" group_size INTEGER, group_id INTEGER);\n"
	"INSERT INTO trace_collective_grouped(rowid, trace_id, name_id, seq, start_ns, dur_ns,"
	" bytes, group_size) SELECT rowid, trace_id, name_id, seq, start_ns, dur_ns, bytes,"
	" group_size FROM trace_collective ORDER BY rowid;\n"
	"DROP TABLE trace_collective;\n"
	"ALTER TABLE trace_collective_grouped RENAME TO trace_collective;\n"
	"CREATE INDEX trace_collective_trace ON trace_collective(trace_id);\n";

/* py-spy stacks packed (issue 38, round six): a source's trie nodes and
 * its samples were a row each (stack_node, stack_sample: 178k rows of
 * each for a 9 MB collapsed file, most of its ingest's time); they are
 * now one stack_node_pack row per source and one stack_sample_pack row
 * per (source, run), each holding a little-endian array (stack_pack.h),
 * and the virtual tables stack_node / stack_sample (stack_sql.h) show
 * them row by row. Node ids are kept; samples are packed in their rowid
 * (file) order. IF NOT EXISTS: a store rewound to an older version by a
 * test holds the packs and no tables of rows (the empty ones made here
 * hide the virtual tables until they are dropped). */
static const char v_stack_packed[] =
	"CREATE TABLE IF NOT EXISTS stack_node(id INTEGER PRIMARY KEY, parent_id INTEGER,"
	" frame_id INTEGER NOT NULL, source_id INTEGER NOT NULL);\n"
	"CREATE TABLE IF NOT EXISTS stack_sample(source_id INTEGER NOT NULL, run_id INTEGER,"
	" leaf_id INTEGER NOT NULL, process_id INTEGER, thread_id INTEGER,"
	" samples INTEGER NOT NULL, seconds REAL NOT NULL);\n"
	AMD_STACK_PACK_TABLES_SQL
	AMD_STACK_NODE_PACK_SQL("main.stack_node")
	AMD_STACK_SAMPLE_PACK_SQL("(SELECT rowid AS seq, * FROM main.stack_sample)")
	"DROP TABLE stack_node;\n"
	"DROP TABLE stack_sample;\n";

/* Regions packed (issue 38, round eight): a region was a row of 17
 * columns with two index entries (5.18 M rows, most of the 1,000 x
 * 64-rank sweep's store and of its report's reading); a stretch of a
 * unit's regions sharing a run is now one region_pack row holding them
 * as a column array (region_pack.h), and the virtual table region
 * (region_sql.h) shows them row by row, ids kept. IF NOT EXISTS: a store
 * rewound to an older version by a test holds the packs and no table of
 * rows (the empty one made here hides the virtual table until dropped). */
static const char v_region_packed[] =
	REGION_ROWS_TABLE
	AMD_REGION_PACK_TABLES_SQL
	AMD_REGION_PACK_SQL("main.region")
	"DROP TABLE region;\n";

/* Operator averages packed (issue 38, round thirteen): an itwinai CSV
 * wrote a row per operator (60k rows for an 8 MB file, a third of its
 * ingest's instructions); a stretch of a unit's rows sharing a run is
 * now one op_average_pack row holding them as an array (op_pack.h), and
 * the virtual table op_average (op_sql.h) shows them row by row, in
 * their rowid (file) order. Schema 16 packed them as fixed 56-byte
 * records; migration 17 packs them as a column array, and packs the
 * rows of an older store itself, so this one only makes the table and
 * leaves the rows (a store this binary took to 16 is never read at 16:
 * 17 runs next; one the schema-16 binary made holds the records). */
static const char v_op_packed[] =
	OP_ROWS_TABLE
	AMD_OP_PACK_TABLES_SQL;

/* Regions' caller edges packed (issue 38, round fourteen): a cProfile
 * file wrote a row, and an index entry, per caller edge; a stretch of a
 * unit's edges (at most AMD_CALL_CHUNK) is now one region_call_pack row
 * holding them as an array (call_pack.h), and the virtual table
 * region_call (call_sql.h) shows them row by row, in their rowid (file)
 * order. IF NOT EXISTS: a store a test rewound to an older version holds
 * the packs and no table of rows (the empty one made here hides the
 * virtual table until dropped). Operator averages as a column array
 * (round fifteen: 56-byte records made the itwinai-layout store 6%
 * bigger than rows): schema 16's records repacked in place (rowids,
 * so the order, kept), then the rows migration 16 left (an older store)
 * packed, then that table dropped. Only a blob of 56 * n bytes is a
 * schema-16 one: a column array of n rows is at most 5 + 49 n bytes
 * (op_pack.h), so a store a test rewound holding column arrays keeps
 * them. */
static const char v_call_packed[] =
	"CREATE TABLE IF NOT EXISTS region_call(source_id INTEGER NOT NULL,"
	" caller_key INTEGER NOT NULL, callee_key INTEGER NOT NULL, calls INTEGER,"
	" prim_calls INTEGER, self_ns INTEGER, total_ns INTEGER);\n"
	AMD_CALL_PACK_TABLES_SQL
	AMD_CALL_PACK_SQL("(SELECT rowid AS seq, * FROM main.region_call)")
	"DROP TABLE region_call;\n"
	"UPDATE op_average_pack SET ops = amd_op_from_records(ops) WHERE length(ops) = 56 * n;\n"
	OP_ROWS_TABLE
	AMD_OP_PACK_SQL("(SELECT rowid AS seq, * FROM main.op_average)")
	"DROP TABLE op_average;\n";

const char *const amd_migrations[] = {
	v1,
	v_trace_memory,
	v_regions,
	v_trace_event,
	v_metric_clustered,
	v_metric_packed,
	v_source_lookup,
	v_gpu_packed,
	v_region_run_name,
	v_region_detail,
	v_op_role,
	v_run_launch,
	v_coll_group,
	v_stack_packed,
	v_region_packed,
	v_op_packed,
	v_call_packed,
};

const int amd_migration_count = sizeof amd_migrations / sizeof amd_migrations[0];
