/* sqlite_int.h — the SQLite backend's own: the connection behind struct
 * amd_store and the statement helpers every file of lib/store uses.
 * Included only inside lib/store. */
#ifndef AMD_SQLITE_INT_H
#define AMD_SQLITE_INT_H

#include <sqlite3.h>

#include "store.h"

struct amd_store {
	sqlite3 *db;
	char *path;
	enum amd_store_mode mode;
	int in_tx;
};

/* Runs one SQL statement with no result rows; err names the statement. */
int amd_store_exec(struct amd_store *st, const char *sql, struct amd_err *err);

/* Prepares sql or fills err; the caller finalizes. */
sqlite3_stmt *amd_store_prepare(struct amd_store *st, const char *sql,
				struct amd_err *err);

/* Column i of the current row as a malloc'd copy in *out (NULL for an
 * SQL NULL); -1 when out of memory. */
int amd_store_col_text(sqlite3_stmt *q, int i, char **out);

/* The message for a failed sqlite3_step (rc), after the store's path:
 * "out of memory" for SQLITE_NOMEM (also what callers set when their
 * own allocation fails), else SQLite's message; returns -1. */
int amd_store_step_fail(struct amd_store *st, int rc, struct amd_err *err);

#endif
