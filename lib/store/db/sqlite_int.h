/* sqlite_int.h — the SQLite backend's own: the connection behind struct
 * amd_store and the statement helpers every file of lib/store uses.
 * Included only inside lib/store. */
#ifndef AMD_SQLITE_INT_H
#define AMD_SQLITE_INT_H

#include <sqlite3.h>

#include "intern_cache.h"
#include "phase.h"
#include "store.h"

/* Turns at a connection several threads share: the writer's write gate
 * (writer/write_gate.h) sets them on the ingest workers' connection, and
 * every write transaction takes one (amd_store_begin). enter is NULL on
 * every other connection. The store calls them and knows no gate. */
struct amd_store_turns {
	void (*enter)(void *holder);
	void (*leave)(void *holder);
	void *holder;
};

struct amd_store {
	sqlite3 *db;
	char *path;
	enum amd_store_mode mode;
	int in_tx;
	/* a batch (amd_store_batch_begin) is open: a unit's transaction is
	 * a savepoint inside it, and only the batch's end commits */
	int batch;
	/* set when the store is a part of the store at path: opens it whole
	 * (amd_store_set_whole, amd_store_whole) */
	amd_store_open_whole_fn open_whole;
	/* a remote read's table left on the server (amd_store_set_remote);
	 * has_remote 0: none, or loaded since */
	struct amd_store_remote remote;
	int has_remote;
	int left_read; /* the statement being prepared reads remote.left (store.c) */
	/* the authorizer noting left_read is installed (once: amd_store_set_remote)
	 * and notes only while watching (a prepare of amd_store_prepare's) */
	int watch_on, watching;
	size_t nprepared; /* statements prepared (amd_store_prepares) */
	/* the runs whose left keys' points were loaded by run
	 * (amd_store_need_key: a run asked for, and those foreseen), sorted */
	int64_t *runs_in;
	size_t nruns_in;
	/* the logical runs a reader will read the left keys' points of, in
	 * its order (amd_store_plan_reads); plan_at: the last one a load
	 * was asked for */
	int64_t *plan;
	size_t nplan, plan_at;
	/* amd_store_intern's look-up and insert, prepared once per connection */
	sqlite3_stmt *dict_find, *dict_add;
	struct amd_intern_cache names; /* in front of them (intern_cache.h) */
	struct amd_stmt_slot *cached;  /* statements kept (stmt_cache.h) */
	size_t ncached, cap_cached;
	/* the ingest workers' shared connection: write transactions take
	 * turns at it (above); none on every other connection */
	struct amd_store_turns turns;
};

/* Runs one SQL statement with no result rows; err names the statement. */
int amd_store_exec(struct amd_store *st, const char *sql, struct amd_err *err);

/* Prepares sql or fills err; the caller finalizes. */
sqlite3_stmt *amd_store_prepare(struct amd_store *st, const char *sql,
				struct amd_err *err);
/* How many statements st has prepared (amd_store_prepare, amd_store_exec's
 * look at what a statement reads) since it was opened. */
size_t amd_store_prepares(const struct amd_store *st);

/* Column i of the current row as a malloc'd copy in *out (NULL for an
 * SQL NULL); -1 when out of memory. */
int amd_store_col_text(sqlite3_stmt *q, int i, char **out);
/* Binds cell c (unit_rows.h: NULL, integer, double or text) as
 * parameter i of q; text with how (SQLITE_STATIC when the cell outlives
 * the step, else SQLITE_TRANSIENT). SQLite's result code. */
struct amd_cell;
int amd_store_bind_cell(sqlite3_stmt *q, int i, const struct amd_cell *c,
			sqlite3_destructor_type how);

/* The message for a failed sqlite3_step (rc), after the store's path:
 * "out of memory" for SQLITE_NOMEM (also what callers set when their
 * own allocation fails), else SQLite's message; returns -1. */
int amd_store_step_fail(struct amd_store *st, int rc, struct amd_err *err);

/* The SQL modules and functions every store handle has, reading or
 * writing: the packed tables (metric_sql.h, gpu_sql.h, region_sql.h);
 * an SQLite code. */
