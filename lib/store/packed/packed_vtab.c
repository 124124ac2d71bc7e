/* packed_vtab.c — the packed virtual tables' one skeleton (packed_vtab.h):
 * the sqlite3_module every packed table registers, with its table's
 * struct amd_packed_def as the module's client data. Compiled into the
 * library, and again with AMD_SQLITE_EXT for the `sqlite3` shell's
 * loadable extension (metric_ext.c). */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "packed_vtab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

struct packed_vtab {
	sqlite3_vtab base;
	sqlite3 *db; /* the connection the cursors query */
	const struct amd_packed_def *def;
};

static int pv_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **msg)
{
	const struct amd_packed_def *def = aux;
	int rc = sqlite3_declare_vtab(db, def->schema);
	if (rc != SQLITE_OK)
		return rc;
	struct packed_vtab *v = sqlite3_malloc(sizeof *v);
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->db = db;
	v->def = def;
	*out = &v->base;
	return SQLITE_OK;
}

static int pv_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

/* The def's constraints, in its order, as argv 1, 2, ...; idxStr spells
 * the ones used, one letter each. */
static int pv_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct amd_packed_use *use = ((struct packed_vtab *)vt)->def->use;
	size_t uses = 0;
	while (use[uses].letter)
		uses++;
	char *str = sqlite3_malloc64(uses + 1);
	if (!str)
		return SQLITE_NOMEM;
	int argv = 0, bits = 0;
	double cost = 1e7;
	for (size_t u = 0; u < uses && u < 30; u++)
		for (int i = 0; i < info->nConstraint; i++) {
			const struct sqlite3_index_constraint *k = &info->aConstraint[i];
			if (!k->usable || k->op != use[u].op || k->iColumn != use[u].col ||
			    info->aConstraintUsage[i].argvIndex)
				continue;
			str[argv] = use[u].letter;
			bits |= 1 << u;
			info->aConstraintUsage[i].argvIndex = ++argv;
			info->aConstraintUsage[i].omit = !use[u].keep;
			if (use[u].unique) {
				cost = 1;
				info->estimatedRows = 1;
				info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
			} else
				cost /= use[u].divide;
			break;
		}
	str[argv] = '\0';
	if (((struct packed_vtab *)vt)->def->plan_by_number) {
		sqlite3_free(str);
		info->idxNum = bits;
	} else {
		info->idxStr = str;
		info->needToFreeIdxStr = 1;
	}
	info->estimatedCost = cost;
	return SQLITE_OK;
}

static int pv_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	const struct amd_packed_def *def = ((struct packed_vtab *)vt)->def;
	struct amd_packed_cursor *c = sqlite3_malloc64(def->cursor_size);
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, def->cursor_size);
	c->def = def;
	*out = &c->base;
	return SQLITE_OK;
}

static int pv_close(sqlite3_vtab_cursor *cur)
{
	struct amd_packed_cursor *c = (struct amd_packed_cursor *)cur;
	sqlite3_finalize(c->cached);
	if (c->def->clear)
		c->def->clear(c);
	sqlite3_value_free(c->run);
	free(c->v);
	sqlite3_free(c);
	return SQLITE_OK;
}

int amd_packed_cursor_query(struct amd_packed_cursor *c, const char *sql, int argc,
			    sqlite3_value **argv)
{
	struct packed_vtab *v = (struct packed_vtab *)c->base.pVtab;
	if (c->cached && strcmp(sqlite3_sql(c->cached), sql) != 0) {
		sqlite3_finalize(c->cached);
		c->cached = NULL;
	}
	if (!c->cached) {
		int rc = sqlite3_prepare_v3(v->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &c->cached,
					    NULL);
		if (rc != SQLITE_OK)
			return rc;
	}
	sqlite3_reset(c->cached);
	sqlite3_clear_bindings(c->cached);
	for (int i = 0; i < argc; i++)
		sqlite3_bind_value(c->cached, i + 1, argv[i]);
	c->q = c->cached;
	return SQLITE_OK;
}

