/* ch_schema.h — creating and migrating a ClickHouse store: the database,
 * schema_version (as in SQLite), the source (commit) table and the fact
 * tables of ch_tables.h, version by version; on one server or, when the
 * URL names a cluster, replicated and sharded across it. */
#ifndef AMD_CH_SCHEMA_H
#define AMD_CH_SCHEMA_H

#include "clickhouse.h"

/* ALTER TABLE table clause (ADD COLUMN …, DELETE WHERE …). On a
 * cluster, on the local tables of every node (ON CLUSTER), and with
 * both, then on the Distributed table too (a column both must have). */
int amd_ch_alter(struct amd_ch *ch, const char *table, int both, const char *clause,
		 struct amd_err *err);

/* The backend's schema version this amdahl writes. */
int amd_ch_schema_target(void);

/* Creates what is missing (idempotent; safe from many hosts at once). */
int amd_ch_migrate(struct amd_ch *ch, struct amd_err *err);

/* 1 when the database at url holds a store, 0 when not, -1. */
int amd_ch_store_exists(const char *url, struct amd_err *err);

/* Checks a store for reading: it exists and has this amdahl's version. */
int amd_ch_check_version(struct amd_ch *ch, struct amd_err *err);

/* What a failed first ingest leaves (remote.h amd_location_drop_if_new):
 * drops the store's tables at url when no source is committed and its
 * schema was made at or after since (unix seconds, the server's clock).
 * The database itself stays (it may be one an administrator made). */
int amd_ch_drop_if_new(const char *url, int64_t since, struct amd_err *err);

#endif
