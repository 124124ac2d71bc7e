/* runs.c — SQL behind the run model (runs.h): logical runs with
 * children folded in, sweeps, metric points, params and tags. */
#include "runs.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "metric_sql.h"
#include "selector_hint.h"
#include "stmt_cache.h"

const char *const amd_runs_tables[] = {"dict", "sweep", "run", "param", "tag",
				       "metric_point", "trace"};
const size_t amd_runs_table_count = sizeof amd_runs_tables / sizeof *amd_runs_tables;

/* A logical run: parent absent or not in the store. */
#define TOP_LEVEL "(r.parent_ext_id IS NULL OR NOT EXISTS" \
	" (SELECT 1 FROM run p WHERE p.ext_id = r.parent_ext_id))"

/* Runs without a name (MLflow 1.x Projects runs: `name: ''`, no
 * mlflow.runName) are repeats of each other only when they share entry
 * point, program (the run's entry_point and program, as its reader
 * reported them) and every param; with none of the three a run is a
 * group of its own (its id). The key a run's repeats are counted in: */
#define GROUP_KEY \
	"CASE WHEN t.name IS NOT NULL THEN 'n' || t.name" \
	" WHEN u.entry IS NULL AND u.src IS NULL AND u.params IS NULL THEN 'u' || t.ext_id" \
	" ELSE 'g' || COALESCE(u.entry, '') || char(31) || COALESCE(u.src, '') || char(31)" \
	"  || COALESCE(u.params, '') END"

static const char runs_sql[] =
	"WITH top AS (SELECT r.* FROM run r WHERE " TOP_LEVEL "),"
	" kids AS (SELECT p.id AS pid, count(c.id) AS nkids, max(c.n) AS n,"
	"   min(c.strategy) AS strategy, max(c.nodes) AS nodes"
	"   FROM top p JOIN run c ON c.parent_ext_id = p.ext_id GROUP BY p.id),"
	" unnamed AS (SELECT t.id AS rid, t.entry_point AS entry, t.program AS src,"
	"   (SELECT group_concat(kv, char(30)) FROM (SELECT d.s || '=' || p.value AS kv"
	"     FROM param p JOIN dict d ON d.id = p.key_id WHERE p.run_id = t.id ORDER BY d.s))"
	"     AS params FROM top t WHERE t.name IS NULL)"
	" SELECT t.id, s.name, t.ext_id, t.name, COALESCE(t.strategy, k.strategy),"
	"  COALESCE(t.n, k.n), COALESCE(t.nodes, k.nodes),"
	"  COALESCE(t.repeat, ROW_NUMBER() OVER (PARTITION BY t.sweep_id, " GROUP_KEY
	"    ORDER BY t.start_ms, t.ext_id) - 1),"
	"  t.status, t.start_ms, t.end_ms, COALESCE(k.nkids, 0),"
	"  (SELECT count(DISTINCT m.key_id) FROM metric_series m WHERE m.run_id = t.id"
	"    OR m.run_id IN (SELECT c.id FROM run c WHERE c.parent_ext_id = t.ext_id)),"
	"  (SELECT count(*) FROM trace tr WHERE tr.run_id = t.id"
	"    OR tr.run_id IN (SELECT c.id FROM run c WHERE c.parent_ext_id = t.ext_id))"
	"  , u.entry, u.src, u.params IS NOT NULL"
	" FROM top t LEFT JOIN sweep s ON s.id = t.sweep_id LEFT JOIN kids k ON k.pid = t.id"
	" LEFT JOIN unnamed u ON u.rid = t.id"
	" WHERE ?1 IS NULL OR s.name = ?1"
	" ORDER BY s.name, 5, 6, 8, t.start_ms, t.ext_id"; /* ext_id: equal stores list runs alike */

