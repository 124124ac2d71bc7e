/* region_walk.c — rj_emit (region_join.h): the joined rows walked trace
 * by trace in the output order — each trace's operator rows (scan
 * order), its collectives summed per name, its step — into the rows and
 * traces of amd_store_region_set (region_times.h); where a strategy's
 * observations are its runs (amd_region_runs_rule), a run's traces are
 * summed into one row per region as they are walked, so the millions of
 * per-trace rows of a big sweep are never made. The output is sized
 * first by counting (count_rows: regions marked, nothing summed). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "region_join.h"
#include "huge_map.h"

/* The output's strings, each once, after its rows in the same block. */
struct pool {
	char *at;
	const char **name;     /* names[i].s's copy */
	const char **strategy; /* trace i's strategy's copy */
	const char *coll, *step, *step_name;
};

struct walk {
	struct rj *j;
	const struct rj_row **coll; /* the collective rows by (trace, name) */
	size_t nc, *coll_at;        /* trace t's: coll[coll_at[t]..coll_at[t + 1]) */
	uint32_t *ops;              /* the operator rows that count, by trace order: */
	size_t *ops_at;             /* order o's: ops[ops_at[o]..ops_at[o + 1]) */
	size_t *cell_ti;            /* traces[k]'s trace index */
	unsigned char *per_run;     /* traces[k]'s run is summed into one row */
	double *tsum, *rsum;        /* by group: this trace's and this run's sums */
	uint32_t *tmark, *rmark, *ttouch, *rtouch, tstamp, rstamp;
	size_t nt, nr;
	uint32_t step_group;
	struct pool p;
	struct amd_region_time *out; /* count_rows' rows */
	size_t nout;
	struct amd_region_trace *traces;
	size_t ntraces;
};

static const char *put(struct pool *p, const char *s)
{
	size_t len = strlen(s) + 1;
	char *o = memcpy(p->at, s, len);
	p->at += len;
	return o;
}

/* Bytes of every string the pool holds. */
static size_t pool_bytes(const struct rj *j)
{
	size_t b = sizeof "collective" + sizeof "step" + sizeof AMD_REGION_STEP;
	for (size_t i = 0; i < j->nnames; i++)
		b += strlen(j->names[i].s ? j->names[i].s : "") + 1;
	for (size_t i = 0; i < j->ntr; i++)
		b += strlen(j->tr[i].strategy) + 1;
	return b;
}

static void pool_fill(const struct rj *j, struct pool *p)
{
	for (size_t i = 0; i < j->nnames; i++)
		p->name[i] = put(p, j->names[i].s ? j->names[i].s : "");
	for (size_t i = 0; i < j->ntr; i++)
		p->strategy[i] = i && strcmp(j->tr[i].strategy, j->tr[i - 1].strategy) == 0
			? p->strategy[i - 1] : put(p, j->tr[i].strategy);
	p->coll = put(p, "collective");
	p->step = put(p, "step");
	p->step_name = put(p, AMD_REGION_STEP);
}

/* 1 when an operator row r is hidden by its trace's collective of that
 * name (searched among its trace's collectives only). */
static int hidden(const struct walk *w, const struct rj_row *r)
{
	const struct rj_row *key = r;
	size_t a = w->coll_at[r->trace], n = w->coll_at[r->trace + 1] - a;
	return n && bsearch(&key, w->coll + a, n, sizeof *w->coll, rj_cmp_coll) != NULL;
}

/* 1 when row r is an operator row that counts (not a collective, not hidden). */
static int counts(const struct walk *w, const struct rj_row *r)
{
	return r->has_self && !r->coll && !hidden(w, r);
}

/* The collective rows sorted by (trace, name), each with its group, and
 * where each trace's start. */
static int collectives(struct walk *w)
{
	struct rj *j = w->j;
	size_t k = 0;
	for (size_t i = 0; i < j->nrows; i++)
		k += j->rows[i].coll;
	w->coll = malloc((k ? k : 1) * sizeof *w->coll);
	w->coll_at = calloc(j->ntr + 1, sizeof *w->coll_at);
	if (!w->coll || !w->coll_at)
		return -1;
	/* the collectives' regions in the order their first rows came (a
	 * pair is made at its first row) */
	for (size_t p = 0; p < j->npairs; p++) {
		if (!(j->coll_kind && j->pairs[p].kind_id == j->coll_kind))
			continue;
		int64_t g = rj_group(j, RJ_KIND_COLL, j->pairs[p].name);
		if (g < 0)
			return -1;
		j->pairs[p].group = (uint32_t)g;
	}
	for (size_t i = 0; i < j->nrows; i++) {
		struct rj_row *r = &j->rows[i];
		if (!r->coll)
			continue;
		w->coll[w->nc++] = r;
		w->coll_at[r->trace + 1]++;
	}
	if (rj_coll_of(j) < 0)
		return -1;
	if (w->nc > 1)
		qsort(w->coll, w->nc, sizeof *w->coll, rj_cmp_coll);
	for (size_t t = 0; t < j->ntr; t++)
		w->coll_at[t + 1] += w->coll_at[t];
	return 0;
}

