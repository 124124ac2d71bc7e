/* regions.c — the SQL behind regions.h: naming a run, file or sweep;
 * the top regions of a selection (grouped per rank in a run or file,
 * per configuration in a sweep, with each region's share of its
 * profiler's and kind's self time; a selector's runs as a sweep's); one
 * region across a sweep's runs.
 * A run's child workers (itwinai) count as the run. */
#include "regions.h"
#include "sqlite_int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "regions_sweep.h"
#include "run_sources.h"
#include "selector.h"

/* ---- resolving WHAT ---- */

static const char run_by_name[] =
	"SELECT id FROM run WHERE name=?1 ORDER BY"
	" EXISTS(SELECT 1 FROM region g WHERE g.run_id=run.id OR g.run_id IN"
	" (SELECT c.id FROM run c WHERE c.parent_ext_id=run.ext_id)) DESC, start_ms DESC";

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
	    (sel->run_id = amd_store_first_id(st, run_by_name, what, NULL, err))) {
		if (sel->run_id < 0 || sel->sweep_id < 0 || sel->source_id < 0)
			return -1;
		return 0;
	}
	return amd_fail(err, "%s: no run (id or name), sweep or ingested file of that name in"
			" the store", what);
}

int amd_region_resolve_select(struct amd_store *st, const char *what,
			      struct amd_region_sel *sel, struct amd_err *err)
{
	if (!amd_selector_is(what) ||
	    amd_store_first_id(st, "SELECT id FROM sweep WHERE name=?1", what, NULL, err) != 0)
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
 * texts and the line (regions_sweep.c's order) — not by dict ids, which
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

int amd_regions_top(struct amd_store *st, const struct amd_region_sel *sel,
		    const struct amd_region_filter *f, struct amd_region_list *out,
		    struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	if (sel->sweep_id > 0 && !sel->runs) /* in memory: regions_sweep.c */
		return amd_regions_sweep_top(st, sel->sweep_id, f, out, err);
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