int amd_packed_cursor_load(struct amd_packed_cursor *c)
{
	int64_t rowid = sqlite3_column_int64(c->q, 0);
	if (!c->loaded || rowid != c->pack) {
		c->loaded = 0;
		int rc = c->def->unpack(c);
		if (rc != SQLITE_OK)
			return rc;
		c->pack = rowid;
		c->loaded = 1;
	}
	c->source = sqlite3_column_int64(c->q, 3);
	if (c->def->has_run) {
		sqlite3_value_free(c->run);
		if (!(c->run = sqlite3_value_dup(sqlite3_column_value(c->q, 4))))
			return SQLITE_NOMEM;
	}
	return c->def->keys ? c->def->keys(c) : SQLITE_OK;
}

int amd_packed_cursor_find_id(struct amd_packed_cursor *c, int in_loaded, const char *sql,
			      int argc, sqlite3_value **argv, amd_packed_find_fn find)
{
	int type = sqlite3_value_numeric_type(argv[0]);
	double d = sqlite3_value_double(argv[0]);
	int64_t id = sqlite3_value_int64(argv[0]);
	int whole = type == SQLITE_INTEGER || (type == SQLITE_FLOAT && d == (double)id);
	int64_t at = whole && c->loaded && in_loaded ? find(c->v, c->n, id) : -1;
	if (at < 0 && whole) {
		int rc = amd_packed_cursor_query(c, sql, argc, argv);
		while (rc == SQLITE_OK && at < 0 && (rc = sqlite3_step(c->q)) == SQLITE_ROW)
			if ((rc = amd_packed_cursor_load(c)) == SQLITE_OK)
				at = find(c->v, c->n, id);
		sqlite3_reset(c->q);
		if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
			return rc;
	}
	c->q = NULL;
	c->i = at < 0 ? 0 : (size_t)at;
	c->end = at < 0 ? 0 : (size_t)at + 1;
	c->eof = at < 0;
	return SQLITE_OK;
}

/* Steps the scan until records i..end exist, or sets eof. */
static int advance(struct amd_packed_cursor *c)
{
	while (c->i >= c->end) {
		int rc = c->q ? sqlite3_step(c->q) : SQLITE_DONE;
		if (rc == SQLITE_DONE) {
			c->q = NULL;
			c->eof = 1;
			return SQLITE_OK;
		}
		if (rc != SQLITE_ROW || (rc = amd_packed_cursor_load(c)) != SQLITE_OK)
			return rc;
		c->i = 0;
		c->end = c->n;
	}
	return SQLITE_OK;
}

/* The def's scan with the terms idxStr spells (or idxNum's bits
 * name), then its order. */
static int scan_sql(const struct amd_packed_def *def, int idx, const char *idx_str, char *sql,
		    size_t cap)
{
	size_t len = (size_t)snprintf(sql, cap, "%s", def->scan);
	for (int i = 0; def->plan_by_number && def->use[i].letter && len < cap; i++)
		if (idx & (1 << i))
			len += (size_t)snprintf(sql + len, cap - len, "%s", def->use[i].sql);
	for (int i = 0; idx_str && idx_str[i] && len < cap; i++) {
		const struct amd_packed_use *u = def->use;
		while (u->letter && u->letter != idx_str[i])
			u++;
		if (!u->letter)
			return SQLITE_INTERNAL;
		len += (size_t)snprintf(sql + len, cap - len, "%s", u->sql);
	}
	if (len < cap)
		len += (size_t)snprintf(sql + len, cap - len, "%s", def->order);
	return len < cap ? SQLITE_OK : SQLITE_TOOBIG;
}

