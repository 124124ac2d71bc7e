/* region_times.c — amd_store_region_times (region_times.h): the regions
 * (issue 14's table `region`) of every trace of the sweep's counted runs,
 * each divided by the trace's number of profiled steps.
 * Normalisation rule: a region is per profiled step of its own source
 * file, so only regions whose source is a profiler trace with steps
 * (Kineto: operators, annotations, kernels, collectives, ...) are read;
 * regions of sources without a step count (cProfile, Nsight Systems,
 * py-spy, key_averages) are left out — their "per run" numbers would not
 * add up with per-step ones. Left out too: regions of kind step (the
 * profiler's span, ProfilerStep#N; the step is its own row from
 * trace_step) and operators also recorded as collectives of the same
 * trace (the collective's summed duration stands for them; a trace's
 * collectives of one name are one row, their sum).
 * How: the traces (a few per run) come from SQL; the region rows (about
 * 77 a trace, millions in a big sweep) from one plain scan of the table,
 * joined to their trace and ordered in C (region_join.c) — SQLite's
 * joins, sorter and GROUP BY over every row cost 8x as much. */
#include <stdlib.h>
#include <string.h>

#include "region_times.h"
#include "region_join.h"
#include "region_scan.h"
#include "sqlite_int.h"
#include "buf.h"
#include "run.h"
#include "selector.h"

/* Each trace with its logical run (a child worker's parent), its steps
 * and their summed duration, in the rows' order (region_times.h): by
 * strategy, n, repeat, then the logical run's ext_id and the trace's
 * file path and rank — names, not row ids, so that stores holding the
 * same files, ingested in any order or by any number of workers, sum
 * and fit in the same order (t.id last: one file's traces of one rank,
 * numbered as that file was read). The steps' count and summed
 * duration come from one join grouped by trace (every other column
 * follows from t.id: r, l, w and f are each one row at most), not two
 * correlated subqueries run for each trace: 64,000 traces of a 1,000 x
 * 64 sweep, a tenth of this query's time (issue 38 item 4). */
static const char traces_sql[] =
	"SELECT t.id, coalesce(t.rank, -1), t.source_id, t.rank IS NULL,"
	"  coalesce(l.id, r.id), coalesce(l.strategy, r.strategy, ''),"
	"  coalesce(l.n, r.n, 0), coalesce(l.repeat, r.repeat, 0), coalesce(l.status, r.status, 0),"
	"  count(s.trace_id), sum(s.dur_ns)"
	"  FROM trace t JOIN run r ON r.id = t.run_id"
	"  LEFT JOIN run l ON l.ext_id = r.parent_ext_id"
	"  JOIN sweep w ON w.id = coalesce(l.sweep_id, r.sweep_id)"
	"  LEFT JOIN source f ON f.id = t.source_id"
	"  LEFT JOIN trace_step s ON s.trace_id = t.id"
	"  WHERE ?1 IS NULL OR w.name = ?1"
	"  GROUP BY t.id"
	"  ORDER BY 6, 7, 8, coalesce(l.ext_id, r.ext_id), f.path, t.rank, t.id";

/* Every region row that may count: with a time, or a collective (whose
 * name hides the same trace's operators of that name even without one):
 * `WHERE kind_id IS NOT step AND (self_ns IS NOT NULL OR kind_id IS
 * collective)`, a kind absent from the store (0) being NULL there. Its
 * columns: source_id, rank, name_id, kind_id, self_ns. */
struct times_where {
	int64_t step, coll;
};

static int times_keep(const void *arg, const struct rs_row *w)
{
	const struct times_where *k = arg;
	int no_kind = (w->null >> 3) & 1;
	int not_step = k->step ? no_kind || w->v[3] != k->step : !no_kind;
	int is_coll = k->coll ? !no_kind && w->v[3] == k->coll : no_kind;
	return not_step && (!(w->null & 1u << 4) || is_coll);
}

/* 1 when trace row q is wanted: a counted run, and one of ids (NULL:
 * any run). */