/* The operator rows that count, by their trace's order (scan order within). */
static int operators(struct walk *w)
{
	struct rj *j = w->j;
	w->ops_at = calloc(j->ntr + 1, sizeof *w->ops_at);
	if (!w->ops_at || j->nrows > UINT32_MAX)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < j->nrows; i++) {
		struct rj_row *r = &j->rows[i];
		r->counts = counts(w, r) != 0;
		w->ops_at[j->tr[r->trace].order + 1] += r->counts;
		k += r->counts;
	}
	w->ops = malloc((k ? k : 1) * sizeof *w->ops);
	size_t *at = malloc((j->ntr + 1) * sizeof *at);
	if (!w->ops || !at) {
		free(at);
		return -1;
	}
	amd_huge_hint(w->ops, k * sizeof *w->ops);
	for (size_t o = 0; o < j->ntr; o++)
		w->ops_at[o + 1] += w->ops_at[o];
	memcpy(at, w->ops_at, (j->ntr + 1) * sizeof *at);
	for (size_t i = 0; i < j->nrows; i++)
		if (j->rows[i].counts)
			w->ops[at[j->tr[j->rows[i].trace].order]++] = (uint32_t)i;
	free(at);
	return 0;
}

/* The end of the group of collectives starting at a; *any when one has a time. */
static size_t coll_group(const struct walk *w, size_t a, int64_t *sum, int *any)
{
	size_t b = a;
	*sum = 0;
	*any = 0;
	for (; b < w->nc && rj_cmp_coll(&w->coll[a], &w->coll[b]) == 0; b++)
		if (w->coll[b]->has_self) {
			*sum += w->coll[b]->self_ns;
			*any = 1;
		}
	return b;
}

/* How many rows trace ti of order o has. */
static size_t trace_rows(const struct walk *w, size_t ti, size_t o)
{
	size_t k = w->ops_at[o + 1] - w->ops_at[o] + (w->j->tr[ti].nsteps > 0);
	int64_t sum;
	int any;
	for (size_t a = w->coll_at[ti], b; a < w->coll_at[ti + 1]; a = b) {
		b = coll_group(w, a, &sum, &any);
		k += any;
	}
	return k;
}

/* The traces that have rows, in order, and which are summed per run. */
static int cells(struct walk *w, size_t per_run_above)
{
	const struct rj *j = w->j;
	size_t *by_order = malloc((j->ntr ? j->ntr : 1) * sizeof *by_order);
	w->traces = calloc(j->ntr + 1, sizeof *w->traces);
	w->cell_ti = malloc((j->ntr + 1) * sizeof *w->cell_ti);
	w->per_run = calloc(j->ntr + 1, 1);
	if (!by_order || !w->traces || !w->cell_ti || !w->per_run) {
		free(by_order);
		return -1;
	}
	for (size_t i = 0; i < j->ntr; i++)
		by_order[j->tr[i].order] = i;
	for (size_t o = 0; o < j->ntr; o++) {
		const struct rj_trace *t = &j->tr[by_order[o]];
		if (trace_rows(w, by_order[o], o) == 0)
			continue;
		w->cell_ti[w->ntraces] = by_order[o];
		w->traces[w->ntraces++] = (struct amd_region_trace){
			t->strategy, t->n, t->rep, t->rid, t->tid, 1 };
	}
	free(by_order);
	for (size_t a = 0, b; per_run_above && a < w->ntraces; a = b) {
		for (b = a; b < w->ntraces && strcmp(w->traces[b].strategy, w->traces[a].strategy) == 0;)
			b++;
		int rule = amd_region_runs_rule(w->traces + a, b - a, per_run_above);
		memset(w->per_run + a, rule, b - a);
	}
	return 0;
}

/* One output row of trace ti, region g. */
static void emit_row(struct walk *w, size_t ti, uint32_t g, double seconds, int rank)
{
	size_t k = w->nout++;
	const struct rj_trace *t = &w->j->tr[ti];
	const struct rj_group *gr = &w->j->groups[g];
	const struct pool *p = &w->p;
	w->out[k] = (struct amd_region_time){
		.name = gr->kind == RJ_KIND_STEP ? p->step_name : p->name[gr->name],
		.kind = gr->kind == RJ_KIND_COLL ? p->coll
			: gr->kind == RJ_KIND_STEP ? p->step : p->name[gr->kind - RJ_KIND_DICT],
		.strategy = p->strategy[ti],
		.n = t->n, .repeat = t->rep, .rank = rank, .trace_id = t->tid, .run_id = t->rid,
		.seconds = seconds,
	};
}

