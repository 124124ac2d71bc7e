/* regions.c — the SQL behind regions.h: naming a run, file or sweep;
 * the top regions of a selection (grouped per rank in a run or file,
 * per configuration in a sweep, with each region's share of its
 * profiler's and kind's self time; a selector's runs as a sweep's); one
 * region across a sweep's runs.
 * A run's child workers (itwinai) count as the run.
 *
 * amd_regions_top of a sweep by name: per configuration (strategy, n) and region (profiler, kind, name, file,
 * line), the mean per run of the sum over its ranks. The runs of the
 * sweep come from SQL; the region rows (millions in a big sweep) from one
 * plain scan of the table, summed in a hash table and ranked in C — the
 * same numbers as the SQL GROUP BY / window query kept for runs,
 * files and selectors, at a fraction of its cost (no sorter over
 * every row). Ties in self and total time are ranked by the profiler,
 * kind, name and file texts and the line. */
#include "regions.h"
#include "sqlite_int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hmap.h"
#include "region_join.h"
#include "region_rows.h"
#include "region_run.h"
#include "region_scan.h"
#include "run_sources.h"
#include "selector.h"
#include "sweep_keys.h"

const char *const amd_regions_tables[] = {"dict", "sweep", "run", "param", "tag",
					  "metric_point", "trace", "trace_step", "region",
					  "op_average", "stack_sample", "gpu_sample"};
const size_t amd_regions_table_count = sizeof amd_regions_tables / sizeof *amd_regions_tables;

/* ---- resolving WHAT ---- */

/* The runs of a name, those with regions (their own or a child
 * worker's) first, then the newest. Whether a run has regions is asked
 * of region_pack's index on run_id (a pack holds n > 0 regions of one
 * run), not of the region virtual table: an OR of two run ids is no
 * constraint it can use, so each run of the name scanned every region. */
static const char run_by_name[] =
	"SELECT id FROM run WHERE name=?1 ORDER BY"
	" (EXISTS(SELECT 1 FROM region_pack g WHERE g.run_id=run.id AND g.n > 0)"
	" OR EXISTS(SELECT 1 FROM run c JOIN region_pack g ON g.run_id=c.id"
	" WHERE c.parent_ext_id=run.ext_id AND g.n > 0)) DESC, start_ms DESC";

/* The run named what (run_by_name, which reads region_pack), 0 none, -1. */
static int64_t run_named(struct amd_store *st, const char *what, struct amd_err *err)
{
	return amd_store_first_id(st, run_by_name, what, NULL, err);
}

int amd_region_resolve(struct amd_store *st, const char *what, struct amd_region_sel *sel,
		       struct amd_err *err)
{
	memset(sel, 0, sizeof *sel);
	snprintf(sel->label, sizeof sel->label, "%s", what);
	char real[PATH_MAX];
	const char *path = realpath(what, real) ? real : what;
	if ((sel->run_id = amd_store_first_id(st, "SELECT id FROM run WHERE ext_id=?1",
					      what, NULL, err)) ||
	    (sel->sweep_id = amd_store_first_id(st, "SELECT id FROM sweep WHERE name=?1",
						what, NULL, err)) ||
	    (sel->source_id = amd_store_first_id(st, "SELECT id FROM source WHERE path=?1",
						 what, NULL, err)) ||
	    (sel->source_id = amd_store_first_id(st, "SELECT id FROM source WHERE path=?1",
						 path, NULL, err)) ||
	    (sel->run_id = run_named(st, what, err))) {
		if (sel->run_id < 0 || sel->sweep_id < 0 || sel->source_id < 0)
			return -1;
		return 0;
	}
	char near[512];
	amd_run_names_closest(st, what, 1, near, sizeof near);
	return amd_fail(err, "%s: no run (id or name), sweep or ingested file of that name in"
			" the store%s", what, near);
}

int amd_region_resolve_select(struct amd_store *st, const char *what,
			      struct amd_region_sel *sel, struct amd_err *err)
{
	if (!amd_store_selector_is(st, what))
		return amd_region_resolve(st, what, sel, err);
	memset(sel, 0, sizeof *sel);
	snprintf(sel->label, sizeof sel->label, "%s", what);
	return amd_selected_runs_json(st, what, &sel->runs, err);
}

void amd_region_sel_free(struct amd_region_sel *sel)
{
	free(sel->runs);
	sel->runs = NULL;
}

int amd_region_sel_per_config(const struct amd_region_sel *sel)
{
	return sel->sweep_id > 0 || sel->runs;
}

/* ---- the top regions ---- */

