/* sweep_keys.c — SQL behind sweep_keys.h: a sweep's metric, param and
 * tag names with their counts and values, and the closest-name check
 * (sel_closest, selector_hint.h) of --metric and --axis. */
#include "sweep_keys.h"
#include "selector_hint.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* The runs of sweep ?1 (NULL: all) with their child workers. */
#define RUNS "(SELECT r.id FROM run r LEFT JOIN sweep s ON s.id = r.sweep_id" \
	" WHERE ?1 IS NULL OR s.name = ?1" \
	" UNION SELECT c.id FROM run c JOIN run p ON c.parent_ext_id = p.ext_id" \
	" JOIN sweep s ON s.id = p.sweep_id WHERE s.name = ?1)"

static const char *const names_sql[AMD_KEY_KINDS] = {
	"SELECT d.s, sum(m.n), 0 FROM metric_series m JOIN dict d ON d.id = m.key_id"
	" WHERE m.run_id IN " RUNS " GROUP BY d.s ORDER BY d.s",
	"SELECT d.s, count(DISTINCT p.run_id), count(DISTINCT p.value) FROM param p"
	" JOIN dict d ON d.id = p.key_id WHERE p.run_id IN " RUNS " GROUP BY d.s ORDER BY d.s",
	"SELECT d.s, count(DISTINCT p.run_id), count(DISTINCT p.value) FROM tag p"
	" JOIN dict d ON d.id = p.key_id WHERE p.run_id IN " RUNS " GROUP BY d.s ORDER BY d.s",
};

static const char *const values_sql[AMD_KEY_KINDS] = {
	NULL,
	"SELECT DISTINCT p.value FROM param p JOIN dict d ON d.id = p.key_id WHERE d.s = ?2"
	" AND p.value IS NOT NULL AND p.run_id IN " RUNS " ORDER BY length(p.value), p.value LIMIT 12",
	"SELECT DISTINCT p.value FROM tag p JOIN dict d ON d.id = p.key_id WHERE d.s = ?2"
	" AND p.value IS NOT NULL AND p.run_id IN " RUNS " ORDER BY length(p.value), p.value LIMIT 12",
};

void amd_names_closest(const char *word, const char *const *cand, size_t n, char *buf,
		       size_t size)
{
	sel_closest(word, cand, n, buf, size);
}

void amd_run_names_closest(struct amd_store *st, const char *word, int sweeps, char *buf,
			   size_t size)
{
	sel_closest_in(st, sweeps ? "SELECT name FROM run WHERE name IS NOT NULL UNION"
				    " SELECT name FROM sweep WHERE name IS NOT NULL ORDER BY 1"
				  : "SELECT DISTINCT name FROM run WHERE name IS NOT NULL ORDER BY name",
		       word, buf, size);
}

size_t amd_names_nearest(const char *word, const char *const *cand, size_t n, size_t *pick,
			 size_t max)
{
	return sel_nearest(word, cand, n, pick, max);
}

const char *amd_key_kind_name(enum amd_key_kind kind)
{
	return kind == AMD_KEY_METRIC ? "metric" : kind == AMD_KEY_PARAM ? "param" : "tag";
}

/* The key's first distinct values into k->values. */
static int key_values(struct amd_store *st, const char *sweep, enum amd_key_kind kind,
		      struct amd_key_info *k, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, values_sql[kind], err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, k->name, -1, SQLITE_STATIC);
	if (!(k->values = calloc(AMD_KEY_VALUES, sizeof *k->values))) {
		sqlite3_finalize(q);
		return amd_store_step_fail(st, SQLITE_NOMEM, err);
	}
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && k->nvalues < AMD_KEY_VALUES) {
		if (amd_store_col_text(q, 0, &k->values[k->nvalues]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		k->nvalues++;
	}
	return amd_store_rows_done(st, q, rc == SQLITE_ROW ? SQLITE_DONE : rc, err);
}

/* One kind's names (and counts) of the runs, without values. */
static int kind_names(struct amd_store *st, const char *sweep, enum amd_key_kind kind,
		      struct amd_keys *out, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, names_sql[kind], err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct amd_key_info *k;
		if (amd_grow(&out->keys[kind], out->n[kind], &cap, sizeof *k, 16) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		k = &out->keys[kind][out->n[kind]];
		memset(k, 0, sizeof *k);
		if (amd_store_col_text(q, 0, &k->name) < 0 || !k->name) {
			rc = SQLITE_NOMEM;
			break;
		}
		k->count = sqlite3_column_int64(q, 1);
		k->distinct = sqlite3_column_int64(q, 2);
		out->n[kind]++;
	}
	return amd_store_rows_done(st, q, rc, err);
}

int amd_keys_list(struct amd_store *st, const char *sweep, struct amd_keys *out,
		  struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	for (int kind = 0; kind < AMD_KEY_KINDS; kind++) {
		if (kind_names(st, sweep, kind, out, err) < 0)
			goto fail;
		for (size_t i = 0; kind != AMD_KEY_METRIC && i < out->n[kind]; i++)
			if (key_values(st, sweep, kind, &out->keys[kind][i], err) < 0)
				goto fail;
	}
	return 0;
fail:
	amd_keys_free(out);
	return -1;
}

void amd_keys_free(struct amd_keys *k)
{
	for (int kind = 0; kind < AMD_KEY_KINDS; kind++) {
		for (size_t i = 0; i < k->n[kind]; i++) {
			struct amd_key_info *e = &k->keys[kind][i];
			free(e->name);
			for (size_t v = 0; v < e->nvalues; v++)
				free(e->values[v]);
			free(e->values);
		}
		free(k->keys[kind]);
		k->keys[kind] = NULL;
		k->n[kind] = 0;
	}
}

static int require_in(struct amd_store *st, const char *sweep, enum amd_key_kind kind,
		      const char *name, struct amd_err *err)
{
	struct amd_keys all;
	memset(&all, 0, sizeof all);
	if (kind_names(st, sweep, kind, &all, err) < 0) {
		amd_keys_free(&all);
		return -1;
	}
	const char **cand = calloc(all.n[kind] + 1, sizeof *cand);
	int found = 0;
	for (size_t i = 0; i < all.n[kind]; i++) {
		found |= strcmp(all.keys[kind][i].name, name) == 0;
		if (cand)
			cand[i] = all.keys[kind][i].name;
	}
	char near[512] = "";
	if (!found && cand)
		sel_closest(name, cand, all.n[kind], near, sizeof near);
	free(cand);
	amd_keys_free(&all);
	if (found)
		return 0;
	return amd_fail(err, "%s '%s' is in no run of %s%s%s; 'amdahl keys' lists them",
			amd_key_kind_name(kind), name, sweep ? "sweep " : "the store",
			sweep ? sweep : "", near);
}

/* On a part of a store (store.h: a remote store's read of some metric
 * keys) a key it lacks is looked for, and its closest names found, in
 * the whole store, as on SQLite. */
int amd_keys_require(struct amd_store *st, const char *sweep, enum amd_key_kind kind,
		     const char *name, struct amd_err *err)
{
	struct amd_store *whole;
	int rc = require_in(st, sweep, kind, name, err);
	if (rc == 0 || amd_store_whole(st, &whole, err) < 0 || whole == st)
		return rc;
	rc = require_in(whole, sweep, kind, name, err);
	amd_store_close(whole);
	return rc;
}