/* Trace ti's (traces[k]'s) value ns of region g: a row, or added to its
 * trace's sum of g; *step and *sum its overlap's terms. */
static void value(struct walk *w, size_t k, size_t ti, uint32_t g, int64_t ns, double v[2])
{
	const struct rj_trace *t = &w->j->tr[ti];
	double s = (double)ns * 1e-9 / (double)(t->nsteps > 1 ? t->nsteps : 1);
	v[w->j->groups[g].kind == RJ_KIND_STEP] += s;
	if (!w->per_run[k]) {
		emit_row(w, ti, g, s, t->rank);
		return;
	}
	if (w->tmark[g] != w->tstamp) {
		w->tmark[g] = w->tstamp;
		w->ttouch[w->nt++] = g;
	}
	w->tsum[g] += s;
}

/* traces[k]'s rows in order: operators, collectives per name, step. */
static void walk_trace(struct walk *w, size_t k)
{
	size_t ti = w->cell_ti[k], o = w->j->tr[ti].order;
	double v[2] = { 0, 0 }; /* the other rows' seconds, the step's */
	for (size_t i = w->ops_at[o]; i < w->ops_at[o + 1]; i++) {
		const struct rj_row *r = &w->j->rows[w->ops[i]];
		value(w, k, ti, w->j->pairs[r->pair].group, r->self_ns, v);
	}
	int64_t sum;
	int any;
	for (size_t a = w->coll_at[ti], b; a < w->coll_at[ti + 1]; a = b) {
		b = coll_group(w, a, &sum, &any);
		if (any)
			value(w, k, ti, w->j->pairs[w->coll[a]->pair].group, sum, v);
	}
	const struct rj_trace *t = &w->j->tr[ti];
	if (t->nsteps > 0)
		value(w, k, ti, w->step_group, t->step_ns, v);
	w->traces[k].overlap = v[1] > 0 && v[0] > 0 ? v[1] / v[0] : 1;
}

/* The trace's sums added to its run's (in the traces' order, as a
 * caller adding per-trace rows would). */
static void trace_to_run(struct walk *w)
{
	for (size_t i = 0; i < w->nt; i++) {
		uint32_t g = w->ttouch[i];
		if (w->rmark[g] != w->rstamp) {
			w->rmark[g] = w->rstamp;
			w->rtouch[w->nr++] = g;
		}
		w->rsum[g] += w->tsum[g];
		w->tsum[g] = 0;
	}
	w->nt = 0;
	w->tstamp++;
}

/* The run of traces[k] (its first trace ti): one row per region. */
static void run_rows(struct walk *w, size_t ti)
{
	for (size_t i = 0; i < w->nr; i++) {
		uint32_t g = w->rtouch[i];
		emit_row(w, ti, g, w->rsum[g], -1);
		w->rsum[g] = 0;
	}
	w->nr = 0;
	w->rstamp++;
}

/* 1 when traces[k] starts a new observation (run or n; a run is of one
 * strategy). */
static int new_unit(const struct walk *w, size_t k)
{
	const struct amd_region_trace *a = &w->traces[k - 1], *b = &w->traces[k];
	return a->run_id != b->run_id || a->n != b->n;
}

/* Marks group g in the current run; 1 when it is new there. */
static int mark(struct walk *w, uint32_t g)
{
	if (w->rmark[g] == w->rstamp)
		return 0;
	w->rmark[g] = w->rstamp;
	return 1;
}

/* The rows walk_all writes, counted without summing: a trace's own rows
 * (trace_rows), or, for traces summed per run, the distinct regions of
 * each run. */
static size_t count_rows(struct walk *w)
{
	size_t n = 0;
	for (size_t k = 0; k < w->ntraces; k++) {
		size_t ti = w->cell_ti[k], o = w->j->tr[ti].order;
		if (!w->per_run[k]) {
			n += trace_rows(w, ti, o);
			continue;
		}
		if (!k || !w->per_run[k - 1] || new_unit(w, k))
			w->rstamp++;
		for (size_t i = w->ops_at[o]; i < w->ops_at[o + 1]; i++)
			n += mark(w, w->j->pairs[w->j->rows[w->ops[i]].pair].group);
		int64_t sum;
		int any;
		for (size_t a = w->coll_at[ti], b; a < w->coll_at[ti + 1]; a = b) {
			b = coll_group(w, a, &sum, &any);
			n += any && mark(w, w->j->pairs[w->coll[a]->pair].group);
		}
		if (w->j->tr[ti].nsteps > 0)
			n += mark(w, w->step_group);
	}
	w->rstamp++;
	return n;
}