/* The selection's condition on region g (joined with its run ru). */
static const char *sel_where(const struct amd_region_sel *sel)
{
	if (sel->runs)
		return "coalesce(pa.id, ru.id) IN (SELECT value FROM json_each(?1))";
	if (sel->sweep_id > 0)
		return "ru.sweep_id=?1";
	if (sel->source_id > 0)
		return "g.source_id=?1";
	return "(g.run_id=?1 OR ru.parent_ext_id=(SELECT ext_id FROM run WHERE id=?1))";
}

static int64_t sel_id(const struct amd_region_sel *sel)
{
	return sel->sweep_id > 0 ? sel->sweep_id : sel->source_id > 0 ? sel->source_id
								  : sel->run_id;
}

/* Ties in self and total time: by the profiler, kind, name and file
 * texts and the line (sweep_top's order) — not by dict ids, which
 * depend on the order the files were ingested in. Read per grouped row. */
#define TEXT_ORDER "(SELECT s FROM dict WHERE id = profiler_id)," \
	" (SELECT s FROM dict WHERE id = kind_id), (SELECT s FROM dict WHERE id = name_id)," \
	" (SELECT s FROM dict WHERE id = file_id), line"

/* Regions of a run or file: summed per rank and device. */
static const char top_run_sql[] =
	"WITH r AS (SELECT g.profiler_id, g.kind_id, g.name_id, g.file_id, g.line,"
	" coalesce(g.rank, -1) AS rank, coalesce(g.device, -1) AS device,"
	" count(DISTINCT coalesce(pa.id, ru.id)) AS runs, sum(g.calls) AS calls,"
	" sum(g.prim_calls) AS prim, sum(g.self_ns) AS self, sum(g.total_ns) AS total,"
	" sum(g.bytes) AS bytes, NULL AS strategy, -1 AS n"
	" FROM region g LEFT JOIN run ru ON ru.id=g.run_id"
	" LEFT JOIN run pa ON pa.ext_id=ru.parent_ext_id"
	" JOIN dict k ON k.id=g.kind_id JOIN dict p ON p.id=g.profiler_id"
	" WHERE %s AND (?2 IS NULL OR k.s=?2) AND (?3 IS NULL OR p.s=?3)"
	" GROUP BY g.profiler_id, g.kind_id, g.name_id, g.file_id, g.line, g.rank, g.device),"
	" s AS (SELECT *, CAST(self AS REAL) / sum(self) OVER"
	" (PARTITION BY profiler_id, kind_id, rank) AS share,"
	" row_number() OVER (ORDER BY self DESC NULLS LAST, total DESC NULLS LAST, " TEXT_ORDER
	", rank, device) AS pos,"
	" count(*) OVER () AS n_all FROM r)"
	"%s ORDER BY pos";

/* Regions of a sweep: per configuration, the mean per run of the sum
 * over its ranks. */
static const char top_sweep_sql[] =
	"WITH g1 AS (SELECT g.*, coalesce(ru.strategy, pa.strategy) AS strategy,"
	" coalesce(ru.n, pa.n) AS n, coalesce(pa.id, ru.id) AS logical"
	" FROM region g JOIN run ru ON ru.id=g.run_id"
	" LEFT JOIN run pa ON pa.ext_id=ru.parent_ext_id"
	" JOIN dict k ON k.id=g.kind_id JOIN dict p ON p.id=g.profiler_id"
	" WHERE %s AND (?2 IS NULL OR k.s=?2) AND (?3 IS NULL OR p.s=?3)),"
	" r AS (SELECT profiler_id, kind_id, name_id, file_id, line, -1 AS rank, -1 AS device,"
	" count(DISTINCT logical) AS runs,"
	" sum(calls) / count(DISTINCT logical) AS calls,"
	" sum(prim_calls) / count(DISTINCT logical) AS prim,"
	" sum(self_ns) / count(DISTINCT logical) AS self,"
	" sum(total_ns) / count(DISTINCT logical) AS total,"
	" sum(bytes) / count(DISTINCT logical) AS bytes, strategy, coalesce(n, -1) AS n"
	" FROM g1 GROUP BY strategy, n, profiler_id, kind_id, name_id, file_id, line),"
	" s AS (SELECT *, CAST(self AS REAL) / sum(self) OVER"
	" (PARTITION BY strategy, n, profiler_id, kind_id) AS share,"
	" row_number() OVER (PARTITION BY strategy, n"
	" ORDER BY self DESC NULLS LAST, total DESC NULLS LAST, " TEXT_ORDER ") AS pos,"
	" count(*) OVER () AS n_all FROM r)"
	"%s ORDER BY strategy, n, pos";

