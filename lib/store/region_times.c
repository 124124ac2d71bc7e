/* region_times.c — SQL behind amd_store_region_times (region_times.h):
 * the regions (issue 14's table `region`) of every trace of the sweep's
 * counted runs, each divided by the trace's number of profiled steps.
 * Normalisation rule: a region is per profiled step of its own source
 * file, so only regions whose source is a profiler trace with steps
 * (Kineto: operators, annotations, kernels, collectives, ...) are read;
 * regions of sources without a step count (cProfile, Nsight Systems,
 * py-spy, key_averages) are left out — their "per run" numbers would not
 * add up with per-step ones. Left out too: regions of kind step (the
 * profiler's span, ProfilerStep#N; the step is its own row from
 * trace_step) and operators also recorded as collectives of the same
 * trace (the collective's summed duration stands for them). */
#include <stdlib.h>
#include <string.h>

#include "region_times.h"
#include "sqlite_int.h"
#include "buf.h"
#include "run.h"
#include "selector.h"

/* Each trace with its logical run (a child worker's parent) and steps. */
#define TRACES \
	"WITH tr AS (SELECT t.id AS tid, coalesce(t.rank, -1) AS rank," \
	"  t.source_id AS src, t.rank AS trank, coalesce(l.id, r.id) AS rid," \
	"  coalesce(l.strategy, r.strategy, '') AS strategy," \
	"  coalesce(l.n, r.n, 0) AS n, coalesce(l.repeat, r.repeat, 0) AS rep," \
	"  coalesce(l.status, r.status, 0) AS status," \
	"  max(1, (SELECT count(*) FROM trace_step s WHERE s.trace_id = t.id)) AS steps" \
	"  FROM trace t JOIN run r ON r.id = t.run_id" \
	"  LEFT JOIN run l ON l.ext_id = r.parent_ext_id" \
	"  JOIN sweep w ON w.id = coalesce(l.sweep_id, r.sweep_id)" \
	"  WHERE ?1 IS NULL OR w.name = ?1) "

/* The collectives' (source, name, rank), read once: the NOT EXISTS below
 * finds a region's through an automatic index on them. (Through the name
 * index, each region probed every source's rows of its name: quadratic in
 * the sweep's traces; through region_source, each of a trace's regions
 * read all of its regions: 1.84 CPU-s of 1,920 traces, 0.45 this way.) */
#define COLLECTIVES \
	", coll AS MATERIALIZED (SELECT DISTINCT c.source_id AS src, c.name_id, c.rank" \
	"  FROM region c JOIN dict ck ON ck.id = c.kind_id WHERE ck.s = 'collective') "

static const char sql[] = TRACES COLLECTIVES
	"SELECT d.s, k.s, tr.strategy, tr.n, tr.rep, tr.rank, tr.tid,"
	"  g.self_ns * 1e-9 / tr.steps, tr.status, tr.rid"
	" FROM region g JOIN tr ON tr.src = g.source_id AND g.rank IS tr.trank"
	" JOIN dict d ON d.id = g.name_id JOIN dict k ON k.id = g.kind_id"
	" WHERE k.s NOT IN ('step', 'collective') AND g.self_ns IS NOT NULL"
	"  AND NOT EXISTS (SELECT 1 FROM coll c"
	"   WHERE c.src = g.source_id AND c.name_id = g.name_id AND c.rank IS g.rank)"
	" UNION ALL"
	" SELECT d.s, 'collective', tr.strategy, tr.n, tr.rep, tr.rank, tr.tid,"
	"  sum(g.self_ns) * 1e-9 / tr.steps, tr.status, tr.rid"
	" FROM region g JOIN tr ON tr.src = g.source_id AND g.rank IS tr.trank"
	" JOIN dict d ON d.id = g.name_id JOIN dict k ON k.id = g.kind_id"
	" WHERE k.s = 'collective' AND g.self_ns IS NOT NULL GROUP BY tr.tid, g.name_id"
	" UNION ALL"
	" SELECT '" AMD_REGION_STEP "', 'step', tr.strategy, tr.n, tr.rep, tr.rank, tr.tid,"
	"  sum(s.dur_ns) * 1e-9 / tr.steps, tr.status, tr.rid"
	" FROM trace_step s JOIN tr ON tr.tid = s.trace_id GROUP BY s.trace_id"
	" ORDER BY 3, 4, 5, 10, 7";

void amd_region_times_free(struct amd_region_time *v, size_t n)
{
	for (size_t i = 0; i < n && v; i++) {
		free(v[i].name);
		free(v[i].kind);
		free(v[i].strategy);
	}
	free(v);
}

/* Fills r from the current row; -1 when out of memory. */
static int read_row(sqlite3_stmt *q, struct amd_region_time *r)
{
	memset(r, 0, sizeof *r);
	if (amd_store_col_text(q, 0, &r->name) < 0 || amd_store_col_text(q, 1, &r->kind) < 0
	    || amd_store_col_text(q, 2, &r->strategy) < 0)
		return -1;
	r->n = sqlite3_column_int(q, 3);
	r->repeat = sqlite3_column_int(q, 4);
	r->rank = sqlite3_column_int(q, 5);
	r->trace_id = sqlite3_column_int64(q, 6);
	r->seconds = sqlite3_column_double(q, 7);
	r->run_id = sqlite3_column_int64(q, 9);
	return r->name && r->kind && r->strategy ? 0 : -1;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The ids of the logical runs selector text picks, sorted, in *ids. */
static int selected_ids(struct amd_store *st, const char *text, int64_t **ids, size_t *n,
			struct amd_err *err)
{
	struct amd_run_view *v;
	if (amd_select_runs(st, text, &v, n, err) < 0)
		return -1;
	*ids = malloc((*n ? *n : 1) * sizeof **ids);
	for (size_t i = 0; *ids && i < *n; i++)
		(*ids)[i] = v[i].id;
	amd_runs_free(v, *n);
	if (!*ids)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	qsort(*ids, *n, sizeof **ids, cmp_id);
	return 0;
}

/* 1 when the row of q is wanted: a counted run, and one of ids (NULL:
 * any run). */
static int row_wanted(sqlite3_stmt *q, const int64_t *ids, size_t nids)
{
	int64_t rid = sqlite3_column_int64(q, 9);
	return amd_status_ok(sqlite3_column_int(q, 8))
		&& (!ids || bsearch(&rid, ids, nids, sizeof *ids, cmp_id));
}

int amd_store_region_times(struct amd_store *st, const char *sweep,
			   struct amd_region_time **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	int64_t *ids = NULL;
	size_t nids = 0;
	int by_selector = sweep && amd_selector_is(sweep);
	if (by_selector && selected_ids(st, sweep, &ids, &nids, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q) {
		free(ids);
		return -1;
	}
	if (sweep && !by_selector)
		sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (!row_wanted(q, ids, nids))
			continue;
		if (amd_grow(out, *n, &cap, sizeof **out, 256) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_region_time *r = &(*out)[*n];
		int bad = read_row(q, r);
		(*n)++;
		if (bad < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	free(ids);
	if (amd_store_rows_done(st, q, rc, err) < 0) {
		amd_region_times_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
