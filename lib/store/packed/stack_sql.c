/* stack_sql.c — the stack_node and stack_sample virtual tables and the
 * amd_stack_node_pack / amd_stack_sample_pack aggregates (stack_sql.h).
 * Compiled into the library, and again with AMD_SQLITE_EXT for the
 * `sqlite3` shell's loadable extension (metric_ext.c). */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "stack_sql.h"
#include "packed_vtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the aggregates: rows kept, sorted by their first value, packed ---- */

struct pack_row {
	int64_t key;
	union {
		struct amd_packed_node node;
		struct amd_packed_sample sample;
	} u;
};

struct pack_acc {
	struct pack_row *v;
	size_t n, cap;
	int oom;
};

static struct pack_row *acc_add(sqlite3_context *ctx)
{
	struct pack_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
	if (!a || a->oom)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		struct pack_row *v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			a->oom = 1;
			return NULL;
		}
		a->v = v;
		a->cap = cap;
	}
	return &a->v[a->n++];
}

static void node_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct pack_row *r = acc_add(ctx);
	if (r)
		r->u.node = (struct amd_packed_node){sqlite3_value_int64(argv[0]),
						     sqlite3_value_int64(argv[1]),
						     sqlite3_value_int64(argv[2])};
	if (r)
		r->key = r->u.node.id;
}

static void sample_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct pack_row *r = acc_add(ctx);
	if (!r)
		return;
	r->key = sqlite3_value_int64(argv[0]);
	r->u.sample = (struct amd_packed_sample){
		sqlite3_value_int64(argv[1]), sqlite3_value_int64(argv[2]),
		sqlite3_value_int64(argv[3]), sqlite3_value_int64(argv[4]),
		sqlite3_value_double(argv[5])};
}

static int by_key(const void *x, const void *y)
{
	const struct pack_row *a = x, *b = y;
	return (a->key > b->key) - (a->key < b->key);
}

static void pack_final(sqlite3_context *ctx, int nodes)
{
	struct pack_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	size_t bytes = nodes ? AMD_STACK_NODE_BYTES : AMD_STACK_SAMPLE_BYTES;
	unsigned char *out = a->oom ? NULL : sqlite3_malloc64((sqlite3_uint64)a->n * bytes + 1);
	if (out) {
		qsort(a->v, a->n, sizeof *a->v, by_key);
		for (size_t i = 0; i < a->n; i++)
			if (nodes)
				amd_stack_nodes_pack(&a->v[i].u.node, 1, out + i * bytes);
			else
				amd_stack_samples_pack(&a->v[i].u.sample, 1, out + i * bytes);
		sqlite3_result_blob64(ctx, out, (sqlite3_uint64)a->n * bytes, sqlite3_free);
	} else
		sqlite3_result_error_nomem(ctx);
	free(a->v);
}

static void node_final(sqlite3_context *ctx)
{
	pack_final(ctx, 1);
}

static void sample_final(sqlite3_context *ctx)
{
	pack_final(ctx, 0);
}

/* ---- what both tables' cursors share ---- */

struct stack_cursor {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *q;      /* the packs of the scan (NULL: no more) */
	sqlite3_stmt *cached; /* q's statement, kept between filters */
	void *v;              /* the loaded pack's records */
	size_t n, i, end;     /* rows i..end of v are the filter's */
	int64_t pack;         /* the loaded pack's rowid, 0: none */
	int64_t source;
	sqlite3_value *run;   /* stack_sample: the pack's run */
	int eof, nodes;       /* nodes: stack_node's cursor */
};

/* The cursor's statement for sql (one per cursor: its plan, hence its
 * SQL, does not change), reset with argv bound from 1 on. */
