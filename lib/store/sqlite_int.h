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

#endif
