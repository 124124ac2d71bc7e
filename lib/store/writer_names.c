/* writer_names.c — a unit's names interned ahead of its facts, sorted
 * (writer_names.h). A reader whose rows each bring a new name (itwinai's
 * op averages, key_averages tables) would otherwise add them to dict in
 * file order: every insert lands on a random page of dict's UNIQUE index,
 * and a store's index pages are rewritten again and again once that
 * index outgrows the page cache. In byte order the inserts walk the index
 * once; the rows that follow find their ids in the intern cache. */
#include "writer_names.h"
#include "writer_sink.h"

#include <stdlib.h>
#include <string.h>

/* One name: its id from the intern cache, else added by INSERT OR IGNORE
 * (one statement and one index walk for a new name), else (already in
 * dict) looked up as amd_store_intern does. */
static int add_name(struct amd_store *st, sqlite3_stmt *add, const char *s,
		    struct amd_err *err)
{
	char capped[AMD_NAME_MAX + 1];
	int64_t *known = amd_store_intern_slot(st, &s, capped, err);
	if (!known)
		return -1;
	if (*known > 0)
		return 0;
	sqlite3_bind_text(add, 1, s, -1, SQLITE_STATIC);
	int rc = sqlite3_step(add);
	sqlite3_reset(add);
	if (rc != SQLITE_DONE)
		return amd_store_step_fail(st, rc, err);
	if (sqlite3_changes(st->db) == 1) {
		*known = sqlite3_last_insert_rowid(st->db);
		return 0;
	}
	return amd_store_intern(st, s, err) < 0 ? -1 : 0;
}

static int by_bytes(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

int writer_names(struct amd_sink *s, const char *const *names, size_t n,
		 struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (n == 0)
		return 0;
	const char **sorted = malloc(n * sizeof *sorted);
	if (!sorted)
		return amd_fail(err, "%s: out of memory", ss->path);
	memcpy(sorted, names, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, by_bytes);
	sqlite3_stmt *add = amd_store_prepare(ss->st, "INSERT OR IGNORE INTO dict(s) VALUES(?1)",
					      err);
	int rc = add ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = add_name(ss->st, add, sorted[i], err);
	sqlite3_finalize(add);
	free(sorted);
	return rc;
}
