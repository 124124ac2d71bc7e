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

static struct pack_row *acc_add(sqlite3_context *ctx)
{
	return amd_packed_acc_add(ctx, sizeof(struct pack_row));
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
	struct amd_packed_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	size_t bytes = nodes ? AMD_STACK_NODE_BYTES : AMD_STACK_SAMPLE_BYTES;
	unsigned char *out = a->oom ? NULL : sqlite3_malloc64((sqlite3_uint64)a->n * bytes + 1);
	if (out) {
		struct pack_row *rows = a->v;
		qsort(rows, a->n, sizeof *rows, by_key);
		for (size_t i = 0; i < a->n; i++)
			if (nodes)
				amd_stack_nodes_pack(&rows[i].u.node, 1, out + i * bytes);
			else
				amd_stack_samples_pack(&rows[i].u.sample, 1, out + i * bytes);
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

/* ---- the tables: a pack's records unpacked whole ---- */

/* The pack of the scan's row (rowid, n, blob, source_id[, run_id]):
 * nodes or samples. */
static int unpack(struct amd_packed_cursor *c, int nodes)
{
	const void *blob;
	size_t len;
	size_t bytes = nodes ? AMD_STACK_NODE_BYTES : AMD_STACK_SAMPLE_BYTES;
	int rc = amd_packed_blob(c, 2, &blob, &len);
	if (rc == SQLITE_OK)
		rc = amd_packed_records(c, len / bytes, nodes ? sizeof(struct amd_packed_node)
							       : sizeof(struct amd_packed_sample));
	if (rc != SQLITE_OK)
		return rc;
	char what[96];
	struct amd_err err = {0};
	snprintf(what, sizeof what, "%s row %lld", nodes ? "stack_node_pack" : "stack_sample_pack",
		 (long long)sqlite3_column_int64(c->q, 0));
	rc = nodes ? amd_stack_nodes_unpack(blob, len, what, c->v, &err)
		   : amd_stack_samples_unpack(blob, len, what, c->v, &err);
	if (rc < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	if ((int64_t)(len / bytes) != sqlite3_column_int64(c->q, 1)) {
		snprintf(err.msg, sizeof err.msg, "%s: n is not the blob's count of records", what);
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	}
	c->n = len / bytes;
	return SQLITE_OK;
}

static void result_label(sqlite3_context *ctx, int64_t id)
{
	if (id)
		sqlite3_result_int64(ctx, id);
	else
		sqlite3_result_null(ctx);
}

/* ---- stack_node ---- */

enum { NODE_ID, NODE_PARENT, NODE_FRAME, NODE_SOURCE };

static int sn_unpack(struct amd_packed_cursor *c)
{
	return unpack(c, 1);
}

static int64_t node_at(const void *v, size_t n, int64_t id)
{
	return amd_stack_node_find(v, n, id);
}

/* Node id (argv[0]), of source argv[1] when given: the pack loaded
 * first, else the packs whose id range holds it. */
static int sn_find(struct amd_packed_cursor *c, int argc, sqlite3_value **argv)
{
	int in_source = argc < 2 || sqlite3_value_int64(argv[1]) == c->source;
	return amd_packed_cursor_find_id(
		c, in_source, argc < 2 ? "SELECT rowid, n, nodes, source_id FROM main.stack_node_pack"
					 " WHERE id_hi >= ?1 AND id_lo <= ?1 ORDER BY id_hi"
				       : "SELECT rowid, n, nodes, source_id FROM main.stack_node_pack"
					 " WHERE id_hi >= ?1 AND id_lo <= ?1 AND source_id = ?2"
					 " ORDER BY id_hi", argc, argv, node_at);
}

static void sn_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
	const struct amd_packed_node *n = (const struct amd_packed_node *)c->v + c->i;
	switch (col) {
	case NODE_ID: sqlite3_result_int64(ctx, n->id); break;
	case NODE_PARENT: result_label(ctx, n->parent); break;
	case NODE_FRAME: sqlite3_result_int64(ctx, n->frame); break;
	default: sqlite3_result_int64(ctx, c->source); break;
	}
}

static sqlite3_int64 sn_rowid(const struct amd_packed_cursor *c)
{
	return ((const struct amd_packed_node *)c->v)[c->i].id;
}

/* Equality on id is a look-up (sn_find); on source_id, that source's
 * packs. */
static const struct amd_packed_use sn_use[] = {
	{NODE_ID, SQLITE_INDEX_CONSTRAINT_EQ, 'i', 0, 1, 1, NULL},
	AMD_PACKED_EQ(NODE_SOURCE, 's', "source_id"),
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def sn_def = {
	.schema = "CREATE TABLE x(id INTEGER, parent_id INTEGER, frame_id INTEGER,"
		  " source_id INTEGER)",
	.scan = "SELECT rowid, n, nodes, source_id FROM main.stack_node_pack WHERE 1",
	.order = " ORDER BY id_hi",
	.use = sn_use,
	.cursor_size = sizeof(struct amd_packed_cursor),
	.unpack = sn_unpack,
	.column = sn_column,
	.rowid = sn_rowid,
	.find_letter = 'i',
	.find = sn_find,
};

/* ---- stack_sample ---- */

enum { SAMPLE_SOURCE, SAMPLE_RUN, SAMPLE_LEAF, SAMPLE_PROCESS, SAMPLE_THREAD, SAMPLE_COUNT,
       SAMPLE_SECONDS };

static int ss_unpack(struct amd_packed_cursor *c)
{
	return unpack(c, 0);
}

static void ss_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
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
}

/* The pack's rowid, then the sample's place: file order. */
static sqlite3_int64 ss_rowid(const struct amd_packed_cursor *c)
{
	return (sqlite3_int64)((uint64_t)c->pack << 32 | (uint64_t)c->i);
}

static const struct amd_packed_use ss_use[] = {
	AMD_PACKED_EQ(SAMPLE_SOURCE, 's', "source_id"),
	AMD_PACKED_EQ(SAMPLE_RUN, 'r', "run_id"),
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def ss_def = {
	.schema = "CREATE TABLE x(source_id INTEGER, run_id INTEGER, leaf_id INTEGER,"
		  " process_id INTEGER, thread_id INTEGER, samples INTEGER, seconds REAL)",
	.scan = "SELECT rowid, n, samples, source_id, run_id FROM main.stack_sample_pack WHERE 1",
	.order = " ORDER BY rowid",
	.use = ss_use,
	.has_run = 1,
	.cursor_size = sizeof(struct amd_packed_cursor),
	.unpack = ss_unpack,
	.column = ss_column,
	.rowid = ss_rowid,
};

int amd_stack_sql_register(sqlite3 *db)
{
	int rc = amd_packed_create_module(db, "stack_node", &sn_def);
	if (rc == SQLITE_OK)
		rc = amd_packed_create_module(db, "stack_sample", &ss_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_stack_node_pack", 3, SQLITE_UTF8, NULL, NULL,
					     node_step, node_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_stack_sample_pack", 6, SQLITE_UTF8, NULL,
					     NULL, sample_step, sample_final);
	return rc;
}
