/* scaling.c — the regions of a sweep's strategies from the store's
 * region times, each fitted (region_fit.h), then the whole and the
 * advice (scaling_whole.c), then ranked (scaling.h). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaling.h"
#include "buf.h"
#include "huge_map.h"
#include "region_times.h"
#include "scaling_axis.h"
#include "scaling_group.h"
#include "stats.h"
#include "runs.h"
#include "store_read.h"

/* The observations of a strategy's regions: its traces, or its runs
 * (of[a] the run of cell a, runs numbered in cell order; n of them). */
struct units {
	size_t *of, n;
	int mean;      /* 1: the observations are the runs' means */
};

static int cmp_row(const void *a, const void *b)
{
	const struct amd_region_time *x = *(const struct amd_region_time *const *)a;
	const struct amd_region_time *y = *(const struct amd_region_time *const *)b;
	/* the store's rows share one copy of each string */
	int c = x->kind == y->kind ? 0 : strcmp(x->kind, y->kind);
	if (!c && x->name != y->name)
		c = strcmp(x->name, y->name);
	return c;
}

static void model_free(struct amd_region_model *r)
{
	free(r->name);
	free(r->kind);
	free(r->pred);
	free(r->measured);
	amd_rfit_free(&r->fit);
}

static void strategy_free(struct amd_scaling_strategy *s)
{
	free(s->strategy);
	free(s->ns);
	model_free(&s->step);
	free(s->overlap);
	for (size_t i = 0; i < s->nregions; i++)
		model_free(&s->regions[i]);
	free(s->regions);
	free(s->whole);
	free(s->advice);
}

void amd_scaling_free(struct amd_scaling *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nstrategies; i++)
		strategy_free(&s->strategies[i]);
	free(s->strategies);
	free(s->sweep);
	free(s);
}

/* Where rows[0..m) fall in the cells c[0..nc) (traces) — one strategy,
 * both ordered by n, repeat, run, trace, so a trace's rows are together
 * (a run's, when its rows are per run: they name its first trace): row a
 * is of cell cell_of[a]. */
static void cells_of(const struct amd_region_time *rows, size_t m, const struct amd_region_trace *c,
		     size_t nc, size_t *cell_of)
{
	size_t k = 0;
	for (size_t a = 0; a < m; a++) {
		while (k + 1 < nc && c[k].trace_id != rows[a].trace_id)
			k++;
		cell_of[a] = k;
	}
}

/* The runs of a strategy's cells: u->of[a] is cell a's run, u->n
 * their count. The ranks of one run share its noise, so the run is the
 * independent unit of the intervals (issue 33: ranks taken as repeats
 * gave "95%" intervals that covered 20-52% with one run per n). When
 * some n has more than AMD_SCALING_RANK_OBS rank traces and every n at
 * least two runs, the observations are the runs' means (u->mean); else
 * one per trace, the fit told which run each is of. */
static int run_units(const struct amd_region_trace *c, size_t nc, struct units *u)
{
	u->of = NULL;
	u->n = 0;
	u->mean = amd_region_runs_rule(c, nc, AMD_SCALING_RANK_OBS);
	if (!(u->of = malloc(nc * sizeof *u->of)))
		return -1;
	for (size_t a = 0; a < nc; a++) {
		u->n += a == 0 || c[a].run_id != c[a - 1].run_id || c[a].n != c[a - 1].n;
		u->of[a] = u->n - 1;
	}
	return 0;
}

/* obs from the cells' values yc: one per cell, or per run the mean of
 * its cells. */
static int observe(const struct amd_region_trace *c, size_t nc, const struct units *u, double *yc,
		   struct amd_region_obs *obs)
{
	if (!u->mean) {
		obs->y = yc;
		obs->m = nc;
		obs->unit = u->of;
		for (size_t a = 0; a < nc; a++)
			obs->n[a] = c[a].n;
		return 0;
	}
	obs->y = calloc(u->n, sizeof *obs->y);
	size_t *k = calloc(u->n, sizeof *k);
	if (!obs->y || !k) {
		free(k);
		free(yc);
		return -1;
	}
	for (size_t a = 0; a < nc; a++) {
		obs->y[u->of[a]] += yc[a];
		obs->n[u->of[a]] = c[a].n;
		k[u->of[a]]++;
	}
	for (size_t r = 0; r < u->n; r++)
		obs->y[r] /= (double)k[r];
	obs->m = u->n;
	free(k);
	free(yc);
	return 0;
}

/* The strategy's cells and where its rows fall in them (row rows + a
 * is of cell cell_of[a]). */
