/* analysis_points.c — per configuration statistics with bootstrap
 * intervals, and per strategy speedup, efficiency, Karp–Flatt and the
 * Amdahl and USL fits; see analysis_points.h. */
#include "analysis_points.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const char *const no_ci[] = {"n=0: no CI", "n=1: no CI", "n=2: no CI"};

int analysis_cmp_runs(const void *a, const void *b)
{
	const struct analysis_run *x = *(struct analysis_run *const *)a;
	const struct analysis_run *y = *(struct analysis_run *const *)b;
	int c = strcmp(x->v.strategy, y->v.strategy);
	if (c)
		return c;
	if (x->v.n != y->v.n)
		return x->v.n < y->v.n ? -1 : 1;
	if (x->v.repeat != y->v.repeat)
		return x->v.repeat < y->v.repeat ? -1 : 1;
	/* the run's own id, not the store's row id: stores holding the same
	 * runs, ingested in any order, give the same output byte for byte */
	c = strcmp(x->v.ext_id ? x->v.ext_id : "", y->v.ext_id ? y->v.ext_id : "");
	if (c)
		return c;
	return x->v.run_id < y->v.run_id ? -1 : x->v.run_id > y->v.run_id;
}

void analysis_set_ci(struct amd_ci *dst, const struct amd_interval *src, size_t nruns)
{
	dst->lo = src->lo;
	dst->hi = src->hi;
	dst->valid = src->valid;
	dst->level = src->valid ? src->level : 0;
	dst->why = src->valid ? NULL : nruns < 3 ? no_ci[nruns] : "bootstrap failed";
}

/* Mean over the runs of the finite double at offset off of struct analysis_run. */
static double mean_of(struct analysis_run **w, size_t n, size_t off)
{
	double s = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double x = *(const double *)((const char *)w[i] + off);
		if (isfinite(x)) {
			s += x;
			k++;
		}
	}
	return k ? s / (double)k : NAN;
}

/* Sum over runs at num_off over the sum at den_off; with skip_missing,
 * runs lacking either are left out, else they make the ratio NAN. */
static double ratio_of_sums(struct analysis_run **w, size_t n, size_t num_off, size_t den_off,
			    int skip_missing)
{
	double a = 0, b = 0;
	for (size_t i = 0; i < n; i++) {
		double x = *(const double *)((const char *)w[i] + num_off);
		double y = *(const double *)((const char *)w[i] + den_off);
		if (!isfinite(x) || !isfinite(y)) {
			if (skip_missing)
				continue;
			return NAN;
		}
		a += x;
		b += y;
	}
	return b > 0 ? a / b : NAN;
}

#define RUN_OFF(field) offsetof(struct analysis_run, field)

/* ---- per configuration ---- */

/* The point's runs (copies of w's values), their statistics and
 * intervals; -1 out of memory. */
static int point_values(struct amd_point_stats *ps, struct analysis_run **w, size_t n,
			const struct analysis_opts *o)
{
	ps->runs = calloc(n ? n : 1, sizeof *ps->runs);
	double *x = malloc((n ? n : 1) * sizeof *x);
	int rc = ps->runs && x ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = analysis_value_copy(&ps->runs[i], &w[i]->v);
		ps->nruns += rc == 0;
		x[i] = ps->runs[i].value;
	}
	if (rc < 0) {
		free(x);
		return -1;
	}
	ps->median = amd_aggregate(x, n, o->boot.aggregate);
	ps->mean = amd_mean(x, n);
	ps->sd = amd_sd(x, n);
	ps->cv = amd_cv(x, n);
	ps->min = amd_min(x, n);
	ps->max = amd_max(x, n);
	struct amd_interval ci, ct;
	if (o->boot.aggregate == AMD_AGG_MEDIAN) /* exact, distribution-free */
		amd_median_os_ci(x, n, o->boot.level, &ci);
	else
		amd_boot_median_ci(x, n, &o->boot, &ci); /* of the aggregate */
	if (o->boot.aggregate == AMD_AGG_MLPERF && ci.valid && fabs(o->boot.level - 0.95) < 1e-9)
		ci.level = amd_mlperf_boot_coverage(n); /* what it covers, not 95% */
	amd_t_mean_ci(x, n, o->boot.level, &ct);
	free(x);
	if (ci.oom || ct.oom)
		return -1;
	analysis_set_ci(&ps->ci, &ci, n);
	analysis_set_ci(&ps->ci_mean_t, &ct, n);
	return 0;
}

