/* store.h — the embedded SQLite store: opening (read-only or for
 * writing), the schema and its migrations, string interning and
 * transactions. All SQL of amdahl lives in lib/store*.c, so that another
 * backend is a new set of store files, not a change across lib/. */
#ifndef AMD_STORE_H
#define AMD_STORE_H

#include <sqlite3.h>
#include <stdint.h>

#include "err.h"

enum amd_store_mode { AMD_STORE_READ, AMD_STORE_WRITE };

struct amd_store {
	sqlite3 *db;
	char *path;
	enum amd_store_mode mode;
	int in_tx;
};

#define AMD_SCHEMA_VERSION 1

/* Opens (creating and migrating, in WRITE mode) the store at path. A
 * READ open of a missing file fails with a message that says so. */
int amd_store_open(const char *path, enum amd_store_mode mode,
		   struct amd_store **out, struct amd_err *err);
void amd_store_close(struct amd_store *st);

/* BEGIN IMMEDIATE (waits for other writers up to the busy timeout). */
int amd_store_begin(struct amd_store *st, struct amd_err *err);
int amd_store_commit(struct amd_store *st, struct amd_err *err);
void amd_store_rollback(struct amd_store *st);

/* Id of s in the string dictionary, adding it when new (inside a
 * transaction). Returns the id (> 0) or -1. */
int64_t amd_store_intern(struct amd_store *st, const char *s,
			 struct amd_err *err);

/* Runs one SQL statement with no result rows; err names the statement. */
int amd_store_exec(struct amd_store *st, const char *sql, struct amd_err *err);

/* Prepares sql or fills err; the caller finalizes. */
sqlite3_stmt *amd_store_prepare(struct amd_store *st, const char *sql,
				struct amd_err *err);

int amd_store_schema_version(struct amd_store *st);

#endif