struct cells {
	const struct amd_region_trace *c;
	size_t nc;
	const struct amd_region_time *rows;
	const size_t *cell_of;
};

/* Fits one region whose rows are grp[0..k) into r; obs gets its
 * observations (one per trace, 0 where the trace lacks the region; or
 * one per run, the mean of its traces'). */
static int fit_region(struct amd_region_time **grp, size_t k, const struct cells *cs,
		      const struct units *u, const struct amd_scaling_opts *o,
		      struct amd_region_model *r, struct amd_region_obs *obs)
{
	const struct amd_region_trace *c = cs->c;
	size_t nc = cs->nc;
	memset(r, 0, sizeof *r);
	double *yc = calloc(nc, sizeof *yc);
	obs->n = calloc(nc, sizeof *obs->n);
	r->name = strdup(grp[0]->name);
	r->kind = strdup(grp[0]->kind);
	if (!yc || !obs->n || !r->name || !r->kind) {
		free(yc);
		return -1;
	}
	for (size_t a = 0; a < k; a++)
		yc[cs->cell_of[grp[a] - cs->rows]] += grp[a]->seconds;
	if (observe(c, nc, u, yc, obs) < 0)
		return -1;
	struct amd_rfit_opts fo = { o->resamples, o->seed, o->level, 0.05, o->target, 0 };
	return amd_rfit_search_runs(obs->n, obs->y, obs->unit, obs->m, &fo, &r->fit);
}

static void obs_free(struct amd_region_obs *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].n);
		free(v[i].y);
	}
	free(v);
}

/* The measured n of the cells, distinct and increasing, and the most
 * repeats (runs) at one n. */
static int measured_n(struct amd_scaling_strategy *s, const struct amd_region_trace *c, size_t nc)
{
	s->ns = malloc(nc * sizeof *s->ns);
	if (!s->ns)
		return -1;
	int runs = 0;
	for (size_t a = 0; a < nc; a++) {
		int new_n = !s->nn || s->ns[s->nn - 1] != c[a].n;
		if (new_n) {
			s->ns[s->nn++] = c[a].n;
			runs = 0;
		}
		if (new_n || c[a - 1].repeat != c[a].repeat)
			runs++;
		if (runs > s->repeats)
			s->repeats = runs;
	}
	if (s->repeats < 2)
		strcat(s->note, "one run per n: the run-to-run noise is estimated from the runs'"
		       " scatter about the model. ");
	return 0;
}

/* The overlap factor at each measured n: the mean over its traces of
 * step / (sum of the regions' times) — below 1 when regions run side by
 * side on several threads (each trace's, amd_region_trace). c[0..nc):
 * one strategy's traces; traces without a step count 1. */
static int overlap_at_n(const struct amd_region_trace *c, size_t nc, struct amd_scaling_strategy *s)
{
	s->overlap = calloc(s->nn, sizeof *s->overlap);
	size_t *cnt = calloc(s->nn, sizeof *cnt);
	int rc = s->overlap && cnt ? 0 : -1;
	for (size_t a = 0; rc == 0 && a < nc; a++) {
		size_t k = 0;
		while (s->ns[k] != c[a].n)
			k++;
		s->overlap[k] += c[a].overlap;
		cnt[k]++;
	}
	for (size_t k = 0; rc == 0 && k < s->nn; k++)
		s->overlap[k] /= (double)cnt[k];
	free(cnt);
	return rc;
}

/* One region's fit: its rows grp[0..k) into *r, its observations *ob. */
struct fit_job {
	struct amd_region_time **grp;
	size_t k;
	struct amd_region_model *r;
	struct amd_region_obs *ob;
	int rc;
};

/* The fits of one strategy, taken in turn by FIT_THREADS threads: each
 * writes only its own region (its own generator: amd_rfit_search), so
 * the results do not depend on which thread fitted what. */
#define FIT_THREADS 2
struct fit_pool {
	struct fit_job *jobs;
	size_t n;
	atomic_size_t next;
	const struct cells *cs;
	const struct units *u;
	const struct amd_scaling_opts *o;
};

static void *fit_worker(void *arg)
{
	struct fit_pool *p = arg;
	amd_gsl_thread_quiet(1);
	for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->n;)
		p->jobs[i].rc = fit_region(p->jobs[i].grp, p->jobs[i].k, p->cs, p->u, p->o,
					   p->jobs[i].r, p->jobs[i].ob);
	amd_gsl_thread_quiet(0);
	return NULL;
}

/* Every job of p fitted, on up to `threads` threads (this one among
 * them; fewer when a thread cannot start); -1 when one ran out of memory. */
