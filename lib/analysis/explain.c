/* explain.c — the efficiency budget of `amdahl explain` (explain.h):
 * the runs of a sweep measured one by one (explain_run.c), grouped by
 * strategy and n, each against the mean of its strategy's base (the
 * smallest n): E = R(base) / R(run), R the run's rank-seconds per traced
 * step, and 1 − E split into the named parts, each its rank-seconds
 * above the base's over R; "other" is the exact remainder. Stragglers:
 * per configuration the ranks that arrive last, pooled over its runs,
 * tested against "every rank equally likely" (binomial, Holm). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "explain.h"
#include "explain_int.h"
#include "analysis.h"
#include "buf.h"
#include "runs.h"
#include "selector.h"

const char *const amd_explain_part_names[AMD_EXPLAIN_NPARTS] = {
	"communication", "sync_wait", "imbalance", "compute_growth", "idle", "other",
};

/* A run's amounts in the parts' order (other: the leftover step time). */
static void amounts(const struct expl_run *r, double *a)
{
	a[AMD_EXPLAIN_COMM] = r->transfer;
	a[AMD_EXPLAIN_WAIT] = r->wait;
	a[AMD_EXPLAIN_IMBALANCE] = r->imbalance;
	a[AMD_EXPLAIN_GROWTH] = r->compute;
	a[AMD_EXPLAIN_IDLE] = r->idle;
	a[AMD_EXPLAIN_OTHER] = r->other;
}

static struct amd_explain_value mean_ci(const double *x, size_t n, double level)
{
	struct amd_explain_value v = {NAN, NAN, NAN, 0};
	if (!n)
		return v;
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	v.value = s / (double)n;
	if (n < 2)
		return v;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - v.value) * (x[i] - v.value);
	double h = gsl_cdf_tdist_Pinv((1 + level) / 2, (double)(n - 1)) * sqrt(ss / (double)(n - 1) / (double)n);
	v.lo = v.value - h;
	v.hi = v.value + h;
	v.has_ci = 1;
	return v;
}

/* "S: no sweep named 'x' (sweeps: a, b, ...); closest: 'a'", without the
 * list when the sweeps are many and one is near (amd_sweeps_closest). */
static int no_sweep(struct amd_store *st, const char *want, const struct amd_sweep_view *v,
		    size_t n, struct amd_err *err)
{
	char near[512];
	if (amd_sweeps_closest(v, n, want, near, sizeof near))
		return amd_fail(err, "%s: no sweep named '%s' (sweeps: %s%s%s%s)%s", amd_store_path(st),
				want, v[0].name, n > 1 ? ", " : "", n > 1 ? v[1].name : "",
				n > 2 ? ", ..." : "", near);
	return amd_fail(err, "%s: no sweep named '%s'%s (%zu sweeps)", amd_store_path(st), want, near,
			n);
}

/* The sweep to read: want (a selector as it is; a name that no sweep
 * has fails naming the sweeps there are), else the only one. */
static int which_sweep(struct amd_store *st, const char *want, char **out, struct amd_err *err)
{
	struct amd_sweep_view *v;
	size_t n, i = 0;
	if (want && amd_store_selector_is(st, want))
		return (*out = strdup(want)) ? 0 : amd_fail(err, "explain: out of memory");
	if (amd_sweeps_list(st, &v, &n, err) < 0)
		return -1;
	while (want && i < n && strcmp(v[i].name, want) != 0)
		i++;
	int rc = 0;
	if (n == 0)
		rc = amd_fail(err, "%s: no sweeps in the store", amd_store_path(st));
	else if (want && i == n)
		rc = no_sweep(st, want, v, n, err);
	else if (!want && n > 1)
		rc = amd_fail(err, "%s: %zu sweeps (%s, %s%s): say which with --sweep",
			      amd_store_path(st), n, v[0].name, v[1].name, n > 2 ? ", ..." : "");
	else if (!(*out = strdup(want ? want : v[0].name)))
		rc = amd_fail(err, "explain: out of memory");
	amd_sweeps_free(v, n);
	return rc;
}

/* Every run of the set with all its ranks traced, in the set's order. */
static int measure_runs(const struct amd_coll_set *set, const char *strategy,
			struct expl_run **out, size_t *nout, size_t *partial)
{
	size_t cap = 0;
	for (size_t a = 0, b; a < set->ntraces; a = b) {
		for (b = a + 1; b < set->ntraces && set->traces[b].run_id == set->traces[a].run_id; b++)
			;
		if (strategy && strcmp(set->traces[a].strategy, strategy) != 0)
			continue;
		if (amd_grow(out, *nout, &cap, sizeof **out, 16) < 0)
			return -1;
		int rc = expl_run_measure(set->traces + a, b - a, &(*out)[*nout]);
		if (rc < 0)
			return -1;
		if (rc == 0)
			(*nout)++;
		else
			(*partial)++;
	}
	return 0;
}

