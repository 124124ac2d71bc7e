/* schema.h — the list of schema migrations (see schema.c). */
#ifndef AMD_STORE_SCHEMA_H
#define AMD_STORE_SCHEMA_H

extern const char *const amd_migrations[];
extern const int amd_migration_count;

/* The schema of a store at version amd_schema_fresh_version, made in
 * one go (schema_fresh.c): where a new store starts. */
extern const char amd_schema_fresh[];
extern const int amd_schema_fresh_version;

struct amd_store;
struct amd_err;

/* Gives op_average rows without a role (written before the readers
 * classified their ops: an old store's, through migration 11, or a
 * ClickHouse store's older rows, by the loader) the role their op name
 * gives them (schema.c). 0, or -1 with err set. */
int amd_store_op_roles_of_older_rows(struct amd_store *st, struct amd_err *err);

/* Gives runs without an entry point or program (written before the
 * MLflow readers reported them: an old store's, through migration 12, or
 * a ClickHouse store's older runs, by the loader) those of their tags
 * (schema.c). 0, or -1 with err set. */
int amd_store_run_launch_of_older_rows(struct amd_store *st, struct amd_err *err);

#endif
