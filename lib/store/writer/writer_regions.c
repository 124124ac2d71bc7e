/* writer_regions.c — the unit writer's regions (writer_regions.h): a
 * reader's regions held in memory and written as region_pack rows (one
 * per stretch of the unit sharing a run, at most WRITER_REGION_PACK
 * regions; region_pack.h; its caller edges: writer_calls.c), and
 * a region's detail (a trace op's category, shortest and longest call,
 * place among the trace's ops) as a row of region_detail, held and
 * written many to a statement (row_batch.h). Every profiler's regions
 * come from its reader (lib/model/region.h); the store derives none. */
#include "writer_regions.h"
#include "writer_names.h"
#include "writer_profile.h"
#include "writer_sink.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "stmt_cache.h"

/* The most regions one pack holds (a reader's unit may have 100,000s). */
#define WRITER_REGION_PACK 65536
static struct row_table region_detail_table = ROW_TABLE(
	"region_detail(region_id, category_id, min_ns, max_ns, seq)", 5);

/* The id of the unit's next region: one above the table's largest,
 * counted from the unit's first region (the unit holds the store's
 * write transaction), the id SQLite would give it; so a region's detail
 * row can name it while both wait in their batches. */
static int64_t next_region_id(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->next_region == 0) {
		sqlite3_stmt *q = amd_store_prepare(ss->st,
			"SELECT COALESCE(max(id_hi), 0) FROM region_pack", err);
		if (!q)
			return -1;
		int rc = sqlite3_step(q);
		int64_t top = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
		sqlite3_finalize(q);
		if (top < 0)
			return writer_sql_fail(ss, err);
		if (top == INT64_MAX)
			return amd_fail(err, "%s: cannot number new regions", ss->path);
		ss->next_region = top + 1;
	}
	return ss->next_region++;
}

/* Region id's detail row. */
static int region_detail(struct amd_store_sink *ss, int64_t id, const struct amd_region_detail *d,
			 struct amd_err *err)
{
	int64_t cid = d->category ? amd_store_intern(ss->st, d->category, err) : 0;
	if (cid < 0)
		return -1;
	const struct row_cell row[] = {
		row_int(id), row_int_or_null(cid), row_int(d->min_ns), row_int(d->max_ns),
		row_int(d->seq),
	};
	return writer_hold(ss, &ss->region_detail_rows, &region_detail_table, row, err);
}

static int by_name(const void *x, const void *y)
{
	int64_t a = ((const struct amd_packed_region *)x)->v[AMD_RG_NAME];
	int64_t b = ((const struct amd_packed_region *)y)->v[AMD_RG_NAME];
	return (a > b) - (a < b);
}

static struct row_table name_table = ROW_TABLE("region_pack_name(name_id, pack)", 2);

/* The names of pack `pack` (its n regions v, written: reordered here)
 * into region_pack_name, each once, many rows a statement (row_batch.h:
 * a py-spy file has a region, so a row, per function). */
static int pack_names(struct amd_store_sink *ss, int64_t pack, struct amd_packed_region *v,
		      size_t n, struct amd_err *err)
{
	qsort(v, n, sizeof *v, by_name);
	struct row_batch rows = {.table = &name_table, .path = ss->path};
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (i && v[i].v[AMD_RG_NAME] == v[i - 1].v[AMD_RG_NAME])
			continue;
		struct row_cell row[] = {row_int(v[i].v[AMD_RG_NAME]), row_int(pack)};
		rc = row_batch_add(ss->st, &rows, row, err);
	}
	if (rc == 0)
		rc = row_batch_flush(ss->st, &rows, err);
	row_batch_free(&rows);
	return rc;
}

int writer_regions_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->n_regions == 0)
		return 0;
	const struct amd_packed_region *v = ss->regions;
	unsigned char w[AMD_REGION_COLUMNS];
	amd_regions_widths(v, ss->n_regions, v[0].id, w);
	size_t n = ss->n_regions, bytes = amd_regions_packed_size(w, n);
	unsigned char *blob = malloc(bytes);
	if (!blob)
		return amd_fail(err, "%s: out of memory", ss->path);
	amd_regions_pack(v, n, v[0].id, w, blob);
	static const char sql[] = "INSERT INTO region_pack(source_id, run_id, n, id_lo, id_hi,"
				  " regions) VALUES(?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *q = amd_store_cached(ss->st, sql, err);
	if (!q) {
		free(blob);
		return -1;
	}
	sqlite3_bind_int64(q, 1, ss->source_id);
	if (ss->region_run > 0)
		sqlite3_bind_int64(q, 2, ss->region_run);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)n);
	sqlite3_bind_int64(q, 4, v[0].id);
	sqlite3_bind_int64(q, 5, v[n - 1].id);
	sqlite3_bind_blob64(q, 6, blob, bytes, free);
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	ss->n_regions = 0;
	if (rc != SQLITE_DONE)
		return writer_sql_fail(ss, err);
	return pack_names(ss, sqlite3_last_insert_rowid(ss->st->db), ss->regions, n, err);
}

