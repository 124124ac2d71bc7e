/* writer_names.c — a unit's names interned ahead of its facts, sorted
 * (writer_names.h). A reader whose rows each bring a new name (itwinai's
 * op averages, key_averages tables) would otherwise add them to dict in
 * file order: every insert lands on a random page of dict's UNIQUE index,
 * and a store's index pages are rewritten again and again once that
 * index outgrows the page cache. In byte order the inserts walk the index
 * once; the rows that follow find their ids by the names' pointers
 * (sink.h: they stay valid until the unit ends), without hashing the
 * text again. */
#include "writer_names.h"
#include "writer_sink.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The names callback's pointers and their dict ids: open addressing on
 * the pointer's value (the strings are not read again). */
struct writer_name_ids {
	const char **ptr;
	int64_t *id;
	size_t nslots; /* a power of two, at least twice the names */
};

static size_t ptr_slot(const struct writer_name_ids *m, const char *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 32) & (m->nslots - 1);
}

static void map_put(struct writer_name_ids *m, const char *p, int64_t id)
{
	size_t h = ptr_slot(m, p);
	while (m->ptr[h] && m->ptr[h] != p)
		h = (h + 1) & (m->nslots - 1);
	m->ptr[h] = p;
	m->id[h] = id;
}

int64_t writer_name_id(const struct amd_store_sink *ss, const char *name)
{
	const struct writer_name_ids *m = ss->name_ids;
	if (!m)
		return 0;
	for (size_t h = ptr_slot(m, name); m->ptr[h]; h = (h + 1) & (m->nslots - 1))
		if (m->ptr[h] == name)
			return m->id[h];
	return 0;
}

void writer_names_free(struct amd_store_sink *ss)
{
	if (ss->name_ids) {
		free(ss->name_ids->ptr);
		free(ss->name_ids->id);
		free(ss->name_ids);
		ss->name_ids = NULL;
	}
}

/* A table for n more names (the old one's entries kept); -1 out of memory. */
static int map_make(struct amd_store_sink *ss, size_t n)
{
	struct writer_name_ids *old = ss->name_ids, *m = calloc(1, sizeof *m);
	size_t have = 0;
	for (size_t i = 0; old && i < old->nslots; i++)
		have += old->ptr[i] != NULL;
	for (m ? m->nslots = 1024 : 0; m && m->nslots < 2 * (have + n + 1);)
		m->nslots *= 2;
	if (!m || !(m->ptr = calloc(m->nslots, sizeof *m->ptr)) ||
	    !(m->id = malloc(m->nslots * sizeof *m->id))) {
		if (m)
			free(m->ptr);
		free(m);
		return -1;
	}
	for (size_t i = 0; old && i < old->nslots; i++)
		if (old->ptr[i])
			map_put(m, old->ptr[i], old->id[i]);
	writer_names_free(ss);
	ss->name_ids = m;
	return 0;
}

/* One name (capped as amd_store_name does): added by INSERT OR IGNORE
 * (one statement and one index walk for a new name), else (already in
 * dict) looked up as amd_store_intern does; its id into *id. */
static int add_name(struct amd_store *st, sqlite3_stmt *add, const char *s, int64_t *id,
		    struct amd_err *err)
{
	char capped[AMD_NAME_MAX + 1];
	if (!(s = amd_store_name(st, s, capped, err)))
		return -1;
	sqlite3_bind_text(add, 1, s, -1, SQLITE_STATIC);
	int rc = sqlite3_step(add);
	sqlite3_reset(add);
	if (rc != SQLITE_DONE)
		return amd_store_step_fail(st, rc, err);
	if (sqlite3_changes(st->db) == 1) {
		*id = sqlite3_last_insert_rowid(st->db);
		return 0;
	}
	return (*id = amd_store_intern(st, s, err)) < 0 ? -1 : 0;
}

static int by_bytes(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	int c = strcmp(a, b);
	return c ? c : (a > b) - (a < b);
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
	if (rc == 0 && map_make(ss, n) < 0)
		rc = amd_fail(err, "%s: out of memory", ss->path);
	for (size_t i = 0; i < n && rc == 0; i++) {
		int64_t id;
		if (i && sorted[i] == sorted[i - 1])
			continue;
		if ((rc = add_name(ss->st, add, sorted[i], &id, err)) == 0)
			map_put(ss->name_ids, sorted[i], id);
	}
	sqlite3_finalize(add);
	free(sorted);
	return rc;
}