static int fit_all(struct fit_pool *p, size_t threads)
{
	pthread_t th[FIT_THREADS];
	size_t started = 0;
	gsl_error_handler_t *old = gsl_set_error_handler_off(); /* for every thread's run */
	atomic_init(&p->next, 0);
	while (started + 1 < threads && started + 1 < p->n
	       && pthread_create(&th[started], NULL, fit_worker, p) == 0)
		started++;
	fit_worker(p);
	for (size_t t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	gsl_set_error_handler(old);
	int rc = 0;
	for (size_t i = 0; i < p->n; i++)
		rc |= p->jobs[i].rc;
	return rc < 0 ? -1 : 0;
}

/* The regions of ix[0..m) (grouped by kind and name) as jobs in *jobs,
 * their count in *nj; s->regions and *obs (ng of them) hold a slot for
 * each region but the step, which fits into s->step and *step_obs.
 * *nstep: how many groups are of kind step (one: a strategy's step). */
static int plan_fits(struct amd_region_time **ix, size_t m, struct amd_scaling_strategy *s,
		     struct amd_region_obs **obs, size_t *ng, struct amd_region_obs *step_obs,
		     struct fit_job **jobs, size_t *nj, size_t *nstep)
{
	size_t groups = 0;
	for (size_t a = 0, b; a < m; a = b)
		for (b = a, groups++; b < m && cmp_row(&ix[a], &ix[b]) == 0;)
			b++;
	*jobs = calloc(groups + 1, sizeof **jobs);
	s->regions = calloc(groups + 1, sizeof *s->regions);
	*obs = calloc(groups + 1, sizeof **obs);
	if (!*jobs || !s->regions || !*obs)
		return -1;
	*nj = *ng = *nstep = 0;
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a; b < m && cmp_row(&ix[a], &ix[b]) == 0;)
			b++;
		int is_step = strcmp(ix[a]->kind, "step") == 0;
		*nstep += is_step;
		(*jobs)[(*nj)++] = (struct fit_job){ ix + a, b - a,
			is_step ? &s->step : &s->regions[s->nregions++],
			is_step ? step_obs : &(*obs)[(*ng)++], 0 };
	}
	return 0;
}

/* Fits every region of one strategy's rows (rows[0..m), sorted by n,
 * repeat, run, trace; c[0..nc) its traces) and the step. */
static int fit_strategy(struct amd_region_time *rows, size_t m, const struct amd_region_trace *c, size_t nc,
			struct amd_store *st, const char *sweep, const struct amd_scaling_opts *o,
			struct amd_scaling_strategy *s, struct amd_err *err)
{
	size_t ng = 0, nj = 0, nstep = 0;
	struct amd_region_time **ix = malloc(m * sizeof *ix);
	size_t *cell_of = malloc(m * sizeof *cell_of);
	amd_huge_hint(ix, m * sizeof *ix);
	amd_huge_hint(cell_of, m * sizeof *cell_of);
	struct amd_region_obs *obs = NULL, step_obs = { 0 };
	struct fit_job *jobs = NULL;
	struct units u = { NULL, 0, 0 };
	if (ix && cell_of)
		cells_of(rows, m, c, nc, cell_of);
	int rc = ix && cell_of && measured_n(s, c, nc) == 0 && overlap_at_n(c, nc, s) == 0
		&& run_units(c, nc, &u) == 0 ? 0 : -1;
	s->per_run = u.mean;
	size_t at = strlen(s->note);
	if (s->per_run)
		snprintf(s->note + at, sizeof s->note - at, "more than " AMD_SCALING_RANK_OBS_TEXT
			 " rank traces at one n: one observation per run (the mean over its ranks). ");
	for (size_t a = 0; rc == 0 && a < m; a++)
		ix[a] = &rows[a];
	if (rc == 0)
		rc = amd_scaling_group_rows(ix, m);
	if (rc == 0)
		rc = plan_fits(ix, m, s, &obs, &ng, &step_obs, &jobs, &nj, &nstep);
	struct cells cs = { c, nc, rows, cell_of };
	struct fit_pool pool = { .jobs = jobs, .n = nj, .cs = &cs, .u = &u, .o = o };
	if (rc == 0) /* two steps would share one model: then one thread, in order */
		rc = fit_all(&pool, nstep > 1 ? 1 : FIT_THREADS);
	if (rc < 0)
		amd_fail(err, "scaling: out of memory");
	else
		rc = amd_scaling_whole(s, obs, &step_obs, st, sweep, o, err);
	obs_free(obs, ng);
	free(jobs);
	free(step_obs.n);
	free(step_obs.y);
	free(ix);
	free(cell_of);
	free(u.of);
	return rc;
}

