/* writer_names.c — a unit's names interned ahead of its facts
 * (writer_names.h). A reader whose rows each bring a new name (itwinai's
 * op averages, key_averages tables) would otherwise add them to dict in
 * file order: every insert lands on a random page of dict's UNIQUE index,
 * and a store's index pages are rewritten again and again once that
 * index outgrows the page cache. In byte order the inserts walk the index
 * once; the rows that follow find their ids by the names' pointers
 * (sink.h: they stay valid until the unit ends), without hashing the
 * text again. Names given in the order the facts will meet them (py-spy's
 * frames: their ids must stay those one insert a name gives) are added
 * in that order, the ones the connection has not interned yet, many to
 * an INSERT as well; the facts then find them in the intern cache. */
#include "writer_names.h"
#include "writer_profile.h"
#include "writer_sink.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "stmt_cache.h"

/* The names callback's pointers and their dict ids, found by the
 * pointer's value through an amd_hmap (the strings are not read again). */
struct writer_name_ids {
	const char **ptr;
	int64_t *id;
	size_t n, cap;
	struct amd_hmap index;
};

static uint32_t ptr_hash(const char *p)
{
	return amd_hash_u64((uint64_t)(uintptr_t)p);
}

struct ptr_key {
	const struct writer_name_ids *m;
	const char *p;
};

static int same_ptr(const void *ctx, uint32_t idx)
{
	const struct ptr_key *k = ctx;
	return k->m->ptr[idx] == k->p;
}

/* p's index in m, else -1. */
static int64_t find_at(const struct writer_name_ids *m, const char *p)
{
	struct ptr_key k = {m, p};
	return amd_hmap_find(&m->index, ptr_hash(p), same_ptr, &k);
}

int64_t writer_name_id(const struct amd_store_sink *ss, const char *name)
{
	const struct writer_name_ids *m = ss->name_ids;
	int64_t at = m ? find_at(m, name) : -1;
	return at < 0 ? 0 : m->id[at];
}

void writer_names_free(struct amd_store_sink *ss)
{
	struct writer_name_ids *m = ss->name_ids;
	if (m) {
		free(m->ptr);
		free(m->id);
		amd_hmap_free(&m->index);
		free(m);
		ss->name_ids = NULL;
	}
}