static int trace_wanted(sqlite3_stmt *q, const int64_t *ids, size_t nids)
{
	int64_t rid = sqlite3_column_int64(q, 4);
	return amd_status_ok(sqlite3_column_int(q, 8))
		&& (!ids || (nids && bsearch(&rid, ids, nids, sizeof *ids, amd_id_cmp)));
}

static int read_trace(sqlite3_stmt *q, struct rj_trace *t)
{
	memset(t, 0, sizeof *t);
	t->tid = sqlite3_column_int64(q, 0);
	t->rank = sqlite3_column_int(q, 1);
	t->src = sqlite3_column_int64(q, 2);
	t->null_rank = sqlite3_column_int(q, 3);
	t->rid = sqlite3_column_int64(q, 4);
	t->n = sqlite3_column_int(q, 6);
	t->rep = sqlite3_column_int(q, 7);
	t->nsteps = sqlite3_column_int64(q, 9);
	t->step_ns = sqlite3_column_int64(q, 10); /* NULL (no duration): 0 */
	return amd_store_col_text(q, 5, &t->strategy) < 0 || !t->strategy ? -1 : 0;
}

/* The sweep's wanted traces into j. */
static int load_traces(struct amd_store *st, const char *sweep, struct rj *j,
		       struct amd_err *err)
{
	int64_t *ids = NULL;
	size_t nids = 0, cap = 0;
	int by_selector = sweep && amd_store_selector_is(st, sweep);
	if (by_selector && amd_select_run_ids(st, sweep, &ids, &nids, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(st, traces_sql, err);
	if (!q) {
		free(ids);
		return -1;
	}
	if (sweep && !by_selector)
		sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (!trace_wanted(q, ids, nids))
			continue;
		if (amd_grow(&j->tr, j->ntr, &cap, sizeof *j->tr, 64) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		if (read_trace(q, &j->tr[j->ntr++]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	free(ids);
	return amd_store_rows_done(st, q, rc, err);
}

/* Room in j for as many rows as the store holds regions (the packs'
 * counts summed: no pack unpacked, as count(*) over the region virtual
 * table would; not the largest id, which a store loaded from ClickHouse
 * leaves far above the count), so they are not copied while they grow;
 * pages untouched cost no memory. */
static int reserve_rows(struct amd_store *st, struct rj *j, struct amd_err *err)
{
	int64_t most = amd_store_first_id(st, "SELECT sum(n) FROM region_pack", NULL, NULL, err);
	if (most < 0)
		return -1;
	if (rj_reserve(j, (size_t)most) < 0)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	return 0;
}

/* The dict ids of kinds step and collective, room for the rows. */
static int regions_prep(struct amd_store *st, struct rj *j, int64_t *step, int64_t *coll,
			struct amd_err *err)
{
	*step = amd_store_dict_id(st, "step", err); /* 0: no such kind */
	*coll = amd_store_dict_id(st, "collective", err);
	if (*step < 0 || *coll < 0 || reserve_rows(st, j, err) < 0)
		return -1;
	j->coll_kind = *coll;
	return 0;
}

/* The rows times_keep keeps (rs_scan's batches) into j. */
static int add_regions(void *ctx, const struct rs_row *w, size_t n)
{
	struct rj *j = ctx;
	for (size_t i = 0; i < n; i++) {
		const struct rs_row *x = &w[i];
		struct rj_in r = { x->v[2], x->v[3], x->v[4], !(x->null & 1u << 4) };
		/* the rank as sqlite3_column_int gives it */
		if (rj_add(j, x->v[0], (x->null >> 1) & 1, (int)x->v[1], &r) < 0)
			return -1;
	}
	return 0;
}

/* Every region row of j's traces into j. */
static int load_regions(struct amd_store *st, struct rj *j, struct amd_err *err)
{
	int64_t step, coll;
	if (regions_prep(st, j, &step, &coll, err) < 0)
		return -1;
	struct times_where k = { step, coll };
	const struct rs_query q = { 5, { RS_SOURCE, AMD_RG_RANK, AMD_RG_NAME, AMD_RG_KIND, AMD_RG_SELF },
				    times_keep, &k, 0, NULL, 0 };
	return rs_scan(st, &q, add_regions, j, err);
}

/* The dict strings of j's names and kinds ("" for an id the dict has
 * not). */
static int load_names(struct amd_store *st, struct rj *j, struct amd_err *err)
{
	if (amd_store_texts(st, j->names, j->nnames, err) < 0)
		return -1;
	for (size_t i = 0; i < j->nnames; i++)
		if (!j->names[i].s && !(j->names[i].s = strdup("")))
			return amd_fail(err, "%s: out of memory", amd_store_path(st));
	return 0;
}

/* The stash of a shared scan (rj_stash_begin) when it is of sweep; it
 * stays the share's (rj_emit only reads it), for each region set of the
 * sweep asked in the snapshot (a report's limits and explain). */
static struct rj_stash *take_stash(struct amd_region_share *sh, const char *sweep)
{
	struct rj_stash *s = sh ? sh->stash : NULL;
	if (!s || !sweep || strcmp(s->sweep, sweep) != 0)
		return NULL;
	return s;
}

int amd_store_region_set(struct amd_store *st, const char *sweep, size_t per_run_above,
			 struct amd_region_share *share, struct amd_region_set *out,
			 struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct rj_stash *kept = take_stash(share, sweep);
	if (kept) { /* read by a sweep's region list in this snapshot */
		return rj_emit(&kept->j, per_run_above, out) < 0
			? amd_fail(err, "%s: out of memory", amd_store_path(st)) : 0;
	}
	struct rj j;
	rj_init(&j);
	int rc = load_traces(st, sweep, &j, err);
	if (rc == 0 && rj_index(&j) < 0)
		rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
	if (rc == 0)
		rc = load_regions(st, &j, err);
	if (rc == 0)
		rc = load_names(st, &j, err);
	if (rc == 0 && rj_emit(&j, per_run_above, out) < 0)
		rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
	rj_free(&j);
	return rc;
}

void rj_stash_free(struct rj_stash *s)
{
	if (!s)
		return;
	rj_free(&s->j);
	free(s->sweep);
	free(s);
}

struct amd_region_share *amd_region_share_new(void)
{
	return calloc(1, sizeof(struct amd_region_share));
}

void amd_region_share_free(struct amd_region_share *sh)
{
	if (sh)
		rj_stash_free(sh->stash);
	free(sh);
}

int rj_stash_begin(struct amd_store *st, const char *sweep, struct rj_stash **out,
		   struct amd_err *err)
{
	*out = NULL;
	if (amd_store_selector_is(st, sweep))
		return 0;
	struct rj_stash *s = calloc(1, sizeof *s);
	if (!s || !(s->sweep = strdup(sweep))) {
		free(s);
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	rj_init(&s->j);
	int rc = load_traces(st, sweep, &s->j, err);
	if (rc == 0 && rj_index(&s->j) < 0)
		rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
	if (rc == 0)
		rc = regions_prep(st, &s->j, &s->step, &s->coll, err);
	if (rc < 0) {
		rj_stash_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

int rj_stash_row(struct rj_stash *s, int64_t src, int null_rank, int rank, int64_t name_id,
		 int64_t kind_id, int64_t self_ns, int has_self)
{
	/* times_keep's test: kind_id IS NOT step AND (self_ns IS NOT NULL OR kind_id IS coll) */
	if ((s->step && kind_id == s->step) || !(has_self || (s->coll && kind_id == s->coll)))
		return 0;
	struct rj_in r = { name_id, kind_id, self_ns, has_self };
	return rj_add(&s->j, src, null_rank, rank, &r);
}

int rj_stash_end(struct amd_store *st, struct rj_stash *s, struct amd_region_share *sh,
		 struct amd_err *err)
{
	if (load_names(st, &s->j, err) < 0) {
		rj_stash_free(s);
		return -1;
	}
	rj_stash_free(sh->stash);
	sh->stash = s;
	return 0;
}

int amd_store_region_times(struct amd_store *st, const char *sweep,
			   struct amd_region_time **out, size_t *n, struct amd_err *err)
{
	struct amd_region_set s;
	int rc = amd_store_region_set(st, sweep, 0, NULL, &s, err);
	free(s.traces);
	*out = s.rows;
	*n = s.nrows;
	return rc;
}