/* Holm's step-down over the ranks' p values; -1 out of memory. */
static int holm(struct amd_explain_rank *r, size_t k, double alpha)
{
	int *done = calloc(k, sizeof *done);
	if (!done)
		return -1;
	double run_max = 0;
	for (size_t step = 0; step < k; step++) {
		size_t best = k;
		for (size_t i = 0; i < k; i++)
			if (!done[i] && (best == k || r[i].p < r[best].p))
				best = i;
		done[best] = 1;
		run_max = fmax(run_max, fmin(1, r[best].p * (double)(k - step)));
		r[best].p_holm = run_max;
		r[best].straggler = run_max < alpha;
	}
	free(done);
	return 0;
}

/* The ranks of point p from its runs g[0..m). */
static int rank_table(struct amd_explain_point *p, const struct expl_run *g, size_t m,
		      double level, double alpha)
{
	size_t k = (size_t)p->n;
	p->ranks = calloc(k, sizeof *p->ranks);
	double *x = malloc(m * sizeof *x);
	if (!p->ranks || !x) {
		free(x);
		return -1;
	}
	p->nranks = k;
	for (size_t i = 0; i < k; i++) {
		struct amd_explain_rank *r = &p->ranks[i];
		r->rank = (int)i;
		for (size_t j = 0; j < m; j++) {
			r->last += g[j].ranks[i].last;
			r->instances += g[j].unique_last;
			r->wait_caused_s += g[j].ranks[i].caused_s / (double)m;
			r->extra_work_s += g[j].ranks[i].extra_s;
			x[j] = g[j].unique_last ? (double)g[j].ranks[i].last / (double)g[j].unique_last : NAN;
		}
		r->extra_work_s = r->last ? r->extra_work_s / (double)r->last : 0;
		r->last_share = mean_ci(x, m, level);
		if (r->instances)
			r->last_share.value = (double)r->last / (double)r->instances;
		r->p = r->last ? gsl_cdf_binomial_Q((unsigned)(r->last - 1), 1.0 / (double)k,
						     (unsigned)r->instances) : 1;
	}
	free(x);
	return holm(p->ranks, k, alpha);
}

/* Point p from the runs g[0..m) of one n, against base amounts b and R0. */
static int make_point(struct amd_explain_point *p, const struct expl_run *g, size_t m,
		      const double *base, double R0, double level, double alpha)
{
	double *x = malloc(m * sizeof *x), a[AMD_EXPLAIN_NPARTS];
	if (!x)
		return -1;
	p->n = g[0].n;
	p->runs = m;
	p->epoch_efficiency = NAN;
	p->clock_ok = 1;
	for (size_t j = 0; j < m; j++) {
		x[j] = R0 / g[j].R;
		p->step_s += g[j].step_s / (double)m;
		p->coll_s += g[j].coll / (double)m;
		p->overlap_s += g[j].overlap / (double)m;
		p->transfer_s += g[j].transfer_raw / (double)m;
		p->wait_s += g[j].wait_raw / (double)m;
		p->instances += g[j].instances;
		p->clock_skew_s = fmax(p->clock_skew_s, g[j].skew_s);
		if (g[j].top && !p->top_collective[0])
			snprintf(p->top_collective, sizeof p->top_collective, "%s", g[j].top);
	}
	p->clock_ok = p->clock_skew_s <= 1e-6;
	p->efficiency = mean_ci(x, m, level);
	for (int c = 0; c < AMD_EXPLAIN_NPARTS; c++) {
		for (size_t j = 0; j < m; j++) {
			amounts(&g[j], a);
			x[j] = (a[c] - base[c]) / g[j].R;
			p->seconds[c] += (a[c] - base[c]) / (double)m;
		}
		p->share[c] = mean_ci(x, m, level);
	}
	free(x);
	return rank_table(p, g, m, level, alpha);
}

/* One strategy from its runs g[0..m) (by n). */
static int make_strategy(struct amd_explain_strategy *s, const struct expl_run *g, size_t m,
			 double level, double alpha)
{
	double base[AMD_EXPLAIN_NPARTS] = {0}, a[AMD_EXPLAIN_NPARTS], R0 = 0;
	size_t nb = 0;
	while (nb < m && g[nb].n == g[0].n)
		nb++;
	for (size_t j = 0; j < nb; j++) {
		amounts(&g[j], a);
		for (int c = 0; c < AMD_EXPLAIN_NPARTS; c++)
			base[c] += a[c] / (double)nb;
		R0 += g[j].R / (double)nb;
	}
	s->base_n = g[0].n;
	if (!(s->strategy = strdup(g[0].strategy)))
		return -1;
	size_t cap = 0;
	for (size_t a0 = 0, b; a0 < m; a0 = b) {
		for (b = a0 + 1; b < m && g[b].n == g[a0].n; b++)
			;
		if (amd_grow(&s->points, s->npoints, &cap, sizeof *s->points, 8) < 0)
			return -1;
		struct amd_explain_point *p = &s->points[s->npoints++];
		memset(p, 0, sizeof *p);
		if (make_point(p, g + a0, b - a0, base, R0, level, alpha) < 0)
			return -1;
	}
	return 0;
}