static int cursor_query(struct stack_cursor *c, const char *sql, int argc, sqlite3_value **argv)
{
	struct amd_packed_vtab *v = (struct amd_packed_vtab *)c->base.pVtab;
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

/* Loads the pack of q's row (source_id, n, blob, rowid[, run_id]);
 * the pack already loaded is kept. */
static int load_pack(struct stack_cursor *c)
{
	int64_t rowid = sqlite3_column_int64(c->q, 3);
	if (rowid == c->pack && c->v)
		return SQLITE_OK;
	const void *blob = sqlite3_column_blob(c->q, 2);
	size_t len = (size_t)sqlite3_column_bytes(c->q, 2);
	size_t bytes = c->nodes ? AMD_STACK_NODE_BYTES : AMD_STACK_SAMPLE_BYTES;
	size_t size = c->nodes ? sizeof(struct amd_packed_node) : sizeof(struct amd_packed_sample);
	if (len && !blob)
		return SQLITE_NOMEM;
	c->pack = 0;
	free(c->v);
	if (!(c->v = malloc((len / bytes + 1) * size)))
		return SQLITE_NOMEM;
	char what[96];
	struct amd_err err = {0};
	snprintf(what, sizeof what, "%s row %lld", c->nodes ? "stack_node_pack" : "stack_sample_pack",
		 (long long)rowid);
	int rc = c->nodes ? amd_stack_nodes_unpack(blob, len, what, c->v, &err)
			  : amd_stack_samples_unpack(blob, len, what, c->v, &err);
	if (rc < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	if ((int64_t)(len / bytes) != sqlite3_column_int64(c->q, 1)) {
		snprintf(err.msg, sizeof err.msg, "%s: n is not the blob's count of records", what);
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	}
	c->n = len / bytes;
	c->pack = rowid;
	c->source = sqlite3_column_int64(c->q, 0);
	return SQLITE_OK;
}

/* Steps the scan until rows i..end exist, or sets eof. */
static int advance(struct stack_cursor *c)
{
	while (c->i >= c->end) {
		int rc = c->q ? sqlite3_step(c->q) : SQLITE_DONE;
		if (rc == SQLITE_DONE) {
			c->q = NULL;
			c->eof = 1;
			return SQLITE_OK;
		}
		if (rc != SQLITE_ROW || (rc = load_pack(c)) != SQLITE_OK)
			return rc;
		if (!c->nodes) {
			sqlite3_value_free(c->run);
			if (!(c->run = sqlite3_value_dup(sqlite3_column_value(c->q, 4))))
				return SQLITE_NOMEM;
		}
		c->i = 0;
		c->end = c->n;
	}
	return SQLITE_OK;
}

static int stack_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out, int nodes)
{
	int rc = amd_packed_cursor_open(sizeof(struct stack_cursor), out);
	if (rc == SQLITE_OK)
		((struct stack_cursor *)*out)->nodes = nodes;
	return rc;
}

static int stack_close(sqlite3_vtab_cursor *cur)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	sqlite3_finalize(c->cached);
	sqlite3_value_free(c->run);
	free(c->v);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int stack_next(sqlite3_vtab_cursor *cur)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	c->i++;
	return advance(c);
}

static int stack_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct stack_cursor *)cur)->eof;
}

/* Equality constraints on cols (one letter each in letters) as argv
 * 1, 2, ... in that order, omitted; idxStr spells the ones used. */
static int eq_best_index(sqlite3_index_info *info, const int *cols, const char *letters,
			 const char *unique)
{
	char *str = sqlite3_malloc(8);
	if (!str)
		return SQLITE_NOMEM;
	int argv = 0;
	double cost = 1e7;
	for (int u = 0; letters[u]; u++)
		for (int i = 0; i < info->nConstraint; i++) {
			const struct sqlite3_index_constraint *k = &info->aConstraint[i];
			if (!k->usable || k->op != SQLITE_INDEX_CONSTRAINT_EQ ||
			    k->iColumn != cols[u] || info->aConstraintUsage[i].argvIndex)
				continue;
			str[argv] = letters[u];
			info->aConstraintUsage[i].argvIndex = ++argv;
			info->aConstraintUsage[i].omit = 1;
			if (strchr(unique, letters[u])) {
				cost = 1;
				info->estimatedRows = 1;
				info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
			} else
				cost /= 100;
			break;
		}
	str[argv] = '\0';
	info->idxStr = str;
	info->needToFreeIdxStr = 1;
	info->estimatedCost = cost;
	return SQLITE_OK;
}

