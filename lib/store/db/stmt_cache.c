/* stmt_cache.c — the statement cache of a store connection
 * (stmt_cache.h): a short array searched by the SQL's address. */
#include "stmt_cache.h"

#include <stdlib.h>

#include "buf.h"
#include "sqlite_int.h"

struct amd_stmt_slot {
	const char *sql;
	sqlite3_stmt *q;
};

sqlite3_stmt *amd_store_cached(struct amd_store *st, const char *sql, struct amd_err *err)
{
	for (size_t i = 0; i < st->ncached; i++)
		if (st->cached[i].sql == sql)
			return st->cached[i].q;
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return NULL;
	if (amd_grow(&st->cached, st->ncached, &st->cap_cached, sizeof *st->cached, 16) < 0) {
		sqlite3_finalize(q);
		amd_fail(err, "%s: out of memory", amd_store_path(st));
		return NULL;
	}
	st->cached[st->ncached++] = (struct amd_stmt_slot){ sql, q };
	return q;
}

void amd_store_cached_drop(sqlite3_stmt *q)
{
	if (!q)
		return;
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
}

int amd_store_cached_done(struct amd_store *st, sqlite3_stmt *q, int rc, struct amd_err *err)
{
	int r = rc == SQLITE_DONE ? 0 : amd_store_step_fail(st, rc, err);
	amd_store_cached_drop(q);
	return r;
}

void amd_store_cache_free(struct amd_store *st)
{
	for (size_t i = 0; i < st->ncached; i++)
		sqlite3_finalize(st->cached[i].q);
	free(st->cached);
	st->cached = NULL;
	st->ncached = st->cap_cached = 0;
}
