/* schema_fresh.c — the schema a new store starts from (schema.h): what
 * the migrations 1..17 of schema.c leave in an empty store, statement
 * by statement as SQLite keeps it in sqlite_master (renamed tables
 * quoted as ALTER TABLE wrote them). A new store (store_create.c) runs
 * this text, records versions 1..AMD_SCHEMA_FRESH_VERSION, then the
 * migrations after it: creating the tables once instead of 16 versions
 * of copies, drops and renames, each making SQLite parse the whole
 * schema again, cut a new store's CPU from ~12 to ~2 ms (at version 17
 * since round fourteen: the packed regions, operator averages and
 * caller edges made here, not by migrations 15-17 on every new store).
 * test_store_create checks that a store made so and one migrated in place
 * have the same sqlite_master; a new migration goes in schema.c only
 * (this text may be brought up to date with it later, with its version). */
#include "schema.h"

#include "call_sql.h"
#include "op_sql.h"
#include "region_sql.h"
#include "stack_sql.h"

const int amd_schema_fresh_version = 17;

const char amd_schema_fresh[] =
	"CREATE TABLE schema_version(version INTEGER NOT NULL, applied_at INTEGER NOT NULL);\n"
	"CREATE TABLE dict(id INTEGER PRIMARY KEY, s TEXT NOT NULL UNIQUE);\n"
	"CREATE TABLE source(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, kind TEXT NOT"
	" NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL, ingested_at INTEGER NOT NULL);\n"
	"CREATE TABLE sweep(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, ext_id TEXT,"
	" axis TEXT);\n"
	"CREATE TABLE param(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL, value TEXT,"
	" source_id INTEGER NOT NULL, PRIMARY KEY(run_id, key_id)) WITHOUT ROWID;\n"
	"CREATE TABLE tag(run_id INTEGER NOT NULL, key_id INTEGER NOT NULL, value TEXT,"
	" source_id INTEGER NOT NULL, PRIMARY KEY(run_id, key_id)) WITHOUT ROWID;\n"
	"CREATE TABLE trace(id INTEGER PRIMARY KEY, run_id INTEGER, source_id INTEGER NOT"
	" NULL, rank INTEGER, world_size INTEGER, backend TEXT, device TEXT, start_ns"
	" INTEGER, end_ns INTEGER, events INTEGER, has_gpu INTEGER, comp_fraction REAL);\n"
	"CREATE INDEX trace_run ON trace(run_id);\n"
	"CREATE TABLE trace_phase(trace_id INTEGER NOT NULL, phase_id INTEGER NOT NULL, ns"
	" INTEGER NOT NULL, PRIMARY KEY(trace_id, phase_id)) WITHOUT ROWID;\n"
	"CREATE TABLE trace_step(trace_id INTEGER NOT NULL, step INTEGER NOT NULL, start_ns"
	" INTEGER, dur_ns INTEGER);\n"
	"CREATE INDEX trace_step_trace ON trace_step(trace_id);\n"
	"CREATE TABLE frame(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, file_id"
	" INTEGER, line INTEGER, UNIQUE(name_id, file_id, line));\n"
	"CREATE TABLE trace_memory(trace_id INTEGER NOT NULL, device_type INTEGER NOT NULL,"
	" device_id INTEGER NOT NULL, from_totals INTEGER NOT NULL, peak_allocated INTEGER,"
	" peak_reserved INTEGER, events INTEGER NOT NULL, PRIMARY KEY(trace_id, device_type,"
	" device_id)) WITHOUT ROWID;\n"
	"CREATE TABLE trace_memory_sample(trace_id INTEGER NOT NULL, device_type INTEGER NOT"
	" NULL, device_id INTEGER NOT NULL, ts_ns INTEGER NOT NULL, allocated INTEGER,"
	" reserved INTEGER);\n"
	"CREATE INDEX trace_memory_sample_trace ON trace_memory_sample(trace_id);\n"
	"CREATE TABLE trace_event(trace_id INTEGER NOT NULL, source_id INTEGER NOT NULL,"
	" run_id INTEGER, rank INTEGER, stream INTEGER, kind TEXT NOT NULL, name_id INTEGER"
	" NOT NULL, seq INTEGER NOT NULL, start_ns INTEGER NOT NULL, dur_ns INTEGER NOT NULL,"
	" bytes INTEGER);\n"
	"CREATE INDEX trace_event_trace ON trace_event(trace_id, kind, seq);\n"
	"CREATE INDEX trace_event_source ON trace_event(source_id);\n"
	"CREATE TABLE metric_series(source_id INTEGER NOT NULL, run_id INTEGER NOT NULL,"
	" key_id INTEGER NOT NULL, chunk INTEGER NOT NULL, n INTEGER NOT NULL, points BLOB"
	" NOT NULL);\n"
	"CREATE UNIQUE INDEX metric_series_key ON metric_series(run_id, key_id, source_id,"
	" chunk);\n"
	"CREATE INDEX metric_series_source ON metric_series(source_id);\n"
	"CREATE INDEX source_sha256 ON source(sha256);\n"
	"CREATE INDEX trace_source ON trace(source_id);\n"
	"CREATE TABLE gpu_series(source_id INTEGER NOT NULL, run_id INTEGER, gpu INTEGER NOT"
	" NULL, chunk INTEGER NOT NULL, n INTEGER NOT NULL, t0_ms INTEGER NOT NULL, t1_ms"
	" INTEGER NOT NULL, samples BLOB NOT NULL);\n"
	"CREATE INDEX gpu_series_source ON gpu_series(source_id, gpu, chunk);\n"
	"CREATE INDEX gpu_series_run ON gpu_series(run_id);\n"
	"CREATE TABLE region_detail(region_id INTEGER PRIMARY KEY, category_id INTEGER,"
	" min_ns INTEGER, max_ns INTEGER, seq INTEGER);\n"
	"CREATE TABLE \"run\"(id INTEGER PRIMARY KEY, sweep_id INTEGER REFERENCES sweep(id),"
	" ext_id TEXT NOT NULL UNIQUE, name TEXT, parent_ext_id TEXT, strategy TEXT, n"
	" INTEGER, nodes INTEGER, rank INTEGER, repeat INTEGER, status INTEGER, start_ms"
	" INTEGER, end_ms INTEGER, source_id INTEGER REFERENCES source(id), entry_point TEXT,"
	" program TEXT);\n"
	"CREATE INDEX run_sweep ON run(sweep_id);\n"
	"CREATE INDEX run_parent ON run(parent_ext_id);\n"
	"CREATE TABLE \"trace_collective\"(trace_id INTEGER NOT NULL, name_id INTEGER NOT NULL,"
	" seq INTEGER, start_ns INTEGER, dur_ns INTEGER, bytes INTEGER, group_size INTEGER,"
	" group_id INTEGER);\n"
	"CREATE INDEX trace_collective_trace ON trace_collective(trace_id);\n"
	AMD_STACK_PACK_TABLES_SQL
	AMD_REGION_PACK_TABLES_SQL
	AMD_OP_PACK_TABLES_SQL
	AMD_CALL_PACK_TABLES_SQL;