/* stats' epoch-time efficiency beside each point (left NAN when stats
 * cannot compute it: no epoch metric, one n, …); have: the caller's
 * statistics, read when they are these (a report's: computed once). */
static void epoch_efficiency(struct amd_store *st, struct amd_explain *e,
			     const struct amd_sweep_stats *have)
{
	struct amd_analysis_opts o = {.sweep = e->sweep, .level = e->level};
	struct amd_sweep_stats *own = NULL;
	struct amd_err err;
	if (!amd_analysis_is(have, &o) && amd_analyse(st, &o, &own, &err) < 0)
		return;
	const struct amd_sweep_stats *s = own ? own : have;
	for (size_t i = 0; i < e->nstrategies; i++)
		for (size_t j = 0; j < s->nstrategies; j++) {
			if (strcmp(e->strategies[i].strategy, s->strategies[j].strategy) != 0)
				continue;
			for (size_t k = 0; k < e->strategies[i].npoints; k++)
				for (size_t q = 0; q < s->strategies[j].npoints; q++)
					if (s->strategies[j].points[q].n == e->strategies[i].points[k].n)
						e->strategies[i].points[k].epoch_efficiency =
							s->strategies[j].points[q].efficiency;
		}
	amd_sweep_stats_free(own);
}

static int build(struct amd_store *st, struct amd_explain *e, const struct expl_run *runs,
		 size_t nruns, const struct amd_explain_opts *o)
{
	size_t cap = 0;
	for (size_t a = 0, b; a < nruns; a = b) {
		for (b = a + 1; b < nruns && strcmp(runs[b].strategy, runs[a].strategy) == 0; b++)
			;
		if (runs[b - 1].n == runs[a].n)
			e->single_n++; /* one n: no budget, but its collectives and ranks */
		if (amd_grow(&e->strategies, e->nstrategies, &cap, sizeof *e->strategies, 4) < 0)
			return -1;
		struct amd_explain_strategy *s = &e->strategies[e->nstrategies++];
		memset(s, 0, sizeof *s);
		if (make_strategy(s, runs + a, b - a, e->level, e->alpha) < 0)
			return -1;
	}
	epoch_efficiency(st, e, o->analysis);
	return expl_growth_regions(st, e, o);
}

/* A strategy no run of the sweep has fails as the selector does: naming
 * the closest ones (selector.h). */
static int check_strategy(struct amd_store *st, const char *sweep, const char *strategy,
			  struct amd_err *err)
{
	if (!strategy)
		return 0;
	char sel[1200];
	snprintf(sel, sizeof sel,
		 amd_store_selector_is(st, sweep) ? "%s,strategy=%s" : "sweep=%s,strategy=%s", sweep,
		 strategy);
	struct amd_run_view *v;
	size_t n;
	if (amd_select_runs(st, sel, &v, &n, err) < 0)
		return -1;
	amd_runs_free(v, n);
	return 0;
}

int amd_explain(struct amd_store *st, const struct amd_explain_opts *o, struct amd_explain **out,
		struct amd_err *err)
{
	struct amd_explain *e = calloc(1, sizeof *e);
	if (!e)
		return amd_fail(err, "explain: out of memory");
	e->level = o->level > 0 && o->level < 1 ? o->level : 0.95;
	e->alpha = o->alpha > 0 && o->alpha < 1 ? o->alpha : 0.01;
	struct amd_coll_set set;
	struct expl_run *runs = NULL;
	size_t nruns = 0;
	if (which_sweep(st, o->sweep, &e->sweep, err) < 0 || check_strategy(st, e->sweep, o->strategy, err) < 0
	    || (!o->colls && amd_store_coll_set(st, e->sweep, &set, err) < 0)) {
		amd_explain_free(e);
		return -1;
	}
	if (o->colls) /* the caller's (the same sweep's), read only */
		set = *o->colls;
	int rc = measure_runs(&set, o->strategy, &runs, &nruns, &e->runs_partial);
	if (rc == 0)
		rc = build(st, e, runs, nruns, o);
	for (size_t i = 0; i < nruns; i++)
		expl_run_free(&runs[i]);
	free(runs);
	if (!o->colls)
		amd_coll_set_free(&set);
	if (rc < 0) {
		amd_explain_free(e);
		return amd_fail(err, "%s: explain: out of memory", amd_store_path(st));
	}
	*out = e;
	return 0;
}

void amd_explain_free(struct amd_explain *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nstrategies; i++) {
		for (size_t j = 0; j < e->strategies[i].npoints; j++) {
			free(e->strategies[i].points[j].ranks);
			free(e->strategies[i].points[j].regions);
		}
		free(e->strategies[i].points);
		free(e->strategies[i].strategy);
	}
	free(e->strategies);
	free(e->sweep);
	free(e);
}