void writer_regions_free(struct amd_store_sink *ss)
{
	free(ss->regions);
	ss->regions = NULL;
	ss->n_regions = ss->cap_regions = 0;
}

/* Room for one more region of the unit's current run: the held ones
 * written first when they are of another run or a full pack. */
static struct amd_packed_region *region_slot(struct amd_store_sink *ss, struct amd_err *err)
{
	int64_t run = ss->run_id > 0 ? ss->run_id : 0;
	if (ss->n_regions && (ss->region_run != run || ss->n_regions == WRITER_REGION_PACK) &&
	    writer_regions_flush(ss, err) < 0)
		return NULL;
	ss->region_run = run;
	if (amd_grow(&ss->regions, ss->n_regions, &ss->cap_regions, sizeof *ss->regions, 256) < 0) {
		amd_fail(err, "%s: out of memory", ss->path);
		return NULL;
	}
	return &ss->regions[ss->n_regions++];
}

/* v as a field: NULL (a bit of nulls) when the source lacks it. */
static void field(struct amd_packed_region *g, enum amd_region_field f, int64_t v, int lacks)
{
	g->v[f] = lacks ? 0 : v;
	g->nulls |= (uint32_t)(lacks != 0) << f;
}

/* s's dict id, m's when s is the text m last held (a strcmp, not the
 * hash and look-up of amd_store_intern: a tenth of a py-spy file's
 * region writing was interning "function" and "py-spy" again). The ids
 * stay valid while the sink lives: its unit holds the transaction. */
static int64_t memo_intern(struct amd_store_sink *ss, struct writer_memo *m, const char *s,
			   struct amd_err *err)
{
	if (s && m->id > 0 && strcmp(s, m->s) == 0)
		return m->id;
	int64_t id = amd_store_intern(ss->st, s, err);
	size_t n = id > 0 ? strlen(s) : sizeof m->s;
	m->id = n < sizeof m->s ? id : 0;
	if (m->id)
		memcpy(m->s, s, n + 1);
	return id;
}

int writer_region(struct amd_sink *s, const struct amd_region_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	int64_t nid = writer_name_id(ss, r->name); /* added by writer_names, else interned */
	if (nid <= 0)
		nid = amd_store_intern(ss->st, r->name, err);
	int64_t kid = nid < 0 ? -1 : memo_intern(ss, &ss->kind_memo, r->kind, err);
	int64_t pid = kid < 0 ? -1 : memo_intern(ss, &ss->profiler_memo, r->profiler, err);
	int64_t fid = pid < 0 ? -1 : r->file ? amd_store_intern(ss->st, r->file, err) : 0;
	int64_t id = fid < 0 ? -1 : next_region_id(ss, err);
	struct amd_packed_region *g = id < 0 ? NULL : region_slot(ss, err);
	if (!g)
		return -1;
	g->id = id;
	g->nulls = 0;
	/* as row_int_opt (-1: NULL) and row_int_or_null (0: NULL) wrote them */
	field(g, AMD_RG_RANK, r->rank, r->rank < 0);
	field(g, AMD_RG_DEVICE, r->device, r->device < 0);
	field(g, AMD_RG_KIND, kid, 0);
	field(g, AMD_RG_PROFILER, pid, 0);
	field(g, AMD_RG_NAME, nid, 0);
	field(g, AMD_RG_FILE, fid, fid == 0);
	field(g, AMD_RG_LINE, r->line, r->line == 0);
	field(g, AMD_RG_KEY, r->key, r->key == 0);
	field(g, AMD_RG_PARENT, r->parent_key, r->parent_key == 0);
	field(g, AMD_RG_CALLS, r->calls, r->calls < 0);
	field(g, AMD_RG_PRIM, r->prim_calls, r->prim_calls < 0);
	field(g, AMD_RG_SELF, r->self_ns, r->self_ns < 0);
	field(g, AMD_RG_TOTAL, r->total_ns, r->total_ns < 0);
	field(g, AMD_RG_BYTES, r->bytes, r->bytes < 0);
	return r->detail ? region_detail(ss, id, r->detail, err) : 0;
}
