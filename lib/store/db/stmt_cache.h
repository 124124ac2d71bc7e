/* stmt_cache.h — statements prepared once per store connection: the
 * small queries a per-run loop (amd_analyse over a 1,000-run sweep) asks
 * thousands of times would otherwise be parsed and planned each time.
 * A cached statement is keyed by its SQL text's address (a string
 * literal or static array), handed out reset with its bindings cleared,
 * and given back with amd_store_cached_done (a reset: it holds no lock
 * after). Not for a statement whose query may run inside itself. */
#ifndef AMD_STMT_CACHE_H
#define AMD_STMT_CACHE_H

#include <sqlite3.h>

#include "err.h"
#include "store.h"

/* sql's statement on st, prepared on first use; NULL with err filled. */
sqlite3_stmt *amd_store_cached(struct amd_store *st, const char *sql, struct amd_err *err);
/* Gives q back (reset); as amd_store_rows_done: 0 when rc is
 * SQLITE_DONE, else -1 with err filled. */
int amd_store_cached_done(struct amd_store *st, sqlite3_stmt *q, int rc, struct amd_err *err);
/* Gives q back after the caller's own failure (its err already filled);
 * q may be NULL. */
void amd_store_cached_drop(sqlite3_stmt *q);
/* Every cached statement of st finalized (amd_store_close). */
void amd_store_cache_free(struct amd_store *st);

#endif