/* ---- stack_node ---- */

enum { NODE_ID, NODE_PARENT, NODE_FRAME, NODE_SOURCE };

static int sn_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **msg)
{
	return amd_packed_vtab_connect(db, "CREATE TABLE x(id INTEGER, parent_id INTEGER,"
				       " frame_id INTEGER, source_id INTEGER)", out);
}

static int sn_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	static const int cols[] = {NODE_ID, NODE_SOURCE};
	return eq_best_index(info, cols, "is", "i");
}

static int sn_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	return stack_open(v, out, 1);
}

/* Node id (argv[0]), of source argv[1] when given: the pack loaded
 * first, else the packs whose id range holds it. */
static int sn_find(struct stack_cursor *c, int argc, sqlite3_value **argv)
{
	int type = sqlite3_value_numeric_type(argv[0]);
	double d = sqlite3_value_double(argv[0]);
	int64_t id = sqlite3_value_int64(argv[0]);
	int whole = type == SQLITE_INTEGER || (type == SQLITE_FLOAT && d == (double)id);
	int in_source = argc < 2 || sqlite3_value_int64(argv[1]) == c->source;
	int64_t at = whole && c->pack && in_source ? amd_stack_node_find(c->v, c->n, id) : -1;
	if (at < 0 && whole) {
		int rc = cursor_query(c, argc < 2 ? "SELECT source_id, n, nodes, rowid FROM"
					  " main.stack_node_pack WHERE id_hi >= ?1 AND id_lo <= ?1"
					  " ORDER BY id_hi"
					: "SELECT source_id, n, nodes, rowid FROM main.stack_node_pack"
					  " WHERE id_hi >= ?1 AND id_lo <= ?1 AND source_id = ?2"
					  " ORDER BY id_hi", argc, argv);
		while (rc == SQLITE_OK && at < 0 && (rc = sqlite3_step(c->q)) == SQLITE_ROW)
			if ((rc = load_pack(c)) == SQLITE_OK)
				at = amd_stack_node_find(c->v, c->n, id);
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

static int sn_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	c->eof = 0;
	if (idx_str && idx_str[0] == 'i')
		return sn_find(c, argc, argv);
	int rc = cursor_query(c, argc ? "SELECT source_id, n, nodes, rowid FROM"
				       " main.stack_node_pack WHERE source_id = ?1 ORDER BY id_hi"
				     : "SELECT source_id, n, nodes, rowid FROM main.stack_node_pack"
				       " ORDER BY id_hi", argc, argv);
	if (rc != SQLITE_OK)
		return rc;
	c->i = c->end = 0;
	return advance(c);
}

static int sn_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	const struct amd_packed_node *n = (const struct amd_packed_node *)c->v + c->i;
	switch (col) {
	case NODE_ID: sqlite3_result_int64(ctx, n->id); break;
	case NODE_PARENT:
		if (n->parent)
			sqlite3_result_int64(ctx, n->parent);
		else
			sqlite3_result_null(ctx);
		break;
	case NODE_FRAME: sqlite3_result_int64(ctx, n->frame); break;
	default: sqlite3_result_int64(ctx, c->source); break;
	}
	return SQLITE_OK;
}

static int sn_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	*out = ((const struct amd_packed_node *)c->v)[c->i].id;
	return SQLITE_OK;
}