static const char top_select[] =
	" SELECT nm.s, k.s, p.s, f.s, coalesce(s.line, 0), s.rank, s.device, s.strategy, s.n,"
	" s.runs, s.calls, s.prim, s.self, s.total, s.bytes, s.share, s.n_all"
	" FROM s JOIN dict nm ON nm.id=s.name_id JOIN dict k ON k.id=s.kind_id"
	" JOIN dict p ON p.id=s.profiler_id LEFT JOIN dict f ON f.id=s.file_id"
	" WHERE ?4 = 0 OR s.pos <= ?4";

static int64_t col_opt(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, i);
}

/* The current row of q as a region row; -1 out of memory. */
static int top_row(sqlite3_stmt *q, struct amd_region_row *r)
{
	memset(r, 0, sizeof *r);
	r->line = sqlite3_column_int(q, 4);
	r->rank = sqlite3_column_int(q, 5);
	r->device = sqlite3_column_int(q, 6);
	r->n = sqlite3_column_int(q, 8);
	r->runs = sqlite3_column_int(q, 9);
	r->calls = col_opt(q, 10);
	r->prim_calls = col_opt(q, 11);
	r->self_ns = col_opt(q, 12);
	r->total_ns = col_opt(q, 13);
	r->bytes = col_opt(q, 14);
	r->share = sqlite3_column_type(q, 15) == SQLITE_NULL ? NAN : sqlite3_column_double(q, 15);
	if (amd_store_col_text(q, 0, &r->name) < 0 || amd_store_col_text(q, 1, &r->kind) < 0 ||
	    amd_store_col_text(q, 2, &r->profiler) < 0 || amd_store_col_text(q, 3, &r->file) < 0 ||
	    amd_store_col_text(q, 7, &r->strategy) < 0)
		return -1;
	return 0;
}

int amd_region_same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

void amd_region_row_free(struct amd_region_row *r)
{
	free(r->name);
	free(r->kind);
	free(r->profiler);
	free(r->file);
	free(r->strategy);
}