int amd_runs_list(struct amd_store *st, const char *sweep, struct amd_run_view **out,
		  size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, runs_sql, err);
	if (!q)
		return -1;
	if (sweep)
		sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 32) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_run_view *r = &(*out)[(*n)++];
		memset(r, 0, sizeof *r);
		r->id = sqlite3_column_int64(q, 0);
		if (amd_store_col_text(q, 1, &r->sweep) < 0 ||
		    amd_store_col_text(q, 2, &r->ext_id) < 0 ||
		    amd_store_col_text(q, 3, &r->name) < 0 ||
		    amd_store_col_text(q, 4, &r->strategy) < 0 ||
		    amd_store_col_text(q, 14, &r->entry_point) < 0 ||
		    amd_store_col_text(q, 15, &r->source) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		r->n = sqlite3_column_int(q, 5);
		r->nodes = sqlite3_column_int(q, 6);
		r->repeat = sqlite3_column_int(q, 7);
		r->status = sqlite3_column_int(q, 8);
		r->start_ms = sqlite3_column_int64(q, 9);
		r->end_ms = sqlite3_column_int64(q, 10);
		r->children = sqlite3_column_int(q, 11);
		r->metrics = sqlite3_column_int(q, 12);
		r->traces = sqlite3_column_int(q, 13);
		if (!r->name)
			r->grouping = r->entry_point || r->source || sqlite3_column_int(q, 16)
				? AMD_RUN_GROUPED : AMD_RUN_UNGROUPED;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		amd_runs_free(*out, *n);
		*out = NULL;
		*n = 0;
		return amd_store_step_fail(st, rc, err);
	}
	return 0;
}

const char *amd_run_label(const struct amd_run_view *r, char *buf, size_t len)
{
	if (r->name) {
		snprintf(buf, len, "%s", r->name);
		return buf;
	}
	const char *src = r->source, *slash = src ? strrchr(src, '/') : NULL;
	if (slash && slash[1])
		src = slash + 1;
	if (src && r->entry_point)
		snprintf(buf, len, "(%s:%s)", src, r->entry_point);
	else if (src || r->entry_point)
		snprintf(buf, len, "(%s)", src ? src : r->entry_point);
	else
		snprintf(buf, len, "(no name)");
	return buf;
}

const char *amd_run_left_out(const struct amd_run_view *r)
{
	if (!amd_status_ok(r->status))
		return amd_status_name(r->status);
	return r->n > 0 ? NULL : "no axis value (world size unknown)";
}

void amd_run_view_release(struct amd_run_view *v)
{
	free(v->sweep);
	free(v->ext_id);
	free(v->name);
	free(v->strategy);
	free(v->entry_point);
	free(v->source);
}

static int dup_or_null(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -1 : 0;
}

int amd_run_view_copy(struct amd_run_view *dst, const struct amd_run_view *src)
{
	*dst = *src;
	dst->sweep = dst->ext_id = dst->name = dst->strategy = NULL;
	dst->entry_point = dst->source = NULL;
	if (dup_or_null(&dst->sweep, src->sweep) < 0 || dup_or_null(&dst->ext_id, src->ext_id) < 0 ||
	    dup_or_null(&dst->name, src->name) < 0 || dup_or_null(&dst->strategy, src->strategy) < 0 ||
	    dup_or_null(&dst->entry_point, src->entry_point) < 0 ||
	    dup_or_null(&dst->source, src->source) < 0) {
		amd_run_view_release(dst);
		return -1;
	}
	return 0;
}

void amd_runs_free(struct amd_run_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		amd_run_view_release(&v[i]);
	free(v);
}

int amd_sweeps_list(struct amd_store *st, struct amd_sweep_view **out, size_t *n,
		    struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT s.id, s.name, count(r.id), sum(r.status IN (4,5)), sum(r.status = 3)"
		" FROM sweep s LEFT JOIN run r ON r.sweep_id = s.id AND " TOP_LEVEL
		" GROUP BY s.id ORDER BY s.name", err);
	if (!q)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 8) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_sweep_view *s = &(*out)[(*n)++];
		s->id = sqlite3_column_int64(q, 0);
		s->runs = sqlite3_column_int(q, 2);
		s->failed = sqlite3_column_int(q, 3);
		s->finished = sqlite3_column_int(q, 4);
		if (amd_store_col_text(q, 1, &s->name) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		amd_sweeps_free(*out, *n);
		*out = NULL;
		*n = 0;
		return amd_store_step_fail(st, rc, err);
	}
	return 0;
}

int amd_sweeps_closest(const struct amd_sweep_view *sw, size_t n, const char *want, char *near,
		       size_t size)
{
	const char **names = calloc(n ? n : 1, sizeof *names);
	near[0] = '\0';
	for (size_t i = 0; names && i < n; i++)
		names[i] = sw[i].name;
	if (names)
		sel_closest(want, names, n, near, size);
	free(names);
	return n <= AMD_SWEEPS_FEW || !near[0];
}