/* Remembers p's id (replacing an earlier one); -1 out of memory. */
static int map_put(struct amd_store_sink *ss, const char *p, int64_t id)
{
	struct writer_name_ids *m = ss->name_ids;
	if (!m && !(m = ss->name_ids = calloc(1, sizeof *m)))
		return -1;
	int64_t at = find_at(m, p);
	if (at >= 0) {
		m->id[at] = id;
		return 0;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 1024;
		const char **ptr = realloc(m->ptr, cap * sizeof *ptr);
		if (ptr)
			m->ptr = ptr;
		int64_t *ids = ptr ? realloc(m->id, cap * sizeof *ids) : NULL;
		if (!ids)
			return -1;
		m->id = ids;
		m->cap = cap;
	}
	if (amd_hmap_put(&m->index, ptr_hash(p), (uint32_t)m->n) < 0)
		return -1;
	m->ptr[m->n] = p;
	m->id[m->n++] = id;
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

/* Names added BATCH to one INSERT: one statement for BATCH new names,
 * not one each (the statement's start, cursors and reset per name were
 * half of adding it). */
#define BATCH 64
static char batch_sql[64 + 4 * BATCH];
static pthread_once_t batch_once = PTHREAD_ONCE_INIT;

static void write_batch_sql(void)
{
	size_t len = (size_t)snprintf(batch_sql, sizeof batch_sql,
				      "INSERT OR IGNORE INTO dict(s) VALUES(?)");
	for (int i = 1; i < BATCH; i++)
		len += (size_t)snprintf(batch_sql + len, sizeof batch_sql - len, ",(?)");
}

/* BATCH names (none capped) added by one INSERT: when every one was new,
 * their ids are consecutive, the last one's last_insert_rowid (checked
 * on the first) into id[]; 1 then, 0 when some were in dict already (the
 * caller adds them one by one), -1 on an error. */
static int add_batch(struct amd_store *st, const char *const *s, int64_t *id,
		     struct amd_err *err)
{
	pthread_once(&batch_once, write_batch_sql);
	sqlite3_stmt *q = amd_store_cached(st, batch_sql, err);
	if (!q)
		return -1;
	for (int i = 0; i < BATCH; i++)
		sqlite3_bind_text(q, i + 1, s[i], -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	if (rc != SQLITE_DONE)
		return amd_store_step_fail(st, rc, err);
	if (sqlite3_changes(st->db) != BATCH)
		return 0;
	int64_t first = sqlite3_last_insert_rowid(st->db) - (BATCH - 1);
	int64_t at = amd_store_dict_id(st, s[0], err);
	if (at < 0)
		return -1;
	if (at != first)
		return 0;
	for (int i = 0; i < BATCH; i++)
		id[i] = first + i;
	return 1;
}

/* names[0..n) (distinct pointers) into dict and, when their intern
 * cache slots are given (at: their places in the cache's ids), the
 * cache, else the pointer map; each whole batch of uncapped names by one
 * INSERT. The pointer map alone: the writers of those facts
 * (writer_op_average, writer_region) look their names up there first,
 * so the intern cache need not copy and hash every name again (it did:
 * a third of the itwinai CSV's interning, issue 38 round fifteen; before
 * it, every region's name was a look-up in dict's index, 2.4x the time
 * on twice the rows). */
static int add_all(struct amd_store_sink *ss, sqlite3_stmt *add, const char *const *names,
		   size_t n, const size_t *at, struct amd_err *err)
{
	int64_t id[BATCH];
	size_t i = 0;
	while (i < n) {
		size_t k = 0;
		while (k < BATCH && i + k < n && strlen(names[i + k]) <= AMD_NAME_MAX)
			k++;
		int got = k == BATCH ? add_batch(ss->st, names + i, id, err) : 0;
		if (got < 0)
			return -1;
		if (got == 0) { /* one name: capped, the file's last, or a batch's known ones */
			k = k == BATCH ? BATCH : 1;
			for (size_t j = 0; j < k; j++)
				if (add_name(ss->st, add, names[i + j], &id[j], err) < 0)
					return -1;
		}
		for (size_t j = 0; j < k; j++)
			if (at)
				ss->st->names.ids[at[i + j]] = id[j];
			else if (map_put(ss, names[i + j], id[j]) < 0)
				return amd_fail(err, "%s: out of memory", ss->path);
		i += k;
	}
	return 0;
}

/* sorted[0..n) without a pointer given twice; the count left. */
static size_t distinct(const char **sorted, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || sorted[i] != sorted[m - 1])
			sorted[m++] = sorted[i];
	return m;
}

/* v[0..n) (the names in the order given) left with the texts the
 * connection has not interned in this transaction, each once, their
 * places in its intern cache's ids in at[] (marked -1 until add_all
 * fills them: hashed once here); the count left, or SIZE_MAX out of
 * memory. */
static size_t unknown(struct amd_store *st, const char **v, size_t *at, size_t n,
		      struct amd_err *err)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		char capped[AMD_NAME_MAX + 1];
		const char *s = v[i];
		int64_t *slot = amd_store_intern_slot(st, &s, capped, err);
		if (!slot)
			return SIZE_MAX;
		if (*slot == 0) {
			*slot = -1;
			at[m] = (size_t)(slot - st->names.ids);
			v[m++] = v[i];
		}
	}
	return m;
}

int writer_names(struct amd_sink *s, const char *const *names, size_t n, int in_order,
		 struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (n == 0)
		return 0;
	const char **sorted = malloc(n * sizeof *sorted);
	size_t *at = in_order ? malloc(n * sizeof *at) : NULL;
	if (!sorted || (in_order && !at)) {
		free(sorted);
		return amd_fail(err, "%s: out of memory", ss->path);
	}
	memcpy(sorted, names, n * sizeof *sorted);
	if (in_order) { /* py-spy's frames: its stacks' names, newer than its stacks' start */
		n = writer_stacks_begin(ss, err) < 0 ? SIZE_MAX : unknown(ss->st, sorted, at, n, err);
	} else {
		qsort(sorted, n, sizeof *sorted, by_bytes);
		n = distinct(sorted, n);
	}
	sqlite3_stmt *add = n == SIZE_MAX ? NULL
		: amd_store_prepare(ss->st, "INSERT OR IGNORE INTO dict(s) VALUES(?1)", err);
	int rc = add ? add_all(ss, add, sorted, n, at, err) : -1;
	sqlite3_finalize(add);
	free(sorted);
	free(at);
	return rc;
}