static sqlite3_stmt *top_query(struct amd_store *st, const struct amd_region_sel *sel,
			       const struct amd_region_filter *f, struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (amd_buf_printf(&sql, amd_region_sel_per_config(sel) ? top_sweep_sql : top_run_sql,
			   sel_where(sel), top_select) < 0) {
		amd_fail(err, "%s: out of memory", amd_store_path(st));
		return NULL;
	}
	sqlite3_stmt *q = amd_store_prepare(st, sql.data, err);
	amd_buf_free(&sql);
	if (!q)
		return NULL;
	if (sel->runs)
		sqlite3_bind_text(q, 1, sel->runs, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(q, 1, sel_id(sel));
	if (f->kind)
		sqlite3_bind_text(q, 2, f->kind, -1, SQLITE_STATIC);
	if (f->profiler)
		sqlite3_bind_text(q, 3, f->profiler, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 4, (sqlite3_int64)f->limit);
	return q;
}

static int sweep_top(struct amd_store *st, int64_t sweep_id,
		     const struct amd_region_filter *f, struct amd_region_list *out,
		     struct amd_err *err);
static int run_top(struct amd_store *st, int64_t run_id, const struct amd_region_filter *f,
		   struct amd_region_list *out, struct amd_err *err);

int amd_regions_top(struct amd_store *st, const struct amd_region_sel *sel,
		    const struct amd_region_filter *f, struct amd_region_list *out,
		    struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	if (sel->sweep_id > 0 && !sel->runs) /* in memory: sweep_top */
		return sweep_top(st, sel->sweep_id, f, out, err);
	if (sel->run_id > 0 && !sel->runs) /* in memory: region_run.c */
		return run_top(st, sel->run_id, f, out, err);
	sqlite3_stmt *q = top_query(st, sel, f, err);
	if (!q)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(&out->v, out->n, &cap, sizeof *out->v, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		out->n_all = (size_t)sqlite3_column_int64(q, 16);
		if (top_row(q, &out->v[out->n++]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (amd_store_rows_done(st, q, rc, err) < 0) {
		amd_region_list_free(out);
		return -1;
	}
	return 0;
}

void amd_region_list_free(struct amd_region_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		amd_region_row_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* ---- one region across a sweep ---- */

static const char across_sql[] =
	"SELECT ru.id, ru.ext_id, coalesce(ru.strategy, pa.strategy), coalesce(ru.n, pa.n, -1),"
	" coalesce(pa.repeat, ru.repeat, -1), coalesce(g.rank, ru.rank, -1), sum(g.calls),"
	" sum(g.self_ns), sum(g.total_ns), sum(g.bytes), k.s, p.s"
	" FROM region g JOIN run ru ON ru.id=g.run_id LEFT JOIN run pa ON pa.ext_id=ru.parent_ext_id"
	" JOIN dict k ON k.id=g.kind_id JOIN dict p ON p.id=g.profiler_id"
	" WHERE ru.sweep_id=?1 AND g.name_id=?2"
	" AND (?3 IS NULL OR k.s=?3) AND (?4 IS NULL OR p.s=?4)"
	" GROUP BY ru.id, coalesce(g.rank, ru.rank, -1), g.kind_id, g.profiler_id"
	" ORDER BY 3, 4, 5, 6, ru.ext_id, 11, 12";

static int point_row(sqlite3_stmt *q, struct amd_region_point *p)
{
	memset(p, 0, sizeof *p);
	p->run_id = sqlite3_column_int64(q, 0);
	p->n = sqlite3_column_int(q, 3);
	p->repeat = sqlite3_column_int(q, 4);
	p->rank = sqlite3_column_int(q, 5);
	p->calls = col_opt(q, 6);
	p->self_ns = col_opt(q, 7);
	p->total_ns = col_opt(q, 8);
	p->bytes = col_opt(q, 9);
	if (amd_store_col_text(q, 1, &p->run) < 0 || amd_store_col_text(q, 2, &p->strategy) < 0 ||
	    amd_store_col_text(q, 10, &p->kind) < 0 || amd_store_col_text(q, 11, &p->profiler) < 0)
		return -1;
	return 0;
}

int amd_region_across(struct amd_store *st, int64_t sweep_id, const char *name,
		      const char *kind, const char *profiler, struct amd_region_point **out,
		      size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	/* a name the store has never seen (the report asks every sweep for
	 * Nsight's phases) is in no region: not a search of every run */
	int64_t name_id = amd_store_dict_id(st, name, err);
	if (name_id <= 0)
		return name_id < 0 ? -1 : 0;
	sqlite3_stmt *q = amd_store_prepare(st, across_sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, sweep_id);
	sqlite3_bind_int64(q, 2, name_id);
	if (kind)
		sqlite3_bind_text(q, 3, kind, -1, SQLITE_STATIC);
	if (profiler)
		sqlite3_bind_text(q, 4, profiler, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 32) < 0 || point_row(q, &(*out)[(*n)++]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	if (amd_store_rows_done(st, q, rc, err) < 0) {
		amd_region_points_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

void amd_region_points_free(struct amd_region_point *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].run);
		free(p[i].strategy);
		free(p[i].kind);
		free(p[i].profiler);
	}
	free(p);
}

/* amd_regions_top of a sweep by name, in memory (the paragraph above). */

static const char runs_sql[] =
	"SELECT ru.id, coalesce(pa.id, ru.id), coalesce(ru.strategy, pa.strategy),"
	" coalesce(ru.n, pa.n, -1) FROM run ru LEFT JOIN run pa ON pa.ext_id = ru.parent_ext_id"
	" WHERE ru.sweep_id = ?1 ORDER BY ru.id";

/* The columns every sweep scan reads (run_id,
 * profiler_id, kind_id, name_id, file_id, line, calls, prim_calls,
 * self_ns, total_ns, bytes) and, after them, what region_times.c's
 * scan reads (source, rank), of every row: one scan for both
 * (regions.h's amd_region_share). */
#define SW_COLS                                                                               \
	RS_RUN, AMD_RG_PROFILER, AMD_RG_KIND, AMD_RG_NAME, AMD_RG_FILE, AMD_RG_LINE,          \
		AMD_RG_CALLS, AMD_RG_PRIM, AMD_RG_SELF, AMD_RG_TOTAL, AMD_RG_BYTES
#define SW_NCOLS 11

/* The regions a sweep's list sums: those of a run, of the kind and
 * profiler asked (0: any), as `WHERE run_id IS NOT NULL AND (?1 IS NULL
 * OR kind_id = ?1) AND (?2 IS NULL OR profiler_id = ?2)` keeps them. */
struct sw_where {
	int64_t kind, profiler;
};

static int sw_keep(const void *arg, const struct rs_row *w)
{
	const struct sw_where *k = arg;
	return (!k->kind || (!(w->null & 1u << 2) && w->v[2] == k->kind))
		&& (!k->profiler || (!(w->null & 1u << 1) && w->v[1] == k->profiler));
}

struct sw_run {
	int64_t id, logical;
	int conf; /* index into confs */
};

struct sw_conf {
	char *strategy; /* NULL: unknown */
	int n;
};

/* One group: a configuration's region. */
struct sw_group {
	int conf;
	int64_t profiler, kind, name, file, line; /* file, line: INT64_MIN for NULL */
	int64_t sum[5];                           /* calls, prim, self, total, bytes */
	int has[5];
	int runs;
	int64_t last_logical;
};

struct sw {
	struct sw_run *runs;
	size_t nruns;
	const struct sw_run *last; /* run_of's last answer */
	struct sw_conf *confs;
	size_t nconfs, cap_confs;
	struct sw_group *g;
	size_t ng, cap_g;
	struct amd_hmap gix;
	int64_t *pairs; /* (group, logical) seen, 2 per pair */
	size_t npairs, cap_pairs;
	struct amd_hmap pix;
};

static void sw_free(struct sw *s)
{
	for (size_t i = 0; i < s->nconfs; i++)
		free(s->confs[i].strategy);
	free(s->confs);
	free(s->runs);
	free(s->g);
	free(s->pairs);
	amd_hmap_free(&s->gix);
	amd_hmap_free(&s->pix);
}

/* The configuration index of (strategy, n), added when new. */
static int conf_of(struct sw *s, const char *strategy, int n)
{
	for (size_t i = 0; i < s->nconfs; i++)
		if (s->confs[i].n == n && amd_region_same_text(s->confs[i].strategy, strategy))
			return (int)i;
	if (amd_grow(&s->confs, s->nconfs, &s->cap_confs, sizeof *s->confs, 8) < 0)
		return -1;
	char *copy = strategy ? strdup(strategy) : NULL;
	if (strategy && !copy)
		return -1;
	s->confs[s->nconfs] = (struct sw_conf){ copy, n };
	return (int)s->nconfs++;
}

static int load_runs(struct amd_store *st, int64_t sweep_id, struct sw *s, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, runs_sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, sweep_id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int conf = conf_of(s, (const char *)sqlite3_column_text(q, 2), sqlite3_column_int(q, 3));
		if (conf < 0 || amd_grow(&s->runs, s->nruns, &cap, sizeof *s->runs, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		s->runs[s->nruns++] = (struct sw_run){ sqlite3_column_int64(q, 0),
						       sqlite3_column_int64(q, 1), conf };
	}
	return amd_store_rows_done(st, q, rc, err);
}

static const struct sw_run *run_of(struct sw *s, int64_t id)
{
	if (s->last && s->last->id == id) /* a run's rows come together */
		return s->last;
	size_t a = 0, b = s->nruns;
	while (a < b) {
		size_t m = (a + b) / 2;
		if (s->runs[m].id < id)
			a = m + 1;
		else
			b = m;
	}
	if (a < s->nruns && s->runs[a].id == id)
		return s->last = &s->runs[a];
	return NULL;
}

/* The key's fields folded by multiply-xor, mixed to 32 bits (hashing its
 * 48 bytes one at a time was a sixth of the scan). */
static uint32_t fold_hash(const int64_t *f, size_t n)
{
	uint64_t h = AMD_HASH_SEED;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint64_t)f[i]) * 0x9e3779b97f4a7c15ULL;
	return amd_hash_u64(h);
}

static uint32_t group_hash(const struct sw_group *k)
{
	int64_t f[6] = { k->conf, k->profiler, k->kind, k->name, k->file, k->line };
	return fold_hash(f, 6);
}

struct find_ctx {
	const struct sw *s;
	const struct sw_group *key;
};

static int same_group(const void *ctx, uint32_t idx)
{
	const struct find_ctx *c = ctx;
	const struct sw_group *x = &c->s->g[idx], *y = c->key;
	return x->conf == y->conf && x->profiler == y->profiler && x->kind == y->kind
		&& x->name == y->name && x->file == y->file && x->line == y->line;
}

/* The group of key, added (zeroed sums) when new; NULL out of memory. */
static struct sw_group *group_of(struct sw *s, const struct sw_group *key)
{
	uint32_t h = group_hash(key);
	struct find_ctx c = { s, key };
	int64_t at = amd_hmap_find(&s->gix, h, same_group, &c);
	if (at >= 0)
		return &s->g[at];
	if (amd_grow(&s->g, s->ng, &s->cap_g, sizeof *s->g, 256) < 0
	    || amd_hmap_put(&s->gix, h, (uint32_t)s->ng) < 0)
		return NULL;
	s->g[s->ng] = *key;
	s->g[s->ng].last_logical = INT64_MIN;
	return &s->g[s->ng++];
}

struct pair_ctx {
	const int64_t *pairs;
	int64_t g, logical;
};

static int same_pair(const void *ctx, uint32_t idx)
{
	const struct pair_ctx *c = ctx;
	return c->pairs[2 * idx] == c->g && c->pairs[2 * idx + 1] == c->logical;
}

/* Counts run `logical` in group gi once; -1 out of memory. */
static int count_run(struct sw *s, size_t gi, int64_t logical)
{
	struct sw_group *g = &s->g[gi];
	if (g->last_logical == logical)
		return 0;
	g->last_logical = logical;
	int64_t f[2] = { (int64_t)gi, logical };
	uint32_t h = fold_hash(f, 2);
	struct pair_ctx c = { s->pairs, (int64_t)gi, logical };
	if (amd_hmap_find(&s->pix, h, same_pair, &c) >= 0)
		return 0;
	if (amd_grow(&s->pairs, 2 * s->npairs, &s->cap_pairs, sizeof *s->pairs, 512) < 0
	    || amd_grow(&s->pairs, 2 * s->npairs + 1, &s->cap_pairs, sizeof *s->pairs, 512) < 0
	    || amd_hmap_put(&s->pix, h, (uint32_t)s->npairs) < 0)
		return -1;
	s->pairs[2 * s->npairs] = (int64_t)gi;
	s->pairs[2 * s->npairs++ + 1] = logical;
	g->runs++;
	return 0;
}

/* Adds row w (SW_COLS; a region of run r) to its group. */
static int add_row(struct sw *s, const struct rs_row *w, const struct sw_run *r)
{
	struct sw_group key = { .conf = r->conf };
	key.profiler = w->v[1];
	key.kind = w->v[2];
	key.name = w->v[3];
	key.file = w->null & 1u << 4 ? INT64_MIN : w->v[4];
	key.line = w->null & 1u << 5 ? INT64_MIN : w->v[5];
	struct sw_group *g = group_of(s, &key);
	if (!g)
		return -1;
	for (int k = 0; k < 5; k++)
		if (!(w->null & 1u << (6 + k))) {
			g->sum[k] += w->v[6 + k];
			g->has[k] = 1;
		}
	return count_run(s, (size_t)(g - s->g), r->logical);
}

/* The rows sw_keep keeps (rs_scan's batches) into their groups. */
static int add_rows(void *ctx, const struct rs_row *w, size_t n)
{
	struct sw *s = ctx;
	for (size_t i = 0; i < n; i++) {
		const struct sw_run *r = run_of(s, w[i].v[0]);
		if (r && add_row(s, &w[i], r) < 0)
			return -1;
	}
	return 0;
}

/* The server's per-run sums (amd_store_region_sums) as SW_COLS rows:
 * a group's sums are the same integers, its runs the same runs. */
static int add_sums(void *ctx, const struct amd_region_sum *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rs_row w = {.v = {r[i].run_id, r[i].profiler_id, r[i].kind_id, r[i].name_id,
					 r[i].file_id, r[i].line}};
		w.null = (r[i].has_file ? 0 : 1u << 4) | (r[i].has_line ? 0 : 1u << 5);
		for (int k = 0; k < 5; k++) {
			w.v[6 + k] = r[i].sum[k];
			w.null |= r[i].has[k] ? 0 : 1u << (6 + k);
		}
		if (add_rows(ctx, &w, 1) < 0)
			return -1;
	}
	return 0;
}

static int load_rows(struct amd_store *st, struct sw *s, int64_t kind, int64_t profiler,
		     struct amd_err *err)
{
	/* a remote read's rows summed per run where they are */
	int rc = amd_store_region_sums(st, kind, profiler, add_sums, s, err);
	if (rc <= 0)
		return rc;
	struct sw_where k = { kind, profiler };
	const struct rs_query q = { SW_NCOLS, { SW_COLS }, sw_keep, &k, 1, NULL, 0 };
	return rs_scan(st, &q, add_rows, s, err);
}

/* The groups and the region times' stash of a shared scan. */
struct shared {
	struct sw *s;
	struct rj_stash *k;
};

/* Every region (SW_COLS, source, rank) into their groups (those with a run) and into the
 * region times' stash. */
static int shared_rows(void *ctx, const struct rs_row *w, size_t n)
{
	struct shared *h = ctx;
	for (size_t i = 0; i < n; i++) {
		const struct rs_row *x = &w[i];
		const struct sw_run *r = x->null & 1u ? NULL : run_of(h->s, x->v[0]);
		if (r && add_row(h->s, x, r) < 0)
			return -1;
		/* the rank as sqlite3_column_int gives it */
		if (rj_stash_row(h->k, x->v[11], (x->null >> 12) & 1, (int)x->v[12], x->v[3],
				 x->v[2], x->v[8], !(x->null & 1u << 8)) < 0)
			return -1;
	}
	return 0;
}

/* load_rows with no filter, the region times of the sweep read in the
 * same scan and kept in sh (region_join.h's rj_stash). */
static int load_rows_shared(struct amd_store *st, struct sw *s, int64_t sweep_id,
			    struct amd_region_share *sh, struct amd_err *err)
{
	char *name = NULL;
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT name FROM sweep WHERE id = ?1", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, sweep_id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && amd_store_col_text(q, 0, &name) < 0)
		rc = SQLITE_NOMEM;
	if (amd_store_rows_done(st, q, rc == SQLITE_ROW ? SQLITE_DONE : rc, err) < 0)
		return -1;
	struct rj_stash *k = NULL;
	rc = name ? rj_stash_begin(st, name, &k, err) : 0;
	free(name);
	if (rc < 0 || !k)
		return rc < 0 ? -1 : -2; /* -2: no stash for it, read alone */
	const struct rs_query every = { SW_NCOLS + 2, { SW_COLS, RS_SOURCE, AMD_RG_RANK }, NULL, NULL, 0,
					 NULL, 0 };
	struct shared h = { s, k };
	if (rs_scan(st, &every, shared_rows, &h, err) < 0) {
		rj_stash_free(k);
		return -1;
	}
	return rj_stash_end(st, k, sh, err);
}

/* A group's strings and numbers as a region row (strings from dict). */
static int to_row(struct amd_store *st, sqlite3_stmt *d, const struct sw *s,
		  const struct sw_group *g, struct amd_region_row *r)
{
	memset(r, 0, sizeof *r);
	int64_t ids[4] = { g->name, g->kind, g->profiler, g->file };
	char **out[4] = { &r->name, &r->kind, &r->profiler, &r->file };
	for (int k = 0; k < 4; k++) {
		if (ids[k] == INT64_MIN)
			continue;
		sqlite3_reset(d);
		sqlite3_bind_int64(d, 1, ids[k]);
		int rc = sqlite3_step(d);
		if (rc == SQLITE_ROW && amd_store_col_text(d, 0, out[k]) < 0)
			return -1;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return -1;
	}
	(void)st;
	const struct sw_conf *c = &s->confs[g->conf];
	if (c->strategy && !(r->strategy = strdup(c->strategy)))
		return -1;
	if (!r->name || !r->kind || !r->profiler)
		return -1;
	r->line = g->line == INT64_MIN ? 0 : (int)g->line;
	r->rank = r->device = -1;
	r->n = c->n;
	r->runs = g->runs;
	int64_t *v[5] = { &r->calls, &r->prim_calls, &r->self_ns, &r->total_ns, &r->bytes };
	for (int k = 0; k < 5; k++)
		*v[k] = g->has[k] && g->runs ? g->sum[k] / g->runs : -1;
	return 0;
}

static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL); /* NULL first, as SQL orders */
	return strcmp(a, b);
}

/* regions.c's SQL order: strategy, n, then self and total time
 * descending (unmeasured last), then by the profiler, kind, name and
 * file texts (not their dict ids, which depend on the order the files
 * were ingested in) and the line (NULL first). */
static const struct amd_region_row *ord_v;
static const struct sw_group *ord_g;

static int cmp_rows(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct amd_region_row *x = &ord_v[a], *y = &ord_v[b];
	int c = cmp_text(x->strategy, y->strategy);
	if (c || x->n != y->n)
		return c ? c : (x->n > y->n) - (x->n < y->n);
	if (x->self_ns != y->self_ns)
		return x->self_ns < y->self_ns ? 1 : -1;
	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	const char *p[4] = { x->profiler, x->kind, x->name, x->file },
		   *q[4] = { y->profiler, y->kind, y->name, y->file };
	for (int k = 0; k < 4; k++)
		if ((c = cmp_text(p[k], q[k])) != 0)
			return c;
	const struct sw_group *g = &ord_g[a], *h = &ord_g[b];
	return (g->line > h->line) - (g->line < h->line);
}

/* Puts v[0..n) (row i from group g[i]) in SQL's order. */
static int sort_rows(struct amd_region_row *v, const struct sw_group *g, size_t n)
{
	size_t *ix = malloc((n ? n : 1) * sizeof *ix);
	struct amd_region_row *tmp = malloc((n ? n : 1) * sizeof *tmp);
	if (!ix || !tmp) {
		free(ix);
		free(tmp);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	ord_v = v;
	ord_g = g;
	if (n > 1)
		qsort(ix, n, sizeof *ix, cmp_rows);
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[ix[i]];
	memcpy(v, tmp, n * sizeof *v);
	free(ix);
	free(tmp);
	return 0;
}

static const struct sw_group *part_g; /* qsort has no context argument */

static int cmp_part(const void *a, const void *b)
{
	const struct sw_group *x = &part_g[*(const size_t *)a], *y = &part_g[*(const size_t *)b];
	if (x->conf != y->conf)
		return x->conf < y->conf ? -1 : 1;
	if (x->profiler != y->profiler)
		return x->profiler < y->profiler ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

/* Each row's share of its configuration's (profiler, kind) self time. */
static int shares(struct amd_region_row *v, const struct sw_group *g, size_t n)
{
	size_t *ix = malloc((n ? n : 1) * sizeof *ix);
	if (!ix)
		return -1;
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	part_g = g;
	if (n > 1)
		qsort(ix, n, sizeof *ix, cmp_part);
	for (size_t a = 0, b; a < n; a = b) {
		int64_t sum = 0;
		int any = 0;
		for (b = a; b < n && cmp_part(&ix[a], &ix[b]) == 0; b++)
			if (v[ix[b]].self_ns >= 0) {
				sum += v[ix[b]].self_ns;
				any = 1;
			}
		for (size_t k = a; k < b; k++) {
			struct amd_region_row *r = &v[ix[k]];
			r->share = r->self_ns >= 0 && any && sum != 0
				? (double)r->self_ns / (double)sum : NAN;
		}
	}
	free(ix);
	return 0;
}

/* Keeps the first limit rows of each configuration (0: all): row i is
 * the pos[i]-th of its configuration. */
static int keep_top(struct amd_region_list *l, size_t limit)
{
	size_t *pos = malloc((l->n ? l->n : 1) * sizeof *pos);
	if (!pos)
		return -1;
	for (size_t i = 0; i < l->n; i++)
		pos[i] = i && l->v[i].n == l->v[i - 1].n
			&& cmp_text(l->v[i].strategy, l->v[i - 1].strategy) == 0 ? pos[i - 1] + 1 : 1;
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (!limit || pos[i] <= limit)
			l->v[k++] = l->v[i];
		else
			amd_region_row_free(&l->v[i]);
	}
	l->n = k;
	free(pos);
	return 0;
}

static int make_list(struct amd_store *st, const struct sw *s, size_t limit,
		     struct amd_region_list *out, struct amd_err *err)
{
	out->v = calloc(s->ng + 1, sizeof *out->v);
	if (!out->v)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	sqlite3_stmt *d = amd_store_prepare(st, "SELECT s FROM dict WHERE id = ?1", err);
	if (!d) {
		free(out->v);
		out->v = NULL;
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->ng; i++) {
		rc = to_row(st, d, s, &s->g[i], &out->v[i]);
		out->n = i + 1;
	}
	sqlite3_finalize(d);
	if (rc < 0) {
		amd_region_list_free(out);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	if (shares(out->v, s->g, s->ng) < 0) {
		amd_region_list_free(out);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	out->n_all = s->ng;
	if (sort_rows(out->v, s->g, s->ng) < 0 || keep_top(out, limit) < 0) {
		amd_region_list_free(out);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	return 0;
}

/* The dict id of a filter's text: 0 no filter, -2 a text the store lacks. */
static int64_t filter_id(struct amd_store *st, const char *text, struct amd_err *err)
{
	if (!text)
		return 0;
	int64_t id = amd_store_dict_id(st, text, err);
	return id == 0 ? -2 : id;
}

static int sweep_top(struct amd_store *st, int64_t sweep_id,
		     const struct amd_region_filter *f, struct amd_region_list *out,
		     struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct sw s;
	memset(&s, 0, sizeof s);
	int64_t kind = filter_id(st, f->kind, err), prof = filter_id(st, f->profiler, err);
	if (kind == -1 || prof == -1)
		return -1;
	int rc = 0;
	if (kind != -2 && prof != -2) {
		rc = load_runs(st, sweep_id, &s, err);
		if (rc == 0 && f->share && !f->share->stash && !kind && !prof)
			rc = load_rows_shared(st, &s, sweep_id, f->share, err);
		else if (rc == 0)
			rc = -2;
		if (rc == -2)
			rc = load_rows(st, &s, kind, prof, err);
		if (rc == 0)
			rc = make_list(st, &s, f->limit, out, err);
	}
	sw_free(&s);
	return rc;
}

/* amd_regions_top of one run: rr_top (region_run.h) with the filter's
 * dict ids; a text the store lacks matches no region. */
static int run_top(struct amd_store *st, int64_t run_id, const struct amd_region_filter *f,
		   struct amd_region_list *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	int64_t kind = filter_id(st, f->kind, err), prof = filter_id(st, f->profiler, err);
	if (kind == -1 || prof == -1)
		return -1;
	if (kind == -2 || prof == -2)
		return 0;
	return rr_top(st, run_id, kind, prof, f->limit, out, err);
}