void amd_sweeps_free(struct amd_sweep_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* A point and its place in the order the chunks were read, which
 * breaks ties of rank, step and time (repeated steps keep their order). */
struct ordered_point {
	struct amd_point p;
	size_t ord;
};

static int by_rank_step_time(const void *x, const void *y)
{
	const struct ordered_point *a = x, *b = y;
	if (a->p.rank != b->p.rank)
		return (a->p.rank > b->p.rank) - (a->p.rank < b->p.rank);
	if (a->p.step != b->p.step)
		return (a->p.step > b->p.step) - (a->p.step < b->p.step);
	if (a->p.ts_ms != b->p.ts_ms)
		return (a->p.ts_ms > b->p.ts_ms) - (a->p.ts_ms < b->p.ts_ms);
	return (a->ord > b->ord) - (a->ord < b->ord);
}

/* Appends the points of the chunk row q is on (rank in column 3). */
static int append_chunk(struct amd_store *st, sqlite3_stmt *q, struct ordered_point **v,
			size_t *n, size_t *cap, struct amd_err *err)
{
	char what[300];
	snprintf(what, sizeof what, "%s: metric_series run %lld key %lld source %lld chunk %lld",
		 st->path, (long long)sqlite3_column_int64(q, 3),
		 (long long)sqlite3_column_int64(q, 4), (long long)sqlite3_column_int64(q, 5),
		 (long long)sqlite3_column_int64(q, 6));
	struct amd_metric_cols c;
	if (amd_metric_row_unpack(q, 0, 1, what, &c, err) < 0)
		return -1;
	int rank = sqlite3_column_int(q, 2);
	if (amd_grow_to(v, *n + c.n, cap, sizeof **v, 64) < 0) {
		amd_metric_cols_free(&c);
		return amd_fail(err, "%s: out of memory", st->path);
	}
	for (size_t i = 0; i < c.n; i++, (*n)++)
		(*v)[*n] = (struct ordered_point){
			{c.step[i], c.ts_ms[i], c.value[i], rank}, *n};
	amd_metric_cols_free(&c);
	return 0;
}

int amd_run_metric(struct amd_store *st, int64_t run, const char *key,
		   struct amd_point **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	if (amd_store_need_key(st, run, key, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT m.points, m.n, COALESCE(r.rank, 0), m.run_id, m.key_id, m.source_id,"
		" m.chunk FROM metric_series m JOIN run r ON r.id = m.run_id"
		" JOIN dict d ON d.id = m.key_id"
		" WHERE d.s = ?2 AND (r.id = ?1 OR r.parent_ext_id ="
		"   (SELECT ext_id FROM run WHERE id = ?1))"
		" ORDER BY m.run_id, m.source_id, m.chunk", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	struct ordered_point *v = NULL;
	size_t cap = 0, len = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (append_chunk(st, q, &v, &len, &cap, err) < 0) {
			amd_store_cached_drop(q);
			free(v);
			return -1;
		}
	if (amd_store_cached_done(st, q, rc, err) < 0) {
		free(v);
		return -1;
	}
	if (len) /* qsort wants a non-NULL array */
		qsort(v, len, sizeof *v, by_rank_step_time);
	/* the points in place, over the ordered array (each lands at or
	 * before where it was read: memmove) */
	struct amd_point *p = (struct amd_point *)v;
	for (size_t i = 0; i < len; i++)
		memmove(&p[i], &v[i].p, sizeof p[i]);
	*out = len ? p : NULL;
	if (!len)
		free(v);
	*n = len;
	return 0;
}

/* The value of a logical run's param or tag (own, else first child's):
 * sql reads table `param` or `tag`. */
static int run_value_find(struct amd_store *st, const char *sql, int64_t run, const char *key,
			  char **out, struct amd_err *err)
{
	*out = NULL;
	sqlite3_stmt *q = amd_store_cached(st, sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		rc = amd_store_col_text(q, 0, out) < 0 ? SQLITE_NOMEM : SQLITE_DONE;
	return amd_store_cached_done(st, q, rc, err);
}

#define RUN_VALUE_SQL(table) \
	"SELECT x.value FROM " table " x JOIN run r ON r.id = x.run_id" \
	" JOIN dict d ON d.id = x.key_id WHERE d.s = ?2 AND (r.id = ?1 OR" \
	" r.parent_ext_id = (SELECT ext_id FROM run WHERE id = ?1))" \
	" ORDER BY r.id = ?1 DESC, r.rank LIMIT 1"

int amd_run_param_find(struct amd_store *st, int64_t run, const char *key, char **out,
		       struct amd_err *err)
{
	return run_value_find(st, RUN_VALUE_SQL("param"), run, key, out, err);
}

int amd_run_tag_find(struct amd_store *st, int64_t run, const char *key, char **out,
		     struct amd_err *err)
{
	return run_value_find(st, RUN_VALUE_SQL("tag"), run, key, out, err);
}
