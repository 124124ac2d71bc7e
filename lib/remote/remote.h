/* remote.h — where a store is, decided once for every command: a SQLite
 * file (lib/store, read and written in place) or a remote store that one
 * of the backends of remote.c claims (a clickhouse:// URL: the ClickHouse
 * backend, ch_*.c). The commands open, ingest into, query, link, push and
 * pull through these functions; below this layer lib/store knows only
 * SQLite. A remote store is read through an in-memory SQLite store the
 * same queries run on, and written unit by unit from a staging one.
 * See docs/design.md, "Remote stores". */
#ifndef AMD_REMOTE_H
#define AMD_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "config.h"
#include "err.h"
#include "sink.h"
#include "store.h"

/* A remote backend's operations (remote_ops.h). */
struct amd_remote_ops;

/* The backend that claims location, or NULL for a SQLite file. */
const struct amd_remote_ops *amd_remote_find(const char *location);

/* Opens location to read what a command names (n names: sweeps, runs by
 * id or name, source files). A SQLite store is read in place, whole; a
 * remote store loads only the rows of those runs' sources (all of it
 * when n is 0 or the names match nothing), so a one-sweep read does not
 * grow with the other sweeps the store holds. */
int amd_location_open_read(const char *location, const char *const *names, size_t n,
			   struct amd_store **out, struct amd_err *err);

/* amd_location_open_read, with of the metric points only those of the
 * nkeys keys named: a remote store loads no other key's points (a
 * `stats` of one metric of a sweep that logs ten moves a tenth of the
 * rows); a SQLite file is read whole. Such a part answers what it lacks
 * (a metric no run has, and its closest names) from the whole store. */
int amd_location_open_metrics(const char *location, const char *const *names, size_t n,
			      const char *const *keys, size_t nkeys, struct amd_store **out,
			      struct amd_err *err);
/* The same for a sweep's statistics (`stats`; keys[0] the metric): a
 * remote store leaves the points of the metric, epoch_time_s and
 * throughput_samples_per_s on the server, which computes each run's
 * value of them (store.h's amd_store_run_reduced; ch_reduce.h); a read
 * of their points loads them (amd_store_need_key). */
int amd_location_open_run_values(const char *location, const char *const *names, size_t n,
				 const char *const *keys, size_t nkeys, struct amd_store **out,
				 struct amd_err *err);

/* amd_location_open_read for a command that reads of metric points only
 * which keys each run logged and from which source (`runs`: the keys a
 * run logged; `regions`: the sources of the runs it picks): a remote
 * store loads one point per source, run and key, chosen by the server
 * (ch_reduce.h), and only the tables named (ntables of them; NULL: all;
 * runs.h's amd_runs_tables for `runs`). A SQLite file is read whole. */
int amd_location_open_key_sets(const char *location, const char *const *names, size_t n,
			       const char *const *tables, size_t ntables, struct amd_store **out,
			       struct amd_err *err);

/* amd_location_open_key_sets for `regions`: a remote store also leaves
 * the region rows (one per trace and region: the most rows of a traced
 * sweep) on the server: a sweep's region list asks it for their sums per
 * run (store.h's amd_store_region_sums: every sum an integer, so the
 * same as SQLite's), and any other query of them loads them first
 * (amd_store_need). A SQLite file is read whole. */
int amd_location_open_region_sums(const char *location, const char *const *names, size_t n,
				  const char *const *tables, size_t ntables,
				  struct amd_store **out, struct amd_err *err);

/* Opens location to read for queries of only these tables (n of them,
 * and source): a SQLite store in place; a remote store loads those
 * tables' committed rows and no other (amd_orphan_tables: the check an
 * ingest ends with need not load every metric point). */
int amd_location_open_tables(const char *location, const char *const *tables, size_t n,
			     struct amd_store **out, struct amd_err *err);

