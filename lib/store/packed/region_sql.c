/* region_sql.c — the region virtual table and the amd_region_pack
 * aggregate (region_sql.h). Compiled into the library, and again with
 * AMD_SQLITE_EXT for the `sqlite3` shell's loadable extension
 * (metric_ext.c). */
#ifdef AMD_SQLITE_EXT
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif
#include "region_sql.h"
#include "packed_vtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the aggregate: rows kept, sorted by id, packed ---- */

struct region_acc {
	struct amd_packed_region *v;
	size_t n, cap;
	int oom;
};

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct region_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
	if (!a || a->oom)
		return;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		struct amd_packed_region *v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			a->oom = 1;
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	struct amd_packed_region *r = &a->v[a->n++];
	r->id = sqlite3_value_int64(argv[0]);
	r->nulls = 0;
	for (int f = 0; f < AMD_RG_FIELDS && f + 1 < argc; f++) {
		int null = sqlite3_value_type(argv[f + 1]) == SQLITE_NULL;
		r->nulls |= (uint32_t)null << f;
		r->v[f] = null ? 0 : sqlite3_value_int64(argv[f + 1]);
	}
}

static int by_id(const void *x, const void *y)
{
	const struct amd_packed_region *a = x, *b = y;
	return (a->id > b->id) - (a->id < b->id);
}

static void pack_final(sqlite3_context *ctx)
{
	struct region_acc *a = sqlite3_aggregate_context(ctx, 0);
	if (!a) {
		sqlite3_result_zeroblob(ctx, 0);
		return;
	}
	unsigned char *out = NULL;
	size_t bytes = 0;
	if (!a->oom) {
		qsort(a->v, a->n, sizeof *a->v, by_id);
		int64_t lo = a->n ? a->v[0].id : 0;
		unsigned char w[AMD_REGION_COLUMNS];
		amd_regions_widths(a->v, a->n, lo, w);
		bytes = amd_regions_packed_size(w, a->n);
		if ((out = sqlite3_malloc64(bytes)))
			amd_regions_pack(a->v, a->n, lo, w, out);
	}
	if (out)
		sqlite3_result_blob64(ctx, out, bytes, sqlite3_free);
	else
		sqlite3_result_error_nomem(ctx);
	free(a->v);
}

/* ---- the table ---- */

enum { RG_ID, RG_SOURCE, RG_RUN, RG_FIRST_FIELD };

/* The pack of the scan's row (rowid, n, regions, source_id, run_id,
 * id_lo): its size checked before room is made for its n records. */
static int rg_unpack(struct amd_packed_cursor *c)
{
	const void *blob;
	size_t len;
	int64_t n = sqlite3_column_int64(c->q, 1);
	char what[96];
	struct amd_err err = {0};
	snprintf(what, sizeof what, "region_pack row %lld",
		 (long long)sqlite3_column_int64(c->q, 0));
	int rc = amd_packed_blob(c, 2, &blob, &len);
	if (rc != SQLITE_OK)
		return rc;
	if (amd_region_pack_check(blob, len, n, what, &err) < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	if ((rc = amd_packed_records(c, (size_t)n, sizeof(struct amd_packed_region))) != SQLITE_OK)
		return rc;
	if (amd_regions_unpack(blob, len, (size_t)n, sqlite3_column_int64(c->q, 5), what, c->v,
			       &err) < 0)
		return amd_packed_vtab_corrupt(&c->base, err.msg);
	c->n = (size_t)n;
	return SQLITE_OK;
}

static int64_t region_at(const void *v, size_t n, int64_t id)
{
	return amd_region_find(v, n, id);
}

/* Region id (argv[0]): the pack loaded first, else the packs whose id
 * range holds it. Other constraints are tested again by SQLite. */
static int rg_find(struct amd_packed_cursor *c, int argc, sqlite3_value **argv)
{
	(void)argc;
	return amd_packed_cursor_find_id(
		c, 1, "SELECT rowid, n, regions, source_id, run_id, id_lo FROM main.region_pack"
		      " WHERE id_lo <= ?1 AND id_hi >= ?1 ORDER BY id_lo DESC", 1, argv, region_at);
}

static void rg_column(struct amd_packed_cursor *c, sqlite3_context *ctx, int col)
{
	const struct amd_packed_region *r = (const struct amd_packed_region *)c->v + c->i;
	int f = col - RG_FIRST_FIELD;
	if (col == RG_ID)
		sqlite3_result_int64(ctx, r->id);
	else if (col == RG_SOURCE)
		sqlite3_result_int64(ctx, c->source);
	else if (col == RG_RUN)
		sqlite3_result_value(ctx, c->run);
	else if (r->nulls >> f & 1)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, r->v[f]);
}

static sqlite3_int64 rg_rowid(const struct amd_packed_cursor *c)
{
	return ((const struct amd_packed_region *)c->v)[c->i].id;
}

/* Equality on id is a look-up (rg_find); on source_id, run_id or name_id
 * (region_pack_name), the matching packs (kept: SQLite tests them again,
 * as rg_find skips them, and a pack holds other names too). */
static const struct amd_packed_use rg_use[] = {
	{RG_ID, SQLITE_INDEX_CONSTRAINT_EQ, 'i', 0, 1, 1, NULL},
	{RG_SOURCE, SQLITE_INDEX_CONSTRAINT_EQ, 's', 1, 0, 100, " AND source_id = ?"},
	{RG_RUN, SQLITE_INDEX_CONSTRAINT_EQ, 'r', 1, 0, 100, " AND run_id = ?"},
	{RG_FIRST_FIELD + AMD_RG_NAME, SQLITE_INDEX_CONSTRAINT_EQ, 'n', 1, 0, 1000,
	 " AND id IN (SELECT pack FROM main.region_pack_name WHERE name_id = ?)"},
	AMD_PACKED_USE_END,
};

static const struct amd_packed_def rg_def = {
	.schema = "CREATE TABLE x(id INTEGER, source_id INTEGER, run_id INTEGER, rank INTEGER,"
		  " device INTEGER, kind_id INTEGER, profiler_id INTEGER, name_id INTEGER,"
		  " file_id INTEGER, line INTEGER, key INTEGER, parent_key INTEGER, calls INTEGER,"
		  " prim_calls INTEGER, self_ns INTEGER, total_ns INTEGER, bytes INTEGER)",
	.scan = "SELECT rowid, n, regions, source_id, run_id, id_lo FROM main.region_pack WHERE 1",
	.order = " ORDER BY id_lo",
	.use = rg_use,
	.has_run = 1,
	.cursor_size = sizeof(struct amd_packed_cursor),
	.unpack = rg_unpack,
	.column = rg_column,
	.rowid = rg_rowid,
	.find_letter = 'i',
	.find = rg_find,
};

int amd_region_sql_register(sqlite3 *db)
{
	int rc = amd_packed_create_module(db, "region", &rg_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "amd_region_pack", 1 + AMD_RG_FIELDS, SQLITE_UTF8,
					     NULL, NULL, pack_step, pack_final);
	return rc;
}