/* Throughput, energy, utilisation and trace shares over the point's runs. */
static void point_means(struct amd_point_stats *ps, struct analysis_run **w, size_t n)
{
	ps->throughput = ratio_of_sums(w, n, RUN_OFF(v.samples), RUN_OFF(v.time_s), 0);
	ps->energy_per_sample_j = ratio_of_sums(w, n, RUN_OFF(v.energy_kept_j),
						RUN_OFF(v.samples), 0);
	ps->energy_epoch_j = mean_of(w, n, RUN_OFF(v.energy_epoch_j));
	ps->energy_solution_j = mean_of(w, n, RUN_OFF(v.energy_run_j));
	ps->power_w = mean_of(w, n, RUN_OFF(v.power_w));
	ps->util_pct = mean_of(w, n, RUN_OFF(v.util_pct));
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		ps->phase_share[p] = mean_of(w, n, RUN_OFF(share) + (size_t)p * sizeof(double));
	/* itwinai pools every rank's and repeat's operator rows of a point */
	ps->comp_fraction = ratio_of_sums(w, n, RUN_OFF(op_comp_us), RUN_OFF(op_total_us), 1);
	if (!isfinite(ps->comp_fraction))
		ps->comp_fraction = mean_of(w, n, RUN_OFF(comp_fraction));
	ps->comm_share = mean_of(w, n, RUN_OFF(comm_share));
	ps->straggler_ns = mean_of(w, n, RUN_OFF(straggler_ns));
	for (size_t i = 0; i < n; i++)
		ps->has_trace |= w[i]->has_trace;
	ps->speedup = ps->efficiency = ps->karp_flatt = NAN;
	ps->ci_speedup = ps->ci_efficiency = (struct amd_ci){NAN, NAN, 0, "no speedup", 0};
}

/* dst: the bootstrap CI of Σnum/Σden over the runs (den NULL: the mean
 * of num), as the time's CI is made; none when value is unknown. -1 out
 * of memory. */
static int sum_ratio_ci(struct amd_ci *dst, double value, const double *num, const double *den,
			size_t n, const struct analysis_opts *o)
{
	if (!isfinite(value)) {
		*dst = (struct amd_ci){NAN, NAN, 0, "no value", 0};
		return 0;
	}
	struct amd_interval iv;
	amd_boot_sum_ratio_ci(num, den, n, &o->boot, &iv);
	if (iv.oom)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += isfinite(num[i]) && (!den || isfinite(den[i]));
	if (iv.valid && fabs(o->boot.level - 0.95) < 1e-9)
		iv.level = amd_mean_boot_coverage(m); /* what it covers, not 95% */
	analysis_set_ci(dst, &iv, m);
	return 0;
}

/* The intervals of the energy and power means (energy per sample: of the
 * ratio of sums, runs resampled in pairs); -1 out of memory. */
static int point_energy_cis(struct amd_point_stats *ps, struct analysis_run **w, size_t n,
			    const struct analysis_opts *o)
{
	double *x = malloc((n ? n : 1) * 5 * sizeof *x);
	if (!x)
		return -1;
	double *epoch = x, *run = x + n, *power = x + 2 * n, *kept = x + 3 * n, *samples = x + 4 * n;
	for (size_t i = 0; i < n; i++) {
		epoch[i] = w[i]->v.energy_epoch_j;
		run[i] = w[i]->v.energy_run_j;
		power[i] = w[i]->v.power_w;
		kept[i] = w[i]->v.energy_kept_j;
		samples[i] = w[i]->v.samples;
	}
	int rc = sum_ratio_ci(&ps->ci_energy_epoch, ps->energy_epoch_j, epoch, NULL, n, o);
	if (rc == 0)
		rc = sum_ratio_ci(&ps->ci_energy_solution, ps->energy_solution_j, run, NULL, n, o);
	if (rc == 0)
		rc = sum_ratio_ci(&ps->ci_power, ps->power_w, power, NULL, n, o);
	if (rc == 0)
		rc = sum_ratio_ci(&ps->ci_energy_sample, ps->energy_per_sample_j, kept, samples, n, o);
	free(x);
	return rc;
}

static int point_stats(struct amd_point_stats *ps, struct analysis_run **w, size_t n,
		       const struct analysis_opts *o)
{
	if (point_values(ps, w, n, o) < 0)
		return -1;
	point_means(ps, w, n);
	return point_energy_cis(ps, w, n, o);
}