static int pv_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	struct amd_packed_cursor *c = (struct amd_packed_cursor *)cur;
	const struct amd_packed_def *def = c->def;
	c->eof = 0;
	c->row = 0;
	if (def->find && idx_str && idx_str[0] == def->find_letter)
		return def->find(c, argc, argv);
	char sql[512];
	int rc = scan_sql(def, idx, idx_str, sql, sizeof sql);
	if (rc == SQLITE_OK)
		rc = amd_packed_cursor_query(c, sql, argc, argv);
	if (rc != SQLITE_OK)
		return rc;
	c->i = c->end = 0;
	return advance(c);
}

static int pv_next(sqlite3_vtab_cursor *cur)
{
	struct amd_packed_cursor *c = (struct amd_packed_cursor *)cur;
	c->i++;
	c->row++;
	return advance(c);
}

static int pv_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct amd_packed_cursor *)cur)->eof;
}

static int pv_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct amd_packed_cursor *c = (struct amd_packed_cursor *)cur;
	c->def->column(c, ctx, col);
	return SQLITE_OK;
}

static int pv_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	struct amd_packed_cursor *c = (struct amd_packed_cursor *)cur;
	*out = c->def->rowid ? c->def->rowid(c) : c->row;
	return SQLITE_OK;
}

static sqlite3_module pv_module = {
	.iVersion = 0,
	.xConnect = pv_connect,
	.xBestIndex = pv_best_index,
	.xDisconnect = pv_disconnect,
	.xOpen = pv_open,
	.xClose = pv_close,
	.xFilter = pv_filter,
	.xNext = pv_next,
	.xEof = pv_eof,
	.xColumn = pv_column,
	.xRowid = pv_rowid,
};

int amd_packed_create_module(sqlite3 *db, const char *name, const struct amd_packed_def *def)
{
	return sqlite3_create_module(db, name, &pv_module, (void *)def);
}

int amd_packed_blob(struct amd_packed_cursor *c, int col, const void **blob, size_t *len)
{
	*blob = sqlite3_column_blob(c->q, col);
	*len = (size_t)sqlite3_column_bytes(c->q, col);
	return *len && !*blob ? SQLITE_NOMEM : SQLITE_OK;
}

int amd_packed_records(struct amd_packed_cursor *c, size_t count, size_t size)
{
	free(c->v);
	c->v = malloc((count + 1) * size);
	return c->v ? SQLITE_OK : SQLITE_NOMEM;
}

int amd_packed_unpack_counted(struct amd_packed_cursor *c, const char *table, size_t size,
			      amd_packed_unpack_fn *unpack)
{
	const void *blob;
	size_t len;
	int64_t n = sqlite3_column_int64(c->q, 1);
	int rc = amd_packed_blob(c, 2, &blob, &len);
	if (rc == SQLITE_OK)
		rc = amd_packed_records(c, n >= 0 && (uint64_t)n <= len ? (size_t)n : 0, size);
	if (rc != SQLITE_OK)
		return rc;
	char what[96];
	struct amd_err err = {0};
	snprintf(what, sizeof what, "%s %lld", table, (long long)sqlite3_column_int64(c->q, 0));
	if (unpack(blob, len, n, what, c->v, &err) < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	c->n = (size_t)n;
	return SQLITE_OK;
}

int amd_packed_vtab_corrupt(sqlite3_vtab_cursor *cur, const char *msg)
{
	sqlite3_vtab *v = cur->pVtab;
	sqlite3_free(v->zErrMsg);
	v->zErrMsg = sqlite3_mprintf("%s", msg);
	return SQLITE_CORRUPT;
}

void amd_packed_result_double(sqlite3_context *ctx, double v)
{
	if (isnan(v))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, v);
}

void *amd_packed_acc_add(sqlite3_context *ctx, size_t size)
{
	struct amd_packed_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
	if (!a || a->oom)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		void *v = realloc(a->v, cap * size);
		if (!v) {
			a->oom = 1;
			return NULL;
		}
		a->v = v;
		a->cap = cap;
	}
	return (char *)a->v + size * a->n++;
}