/* Every trace walked, its rows written. */
static void walk_all(struct walk *w)
{
	size_t first = 0; /* the current run's first trace */
	for (size_t k = 0; k < w->ntraces; k++) {
		if (k && w->per_run[k - 1] && new_unit(w, k))
			run_rows(w, w->cell_ti[first]);
		if (!k || new_unit(w, k))
			first = k;
		walk_trace(w, k);
		if (w->per_run[k])
			trace_to_run(w);
	}
	if (w->ntraces && w->per_run[w->ntraces - 1])
		run_rows(w, w->cell_ti[first]);
}

/* The group sums and marks, the step's group. */
static int scratch(struct walk *w)
{
	int64_t step = rj_group(w->j, RJ_KIND_STEP, 0);
	size_t n = w->j->ngroups + 1;
	w->tsum = calloc(n, sizeof *w->tsum);
	w->rsum = calloc(n, sizeof *w->rsum);
	w->tmark = calloc(n, sizeof *w->tmark);
	w->rmark = calloc(n, sizeof *w->rmark);
	w->ttouch = malloc(n * sizeof *w->ttouch);
	w->rtouch = malloc(n * sizeof *w->rtouch);
	w->tstamp = w->rstamp = 1;
	w->step_group = (uint32_t)step;
	return step >= 0 && w->tsum && w->rsum && w->tmark && w->rmark && w->ttouch && w->rtouch
		? 0 : -1;
}

/* The output block: rows, then the pool's strings; the rows written. */
static int emit(struct walk *w, struct amd_region_set *s)
{
	const struct rj *j = w->j;
	w->p.name = calloc(j->nnames + 1, sizeof *w->p.name);
	w->p.strategy = calloc(j->ntr + 1, sizeof *w->p.strategy);
	size_t rows = w->nout * sizeof *w->out;
	size_t bytes = rows + pool_bytes(j);
	w->out = w->p.name && w->p.strategy ? malloc(bytes) : NULL;
	if (!w->out)
		return -1;
	amd_huge_hint(w->out, bytes);
	w->p.at = (char *)w->out + rows;
	pool_fill(j, &w->p);
	for (size_t k = 0; k < w->ntraces; k++)
		w->traces[k].strategy = w->p.strategy[w->cell_ti[k]];
	w->nout = 0;
	walk_all(w);
	s->rows = w->out;
	s->nrows = w->nout;
	s->traces = w->traces;
	s->ntraces = w->ntraces;
	w->traces = NULL;
	return 0;
}

static void walk_free(struct walk *w)
{
	free(w->coll);
	free(w->coll_at);
	free(w->ops);
	free(w->ops_at);
	free(w->cell_ti);
	free(w->per_run);
	free(w->tsum);
	free(w->rsum);
	free(w->tmark);
	free(w->rmark);
	free(w->ttouch);
	free(w->rtouch);
	free(w->p.name);
	free(w->p.strategy);
	free(w->traces);
}

int rj_emit(struct rj *j, size_t per_run_above, struct amd_region_set *s)
{
	struct walk w;
	memset(&w, 0, sizeof w);
	memset(s, 0, sizeof *s);
	w.j = j;
	int rc = collectives(&w) == 0 && operators(&w) == 0 && cells(&w, per_run_above) == 0
		&& scratch(&w) == 0 ? 0 : -1;
	if (rc == 0) {
		w.nout = count_rows(&w);
		rc = emit(&w, s);
	}
	if (rc < 0)
		free(w.out);
	walk_free(&w);
	return rc;
}

int amd_region_runs_rule(const struct amd_region_trace *c, size_t nc, size_t above)
{
	size_t most = 0, fewest_runs = SIZE_MAX;
	for (size_t a = 0; a < nc;) {
		size_t b = a, runs = 0;
		for (; b < nc && c[b].n == c[a].n; b++)
			runs += b == a || c[b].run_id != c[b - 1].run_id;
		most = b - a > most ? b - a : most;
		fewest_runs = runs < fewest_runs ? runs : fewest_runs;
		a = b;
	}
	return most > above && fewest_runs >= 2;
}

void amd_region_times_free(struct amd_region_time *v)
{
	free(v);
}

void amd_region_set_free(struct amd_region_set *s)
{
	free(s->rows);
	free(s->traces);
	memset(s, 0, sizeof *s);
}