/* amd_location_open_tables for the check an ingest of paths (n of them)
 * ends with (orphans.h, tables amd_orphan_tables): a remote store loads
 * only the committed attempts of those paths and of the runs their rows
 * name or their GPU samples fall in (every copy of such a run), so what
 * the check says of the paths is what a load of the whole store says,
 * whatever the store's size. A SQLite store is read in place. */
int amd_location_open_orphans_of(const char *location, const char *const *paths, size_t n,
				 const char *const *tables, size_t ntables,
				 struct amd_store **out, struct amd_err *err);

/* 1 when location holds a store (a SQLite file is there; a remote
 * database has the store's tables), 0 when not, -1 on an error. */
int amd_location_exists(const char *location, struct amd_err *err);

/* Before a process writes the store at location (an ingest, a link),
 * ahead of anything that opens SQLite: the process-wide SQLite settings
 * of a writer of a store file (sqlite_setup.h); a remote store's process
 * writes only a staging store, and takes a reader's. The front end's
 * NEEDS_STORE_WRITE. */
void amd_location_prepare_write(const char *location);

/* After a process wrote the store at location: a SQLite file's log
 * copied into it (store.h's amd_store_settle); nothing for a remote
 * store. 0, or -1 with err saying what is left and how to finish. */
int amd_location_settle(const char *location, struct amd_err *err);

/* The ingest target writing to location (model/sink.h); location must
 * outlive it. */
struct amd_ingest_target amd_location_target(const char *location);

/* After an ingest that committed nothing: a remote store whose schema
 * was made at or after since (unix seconds: by that ingest) and holds
 * no source loses its tables, as cmd/ingest.c removes a new SQLite
 * file, so a failed first ingest leaves no store. 0 (also for a SQLite
 * file, which is left alone), or -1 with err. */
int amd_location_drop_if_new(const char *location, int64_t since, struct amd_err *err);

/* A user's read-only sql on the store at location, the answer appended
 * to out: on SQLite, user_sql.h's tab-separated text; on a remote
 * store, the server's answer (ClickHouse: TSVWithNames, or the FORMAT
 * the query names). Statements that would write are refused. */
int amd_location_sql(const char *location, const char *sql, struct amd_buf *out,
		     struct amd_err *err);

/* `amdahl link` on the store at location: orphans.h's
 * amd_store_link_at on a SQLite file, the backend's own on a remote
 * store. Returns enum amd_link_result, or -1. */
int amd_location_link(const char *location, const struct amd_config *cfg, const char *path,
		      const char *run, const char *sweep, struct amd_err *err);

struct amd_push_counts {
	size_t pushed, replaced, unchanged; /* sources */
	/* pushed or replaced sources whose commit held but the removal of
	 * the versions they replace failed after it (readers see the new
	 * ones; the old rows stay, seen by no reader, until the next push
	 * or ingest removes them); the first such failure's message */
	size_t uncleaned;
	char uncleaned_error[1024];
};

/* `amdahl push`: copies every source of the SQLite store at local (only
 * the sources of sweep when not NULL) into the remote store at to:
 * sources the target already holds with the same bytes are left alone,
 * changed ones replaced, each shipped whole with its commit; idempotent. */
int amd_remote_push(const char *local, const char *to, const char *sweep,
		    struct amd_push_counts *counts, struct amd_err *err);

/* `amdahl pull`: reads the committed rows of the remote store at from
 * (only the sources holding sweep's runs when sweep is not NULL; no such
 * sweep is an error) as every reading command does, and writes them as
 * the SQLite store to, replacing it atomically (a temporary file beside
 * it, renamed; a symbolic link at to is refused, and so is a to that a
 * process has open with a write-ahead log). *nsources: sources copied.
 * The event-level table trace_event (ingest --events) is not copied;
 * the schema versions are dated by the newest source copied, so an
 * unchanged store pulled again gives the same bytes. */
int amd_remote_pull(const char *from, const char *sweep, const char *to, size_t *nsources,
		    struct amd_err *err);

#endif