static int cmp_share(const void *a, const void *b)
{
	const struct amd_region_model *x = a, *y = b;
	double p = isnan(x->share_max_n) ? -1 : x->share_max_n;
	double q = isnan(y->share_max_n) ? -1 : y->share_max_n;
	if (p != q)
		return p < q ? 1 : -1;
	int c = strcmp(x->kind, y->kind);
	return c ? c : strcmp(x->name, y->name);
}

/* Ranks the regions and keeps those of kind (NULL: all). */
static void rank_regions(struct amd_scaling_strategy *s, const char *kind)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nregions; i++) {
		if (kind && strcmp(s->regions[i].kind, kind) != 0) {
			model_free(&s->regions[i]);
			continue;
		}
		s->regions[k++] = s->regions[i];
	}
	s->nregions = k;
	qsort(s->regions, k, sizeof *s->regions, cmp_share);
}

/* The sweep to read: o->sweep, else the only one. */
static int which_sweep(struct amd_store *st, const char *want, char **out, struct amd_err *err)
{
	if (want)
		return (*out = strdup(want)) ? 0 : amd_fail(err, "scaling: out of memory");
	struct amd_sweep_view *v;
	size_t n;
	if (amd_sweeps_list(st, &v, &n, err) < 0)
		return -1;
	int rc = 0;
	if (n == 1)
		rc = (*out = strdup(v[0].name)) ? 0 : amd_fail(err, "scaling: out of memory");
	else if (n == 0)
		rc = amd_fail(err, "%s: no sweeps in the store", amd_store_path(st));
	else
		rc = amd_fail(err, "%s: %zu sweeps (%s, %s%s): say which with --sweep",
			      amd_store_path(st), n, v[0].name, v[1].name, n > 2 ? ", ..." : "");
	amd_sweeps_free(v, n);
	return rc;
}

static int build(struct amd_store *st, const struct amd_scaling_opts *o, struct amd_scaling *s,
		 const struct amd_region_set *set, struct amd_err *err)
{
	struct amd_region_time *rows = set->rows;
	size_t cap = 0, m = set->nrows, ta = 0, tb;
	for (size_t a = 0; a < m; ta = tb) {
		size_t b = a;
		while (b < m && strcmp(rows[b].strategy, rows[a].strategy) == 0)
			b++;
		for (tb = ta; tb < set->ntraces && strcmp(set->traces[tb].strategy, rows[a].strategy) == 0;)
			tb++;
		if (!o->strategy || strcmp(o->strategy, rows[a].strategy) == 0) {
			if (amd_grow(&s->strategies, s->nstrategies, &cap, sizeof *s->strategies, 4) < 0)
				return amd_fail(err, "scaling: out of memory");
			struct amd_scaling_strategy *ss = &s->strategies[s->nstrategies++];
			memset(ss, 0, sizeof *ss);
			if (!(ss->strategy = strdup(rows[a].strategy)))
				return amd_fail(err, "scaling: out of memory");
			if (fit_strategy(rows + a, b - a, set->traces + ta, tb - ta, st, s->sweep, o, ss,
					 err) < 0)
				return -1;
			rank_regions(ss, o->kind);
		}
		a = b;
	}
	return 0;
}

static int scaling(struct amd_store *st, const struct amd_scaling_opts *o,
		   struct amd_scaling **out, struct amd_err *err)
{
	struct amd_scaling *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s)
		return amd_fail(err, "scaling: out of memory");
	s->criterion = AMD_RFIT_CRITERION;
	s->resamples = o->resamples;
	s->seed = o->seed;
	s->level = o->level;
	struct amd_region_set set = { 0 };
	int rc = which_sweep(st, o->sweep, &s->sweep, err);
	/* on a size axis the runs' n change: rows per trace, placed again */
	if (rc == 0)
		rc = amd_store_region_set(st, s->sweep, o->axis ? 0 : AMD_SCALING_RANK_OBS, o->share,
					  &set, err);
	s->axis = o->axis;
	if (rc == 0 && o->axis)
		rc = amd_scaling_axis_rows(st, s->sweep, o->axis, &set, err);
	if (rc == 0)
		rc = build(st, o, s, &set, err);
	amd_region_set_free(&set);
	if (rc < 0) {
		amd_scaling_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

/* One read snapshot for all of it (store_read.h). */
int amd_scaling(struct amd_store *st, const struct amd_scaling_opts *o,
		struct amd_scaling **out, struct amd_err *err)
{
	*out = NULL;
	if (amd_store_read_begin(st, err) < 0)
		return -1;
	int rc = scaling(st, o, out, err);
	amd_store_read_end(st);
	return rc;
}