/* ---- per strategy ---- */

static double *run_values(const struct amd_point_stats *p, int invert)
{
	double *x = malloc((p->nruns ? p->nruns : 1) * sizeof *x);
	for (size_t i = 0; x && i < p->nruns; i++)
		x[i] = invert ? 1 / p->runs[i].value : p->runs[i].value;
	return x;
}


/* Speedup and efficiency of point p against the base b, with intervals. */
static int speedup_ci(struct amd_strategy_stats *s, struct amd_point_stats *p,
		      const double *xb, const struct analysis_opts *o, int higher)
{
	const struct amd_point_stats *b = &s->points[0];
	double *x = run_values(p, 0);
	if (!x)
		return -1;
	struct amd_interval ci;
	if (higher)
		amd_boot_ratio_ci(x, p->nruns, xb, b->nruns, &o->boot, &ci);
	else
		amd_boot_ratio_ci(xb, b->nruns, x, p->nruns, &o->boot, &ci);
	free(x);
	if (ci.oom)
		return -1;
	size_t m = p->nruns < b->nruns ? p->nruns : b->nruns;
	double cover = amd_median_ratio_coverage(p->nruns, b->nruns); /* simulated (stats.h) */
	if (ci.valid && cover < 0.93 && fabs(o->boot.level - 0.95) < 1e-12)
		ci.level = cover;
	analysis_set_ci(&p->ci_speedup, &ci, m);
	p->ci_efficiency = p->ci_speedup;
	p->ci_efficiency.lo *= s->base_n / p->n;
	p->ci_efficiency.hi *= s->base_n / p->n;
	return 0;
}

static int speedups(struct amd_strategy_stats *s, const struct analysis_opts *o, int higher)
{
	const struct amd_point_stats *b = &s->points[0];
	double *xb = run_values(b, 0);
	int rc = xb ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < s->npoints; i++) {
		struct amd_point_stats *p = &s->points[i];
		p->speedup = higher ? p->median / b->median : b->median / p->median;
		p->efficiency = p->speedup * s->base_n / p->n;
		p->karp_flatt = amd_karp_flatt(p->speedup, p->n / s->base_n);
		if (i == 0) /* the base: 1 by definition */
			p->ci_speedup = p->ci_efficiency = (struct amd_ci){NAN, NAN, 0, "base", 0};
		else
			rc = speedup_ci(s, p, xb, o, higher);
	}
	free(xb);
	return rc;
}

/* The per-point run values (inverted when higher is better) for the
 * bootstrap of the serial fraction; NULL out of memory. */
static struct amd_group *fit_groups(const struct amd_strategy_stats *s, int higher)
{
	struct amd_group *g = calloc(s->npoints, sizeof *g);
	for (size_t i = 0; g && i < s->npoints; i++) {
		g[i].n = s->points[i].n;
		g[i].len = s->points[i].nruns;
		if (!(g[i].x = run_values(&s->points[i], higher))) {
			for (size_t k = 0; k < i; k++)
				free((double *)g[k].x);
			free(g);
			return NULL;
		}
	}
	return g;
}

/* Fits T(n) = a + b/n to the medians, with the serial fraction's interval. */
static int amdahl(struct amd_strategy_stats *s, const struct analysis_opts *o, int higher)
{
	struct amd_fit *f = &s->amdahl;
	size_t m = s->npoints;
	double *n = calloc(m, sizeof *n), *t = calloc(m, sizeof *t);
	struct amd_group *g = n && t ? fit_groups(s, higher) : NULL;
	int rc = g ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < m; i++) {
		n[i] = s->points[i].n;
		t[i] = higher ? 1 / s->points[i].median : s->points[i].median;
	}
	struct amd_amdahl a;
	if (rc == 0 && amd_amdahl_fit(n, t, m, &a) == 0) {
		f->ok = 1;
		f->a = a.a;
		f->b = a.b;
		f->serial_fraction = a.serial;
		f->r2 = a.r2;
		struct amd_interval ci;
		size_t fewest = SIZE_MAX;
		for (size_t i = 0; i < m; i++)
			fewest = g[i].len < fewest ? g[i].len : fewest;
		amd_amdahl_serial_ci(g, m, &o->boot, &ci);
		rc = ci.oom ? -1 : 0;
		double cover = amd_amdahl_serial_coverage(fewest, m); /* simulated (stats.h) */
		if (ci.valid && cover < 0.93 && fabs(o->boot.level - 0.95) < 1e-12)
			ci.level = cover; /* what it covers, not 95% */
		analysis_set_ci(&f->ci_serial, &ci, fewest);
	} else if (rc == 0 && a.oom)
		rc = -1;
	else if (rc == 0)
		snprintf(f->why, sizeof f->why, "%s", a.why);
	for (size_t i = 0; g && i < m; i++)
		free((double *)g[i].x);
	free(g);
	free(n);
	free(t);
	return rc;
}

