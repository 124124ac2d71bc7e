/* remote_ops.h — what a remote backend implements, the way curl's TLS
 * backends sit behind struct Curl_ssl: one struct of operations per
 * backend, one row per backend in remote.c's table. The seam is where
 * rows cross the backend boundary — a unit written (from the SQLite
 * writer's staging store) and a read loaded (into an in-memory SQLite
 * store) — so every query and writer rule of lib/store stays SQLite's.
 * Included only inside lib/remote. */
#ifndef AMD_REMOTE_OPS_H
#define AMD_REMOTE_OPS_H

#include "remote.h"

struct amd_remote_ops {
	const char *name;   /* in messages: "ClickHouse" */
	const char *scheme; /* what its locations start with: "clickhouse://" */
	const char *form;   /* a location's form, for messages */
	/* 1 when location names a store of this backend */
	int (*claims)(const char *location);
	/* what a read needs (names: remote.h's amd_location_open_read;
	 * tables, NULL: all; metric keys, NULL: all; how: AMD_READ_* below)
	 * loaded into an in-memory store; a part read is marked so
	 * (store.h's amd_store_set_whole) */
	int (*open_read)(const char *location, const char *const *names, size_t n,
			 const char *const *tables, size_t ntables, const char *const *keys,
			 size_t nkeys, int how, struct amd_store **out, struct amd_err *err);
	/* 1 when location holds a store, 0 when not, -1 */
	int (*exists)(const char *location, struct amd_err *err);
	/* the ingest target: ships each unit the SQLite writer staged */
	struct amd_ingest_target (*target)(const char *location);
	/* remote.h's amd_location_drop_if_new */
	int (*drop_if_new)(const char *location, int64_t since, struct amd_err *err);
	/* a user's read-only SQL, run where the rows are */
	int (*sql)(const char *location, const char *sql, struct amd_buf *out,
		   struct amd_err *err);
	/* a held file's facts linked to run (enum amd_link_result, or -1) */
	int (*link)(const char *location, const char *path, const char *run, const char *sweep,
		    struct amd_err *err);
	/* the sources of the SQLite store local (of sweep, or all) shipped */
	int (*push)(const char *local, const char *location, const char *sweep,
		    struct amd_push_counts *counts, struct amd_err *err);
};

/* open_read's how, or'd: of metric points one per source, run and key
 * (remote.h's amd_location_open_key_sets); the part's sources whole,
 * every run's rows in them (a copy: pull), where a read takes only the
 * rows of the runs it names. */
#define AMD_READ_KEY_SETS 1
#define AMD_READ_WHOLE_SOURCES 2
/* ... and of the region rows none: they stay on the server, which sums
 * them per run for a sweep's region list (store.h's
 * amd_store_region_sums); any other query of them loads them first
 * (amd_store_need). */
#define AMD_READ_REGION_SUMS 4
/* ... and of the points of the metric (keys[0]), epoch_time_s and
 * throughput_samples_per_s only the key sets: the server reduces them
 * per run for a sweep's statistics (store.h's amd_store_run_reduced);
 * a read of their points loads them first (amd_store_need_key). */
#define AMD_READ_RUN_VALUES 8
/* names are source paths: the part the orphan check after an ingest of
 * them needs (ch_scope.h's amd_ch_scope_orphans) */
#define AMD_READ_ORPHANS_OF 16

/* remote.h's amd_remote_pull once r claimed url (pull.c). */
int amd_remote_pull_copy(const struct amd_remote_ops *r, const char *url, const char *sweep,
			 const char *to, size_t *nsources, struct amd_err *err);

/* The backends (ch_remote.c: amd_clickhouse_ops). */
extern const struct amd_remote_ops amd_clickhouse_ops;

#endif