static sqlite3_module sn_module = {
	.xConnect = sn_connect,
	.xBestIndex = sn_best_index,
	.xDisconnect = amd_packed_vtab_disconnect,
	.xOpen = sn_open,
	.xClose = stack_close,
	.xFilter = sn_filter,
	.xNext = stack_next,
	.xEof = stack_eof,
	.xColumn = sn_column,
	.xRowid = sn_rowid,
};

/* ---- stack_sample ---- */

enum { SAMPLE_SOURCE, SAMPLE_RUN, SAMPLE_LEAF, SAMPLE_PROCESS, SAMPLE_THREAD, SAMPLE_COUNT,
       SAMPLE_SECONDS };

static int ss_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **msg)
{
	return amd_packed_vtab_connect(db, "CREATE TABLE x(source_id INTEGER, run_id INTEGER,"
				       " leaf_id INTEGER, process_id INTEGER, thread_id INTEGER,"
				       " samples INTEGER, seconds REAL)", out);
}

static int ss_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	static const int cols[] = {SAMPLE_SOURCE, SAMPLE_RUN};
	return eq_best_index(info, cols, "sr", "");
}

static int ss_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	return stack_open(v, out, 0);
}

static int ss_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	char sql[200];
	size_t len = (size_t)snprintf(sql, sizeof sql, "SELECT source_id, n, samples, rowid,"
				      " run_id FROM main.stack_sample_pack WHERE 1");
	for (int i = 0; idx_str && idx_str[i] && len < sizeof sql; i++)
		len += (size_t)snprintf(sql + len, sizeof sql - len, "%s",
					idx_str[i] == 's' ? " AND source_id = ?" : " AND run_id = ?");
	if (len < sizeof sql)
		snprintf(sql + len, sizeof sql - len, " ORDER BY rowid");
	int rc = cursor_query(c, sql, argc, argv);
	if (rc != SQLITE_OK)
		return rc;
	c->eof = 0;
	c->i = c->end = 0;
	return advance(c);
}

static void result_label(sqlite3_context *ctx, int64_t id)
{
	if (id)
		sqlite3_result_int64(ctx, id);
	else
		sqlite3_result_null(ctx);
}

static int ss_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	const struct amd_packed_sample *s = (const struct amd_packed_sample *)c->v + c->i;
	switch (col) {
	case SAMPLE_SOURCE: sqlite3_result_int64(ctx, c->source); break;
	case SAMPLE_RUN: sqlite3_result_value(ctx, c->run); break;
	case SAMPLE_LEAF: sqlite3_result_int64(ctx, s->leaf); break;
	case SAMPLE_PROCESS: result_label(ctx, s->process); break;
	case SAMPLE_THREAD: result_label(ctx, s->thread); break;
	case SAMPLE_COUNT: sqlite3_result_int64(ctx, s->samples); break;
	default: sqlite3_result_double(ctx, s->seconds); break;
	}
	return SQLITE_OK;
}

static int ss_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	struct stack_cursor *c = (struct stack_cursor *)cur;
	*out = (sqlite3_int64)((uint64_t)c->pack << 32 | (uint64_t)c->i);
	return SQLITE_OK;
}

static sqlite3_module ss_module = {
	.xConnect = ss_connect,
	.xBestIndex = ss_best_index,
	.xDisconnect = amd_packed_vtab_disconnect,
	.xOpen = ss_open,
	.xClose = stack_close,
	.xFilter = ss_filter,
	.xNext = stack_next,
	.xEof = stack_eof,
	.xColumn = ss_column,
	.xRowid = ss_rowid,
};

int amd_stack_sql_register(sqlite3 *db)
{
	int rc = sqlite3_create_module(db, "stack_node", &sn_module, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_module(db, "stack_sample", &ss_module, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_stack_node_pack", 3, SQLITE_UTF8, NULL, NULL,
					     node_step, node_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_stack_sample_pack", 6, SQLITE_UTF8, NULL,
					     NULL, sample_step, sample_final);
	return rc;
}