/* Fits the USL X(n) = gamma n / (1 + alpha (n-1) + beta n (n-1)). */
static int usl(struct amd_strategy_stats *s, int higher)
{
	struct amd_fit *f = &s->usl;
	size_t m = s->npoints;
	double *n = malloc(m * sizeof *n), *x = malloc(m * sizeof *x);
	int rc = n && x ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < m; i++) {
		n[i] = s->points[i].n;
		x[i] = higher ? s->points[i].median : 1 / s->points[i].median;
	}
	struct amd_usl u;
	if (rc == 0 && amd_usl_fit(n, x, m, &u) == 0) {
		f->ok = 1;
		f->alpha = u.alpha;
		f->beta = u.beta;
		f->gamma = u.gamma;
		f->n_peak = u.n_peak;
		f->bounded = u.bounded;
		f->free_alpha = u.free_alpha;
		f->free_beta = u.free_beta;
		snprintf(f->peak_why, sizeof f->peak_why, "%s", u.peak_why);
	} else if (rc == 0 && u.oom)
		rc = -1;
	else if (rc == 0)
		snprintf(f->why, sizeof f->why, "%s", u.why);
	free(n);
	free(x);
	return rc;
}

static void fit_init(struct amd_fit *f)
{
	memset(f, 0, sizeof *f);
	f->a = f->b = f->serial_fraction = f->r2 = NAN;
	f->alpha = f->beta = f->gamma = f->n_peak = NAN;
	f->free_alpha = f->free_beta = NAN;
	f->ci_serial = (struct amd_ci){NAN, NAN, 0, "no fit", 0};
}

static int strategy_stats(struct amd_strategy_stats *s, const struct analysis_opts *o,
			  const struct amd_sweep_stats *sw)
{
	fit_init(&s->amdahl);
	fit_init(&s->usl);
	s->base_n = s->points[0].n;
	s->base_value = s->points[0].median;
	if (!sw->scaling) {
		snprintf(s->amdahl.why, sizeof s->amdahl.why, "%s", sw->note);
		snprintf(s->usl.why, sizeof s->usl.why, "%s", sw->note);
		return 0;
	}
	if (speedups(s, o, sw->higher_is_better) < 0 || amdahl(s, o, sw->higher_is_better) < 0 ||
	    usl(s, sw->higher_is_better) < 0)
		return -1;
	return 0;
}

/* One strategy from its runs w[0..n) (sorted by n). */
static int build_strategy(struct amd_strategy_stats *s, struct analysis_run **w, size_t n,
			  const struct analysis_opts *o, const struct amd_sweep_stats *sw)
{
	if (!(s->strategy = strdup(w[0]->v.strategy)))
		return -1;
	size_t npoints = 0;
	for (size_t k = 0; k < n; k++)
		npoints += k == 0 || w[k]->v.n != w[k - 1]->v.n;
	if (!(s->points = calloc(npoints, sizeof *s->points)))
		return -1;
	for (size_t k = 0; k < n;) {
		size_t e = k;
		while (e < n && w[e]->v.n == w[k]->v.n)
			e++;
		struct amd_point_stats *p = &s->points[s->npoints++];
		p->n = w[k]->v.n;
		if (!(p->strategy = strdup(s->strategy)) || point_stats(p, w + k, e - k, o) < 0)
			return -1;
		k = e;
	}
	return strategy_stats(s, o, sw);
}

int analysis_build_strategies(struct amd_sweep_stats *sw, struct analysis_run **w, size_t n,
			      const struct analysis_opts *o)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += i == 0 || strcmp(w[i]->v.strategy, w[i - 1]->v.strategy) != 0;
	sw->strategies = calloc(count ? count : 1, sizeof *sw->strategies);
	if (!sw->strategies)
		return -1;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && strcmp(w[j]->v.strategy, w[i]->v.strategy) == 0)
			j++;
		if (build_strategy(&sw->strategies[sw->nstrategies++], w + i, j - i, o, sw) < 0)
			return -1;
		i = j;
	}
	return 0;
}