int amd_store_sql_register(sqlite3 *db);
/* *s capped into capped (amd_store_name), then its slot in the store's
 * intern cache (an id > 0 once known); NULL with err filled. */
int64_t *amd_store_intern_slot(struct amd_store *st, const char **s,
			       char capped[AMD_NAME_MAX + 1], struct amd_err *err);
/* amd_store_intern, with the intern cache's copy of s's stored form in
 * *kept: it stays put until the transaction ends, so a writer compares
 * texts against it without a copy of its own. */
int64_t amd_store_intern_kept(struct amd_store *st, const char *s, const char **kept,
			      struct amd_err *err);

/* The id of text s in the string dictionary as given (not capped, never
 * added), through the store's one cached lookup: 0 when absent, -1 on an
 * error (err set). */
int64_t amd_store_dict_id(struct amd_store *st, const char *s, struct amd_err *err);

/* The first integer sql yields with text a bound to ?1 and, when sql
 * has a second parameter, b (NULL: SQL NULL) to ?2; 0 when no row, -1
 * on an error (err set). */
int64_t amd_store_first_id(struct amd_store *st, const char *sql, const char *a, const char *b,
			   struct amd_err *err);

/* Finalizes q after its last sqlite3_step returned rc: 0 when the rows
 * ended (SQLITE_DONE), else -1 with amd_store_step_fail's message. */
int amd_store_rows_done(struct amd_store *st, sqlite3_stmt *q, int rc, struct amd_err *err);

/* The dict ids of amd_phase_names (0: a name dict lacks), resolved
 * once per reading so the phase rows need no join to dict. */
struct amd_phase_ids {
	int64_t id[AMD_PHASE_COUNT];
};
/* Fills ids: 0, or -1 on an error (err set) (traces.c). */
int amd_store_phase_ids(struct amd_store *st, struct amd_phase_ids *ids, struct amd_err *err);
/* The statement amd_store_trace_phases reads with, from the store's
 * statement cache (stmt_cache.h: prepared once per connection), with
 * the phases' dict ids into *ids; reuse it across traces and give it
 * back with amd_store_cached_done (traces.c). */
sqlite3_stmt *amd_store_phases_stmt(struct amd_store *st, struct amd_phase_ids *ids,
				   struct amd_err *err);
/* The phase totals of trace trace_id into phase_ns (indexed by enum
 * amd_phase; phases it lacks are left as they are). *found (may be
 * NULL) is set when a known phase was read. Returns the final
 * sqlite3_step code: SQLITE_DONE when all went well. */
int amd_store_trace_phases(sqlite3_stmt *q, const struct amd_phase_ids *ids, int64_t trace_id,
			   int64_t *phase_ns, int *found);
/* One row of a phases query at column col (the phase's dict id; col + 1
 * its ns) into phase_ns as amd_store_trace_phases reads it; an id
 * not among ids' is skipped. */
void amd_store_phase_row(sqlite3_stmt *q, int col, const struct amd_phase_ids *ids,
			 int64_t *phase_ns, int *found);

/* store_create.c: when nothing is at path, makes a new store there
 * (schema_fresh.c's schema, one sync); leaves nothing on any failure
 * (the caller's open then creates it as before). */
void amd_store_create_new(const char *path);

/* store_create.c: schema_fresh.c's schema into db, an empty database
 * (a new in-memory store: a ClickHouse unit's staging, a read's load),
 * in one transaction; an SQLite code. The chain of migrations cost 42 M
 * instructions a store (callgrind: 16 staging stores 668 M), this about
 * a fifth (139 M with their transactions begun). */
int amd_store_fresh_schema(sqlite3 *db);

/* store_guard.c: refuses a file that is someone else's SQLite database
 * (tables, but no schema_version), describing what it looks like. */
int amd_store_check_foreign(struct amd_store *st, struct amd_err *err);
/* After a read-only store failed its first read with probe_rc: reopens
 * it immutable when the cause is a directory SQLite cannot write its
 * -shm file in and no write-ahead log is pending; else -1 saying what
 * happened. */
int amd_store_read_only_fallback(struct amd_store *st, int probe_rc, struct amd_err *err);

#endif
