/* scaling_whole.c — after a strategy's regions are fitted (scaling.c):
 * their predictions, shares and crossover n, the whole (step, epoch,
 * efficiency: measured at the measured n, predicted elsewhere from the
 * measured values scaled by the sum of the region models) next to the
 * Amdahl and USL fits, and which n to measure next (scaling.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "scaling.h"
#include "analysis.h"
#include "buf.h"
#include "stats.h"

#define CROSS_STEPS 8      /* grid points per doubling of n */
#define CROSS_MAX_N 1048576.0
#define ADVICE_HALF 0.05   /* repeats for ±5% of the mean ... */
#define ADVICE_Z 1.96      /* ... at 95% */

/* The n predictions are made at: the measured n, 2× and 4× the largest,
 * the target; distinct and increasing. */
static double *pred_ns(const struct amd_scaling_strategy *s, size_t *k)
{
	double *v = malloc((s->nn + 3) * sizeof *v), top = s->ns[s->nn - 1];
	if (!v)
		return NULL;
	memcpy(v, s->ns, s->nn * sizeof *v);
	size_t m = s->nn;
	v[m++] = 2 * top;
	v[m++] = 4 * top;
	v[m++] = s->target;
	gsl_sort(v, 1, m);
	*k = 0;
	for (size_t a = 0; a < m; a++)
		if (*k == 0 || v[a] != v[*k - 1])
			v[(*k)++] = v[a];
	return v;
}

static size_t index_of(const double *v, size_t k, double x)
{
	for (size_t a = 0; a < k; a++)
		if (v[a] == x)
			return a;
	return 0;
}

/* A region's time can not be below 0. */
static double clamp0(double v)
{
	return v > 0 ? v : isnan(v) ? v : 0;
}

/* The region's predictions at ns, its measured mean at each measured n
 * and its growth. */
static int region_preds(struct amd_region_model *r, const struct amd_region_obs *ob,
			const struct amd_scaling_strategy *s, const double *ns, size_t k,
			double level)
{
	r->pred = malloc(k * sizeof *r->pred);
	r->measured = malloc(s->nn * sizeof *r->measured);
	if (!r->pred || !r->measured)
		return -1;
	r->npred = k;
	for (size_t a = 0; a < k; a++) {
		struct amd_scaling_pred *p = &r->pred[a];
		p->n = ns[a];
		p->value = amd_rfit_value(&r->fit, ns[a]);
		if (amd_rfit_interval(&r->fit, ns[a], level, &p->lo, &p->hi) < 0)
			return -1;
		p->lo = clamp0(p->lo);
	}
	for (size_t q = 0; q < s->nn; q++) {
		double sum = 0;
		size_t c = 0;
		for (size_t a = 0; a < ob->m; a++)
			if (ob->n[a] == s->ns[q]) {
				sum += ob->y[a];
				c++;
			}
		r->measured[q] = c ? sum / (double)c : NAN;
	}
	r->measured_max_n = r->measured[s->nn - 1];
	r->growth = amd_rfit_growth(&r->fit, s->ns[s->nn - 1]);
	return 0;
}

/* Sums of the regions' models (the step): S0[a] at ns[a], S[b·k + a]
 * for draw b. */
static void region_sums(const struct amd_scaling_strategy *s, const double *ns, size_t k,
			int B, double *S0, double *S)
{
	memset(S0, 0, k * sizeof *S0);
	memset(S, 0, (size_t)B * k * sizeof *S);
	for (size_t r = 0; r < s->nregions; r++) {
		const struct amd_rfit *f = &s->regions[r].fit;
		for (size_t a = 0; a < k; a++) {
			S0[a] += clamp0(amd_rfit_value(f, ns[a]));
			for (int b = 0; b < B && b < f->B; b++)
				S[(size_t)b * k + a] += clamp0(amd_rfit_draw(f, b, ns[a], 0));
		}
	}
}

/* The n shares are given at: 2×, 4× the largest n and the target;
 * distinct and increasing (the target is 4× by default). */
static size_t share_ns(const struct amd_scaling_strategy *s, double at[3])
{
	double top = s->ns[s->nn - 1];
	at[0] = 2 * top;
	at[1] = 4 * top;
	at[2] = s->target;
	gsl_sort(at, 1, 3);
	size_t k = 0;
	for (size_t a = 0; a < 3; a++)
		if (k == 0 || at[a] != at[k - 1])
			at[k++] = at[a];
	return k;
}

const struct amd_scaling_pred *amd_region_model_share(const struct amd_region_model *r, double n)
{
	for (size_t q = 0; q < r->nshare; q++)
		if (r->share[q].n == n)
			return &r->share[q];
	return NULL;
}

/* Shares of region r of the step at share_ns: the interval of the draws
 * of all the plausible models joined with that of the chosen model's
 * draws. */
static void region_shares(struct amd_region_model *r, const struct amd_scaling_strategy *s,
			  const double *ns, size_t k, const double *S0, const double *S, int B,
			  double level, double *tmp)
{
	double at[3];
	r->share_max_n = r->measured_max_n / s->busy_max_n;
	r->nshare = share_ns(s, at);
	for (size_t q = 0; q < r->nshare; q++) {
		size_t a = index_of(ns, k, at[q]);
		struct amd_scaling_pred *p = &r->share[q];
		p->n = at[q];
		p->value = clamp0(amd_rfit_value(&r->fit, at[q])) / S0[a];
		for (int b = 0; b < B; b++)
			tmp[b] = clamp0(amd_rfit_draw(&r->fit, b, at[q], 0)) / S[(size_t)b * k + a];
		amd_percentile_interval(tmp, (size_t)B, level, &p->lo, &p->hi);
		/* with the chosen model's own draws' interval: the models as
		 * plausible can all lie on one side of the chosen one */
		int np = r->fit.nplausible > 0 ? r->fit.nplausible : 1;
		size_t c = 0;
		double lo, hi;
		for (int b = 0; b < B; b += np)
			tmp[c++] = clamp0(amd_rfit_draw(&r->fit, b, at[q], 0)) / S[(size_t)b * k + a];
		amd_percentile_interval(tmp, c, level, &lo, &hi);
		p->lo = fmin(p->lo, lo);
		p->hi = fmax(p->hi, hi);
	}
}

/* Where each growing region overtakes the regions that shrink. */
static int crossovers(struct amd_scaling_strategy *s)
{
	double lo = s->ns[0];
	size_t g = (size_t)(CROSS_STEPS * log2(CROSS_MAX_N / lo)) + 1;
	double *shrink = calloc(g, sizeof *shrink);
	if (!shrink)
		return -1;
	for (size_t r = 0; r < s->nregions; r++)
		if (strcmp(s->regions[r].growth, "shrinks") == 0)
			for (size_t q = 0; q < g; q++)
				shrink[q] += amd_rfit_value(&s->regions[r].fit, lo * exp2((double)q / CROSS_STEPS));
	for (size_t r = 0; r < s->nregions; r++) {
		struct amd_region_model *m = &s->regions[r];
		m->crossover_n = NAN;
		for (size_t q = 0; strcmp(m->growth, "grows") == 0 && q < g; q++) {
			double n = lo * exp2((double)q / CROSS_STEPS);
			if (amd_rfit_value(&m->fit, n) >= shrink[q]) {
				m->crossover_n = n;
				break;
			}
		}
	}
	free(shrink);
	return 0;
}

/* Amdahl's and the USL's epoch time at n from the strategy's fits. */
static void fit_epochs(const struct amd_strategy_stats *ss, double n, double *amdahl, double *usl)
{
	*amdahl = *usl = NAN;
	if (!ss)
		return;
	if (ss->amdahl.ok)
		*amdahl = ss->amdahl.a + ss->amdahl.b / n;
	const struct amd_fit *u = &ss->usl;
	double b = ss->base_n;
	if (u->ok && isfinite(u->alpha) && isfinite(u->beta) && isfinite(ss->base_value)) {
		double xb = b / (1 + u->alpha * (b - 1) + u->beta * b * (b - 1));
		double xn = n / (1 + u->alpha * (n - 1) + u->beta * n * (n - 1));
		*usl = xn > 0 ? ss->base_value * xb / xn : NAN;
	}
}

/* The median epoch time at n, the run-to-run CV (median over n). */
static void epoch_facts(const struct amd_strategy_stats *ss, double n, double *med, double *cv)
{
	*med = *cv = NAN;
	if (!ss)
		return;
	double v[64];
	size_t k = 0;
	for (size_t p = 0; p < ss->npoints; p++) {
		if (ss->points[p].n == n)
			*med = ss->points[p].median;
		if (isfinite(ss->points[p].cv) && k < 64)
			v[k++] = ss->points[p].cv;
	}
	if (k)
		*cv = amd_median(v, k);
}

/* stats' point at n (NULL: none). */
static const struct amd_point_stats *stats_point(const struct amd_strategy_stats *ss, double n)
{
	for (size_t p = 0; ss && p < ss->npoints; p++)
		if (ss->points[p].n == n)
			return &ss->points[p];
	return NULL;
}

/* A measured row: the step time the profiler measured (mean over the
 * traces) and the epoch time and efficiency `stats` prints, with its
 * intervals. */
static void whole_measured(const struct amd_scaling_strategy *s,
			   const struct amd_strategy_stats *ss, struct amd_scaling_whole *w,
			   size_t q)
{
	double n = s->ns[q];
	const struct amd_point_stats *p = stats_point(ss, n);
	w->measured = 1;
	w->step = (struct amd_scaling_pred){ n, s->step.measured ? s->step.measured[q] : NAN, NAN, NAN };
	w->epoch = w->efficiency = (struct amd_scaling_pred){ n, NAN, NAN, NAN };
	if (p) {
		w->epoch = (struct amd_scaling_pred){ n, p->median, p->ci.lo, p->ci.hi };
		w->efficiency = (struct amd_scaling_pred){ n, p->efficiency, p->ci_efficiency.lo,
			p->ci_efficiency.hi };
		if (!p->ci.valid)
			w->epoch.lo = w->epoch.hi = NAN;
		if (!p->ci_efficiency.valid)
			w->efficiency.lo = w->efficiency.hi = NAN;
	}
}

/* The measured n a prediction at n is anchored to: the largest measured
 * n below it (the smallest when n is below every measured n). */
static size_t anchor_of(const struct amd_scaling_strategy *s, double n)
{
	size_t q = 0;
	for (size_t a = 0; a < s->nn; a++)
		if (s->ns[a] <= n)
			q = a;
	return q;
}

/* A predicted row at ns[a]: the step and epoch time measured at the
 * anchor n scaled by the ratio of the sum of the region models (draw by
 * draw for the interval, with the step model's relative noise), the
 * efficiency against `stats`' base. */
static void whole_predicted(struct amd_scaling_strategy *s, const struct amd_strategy_stats *ss,
			    struct amd_scaling_whole *w, const double *ns, size_t k, size_t a,
			    const double *S0, const double *S, int B, double level, double *tmp)
{
	double n = ns[a];
	size_t q = anchor_of(s, n), at = index_of(ns, k, s->ns[q]);
	const struct amd_point_stats *p = stats_point(ss, s->ns[q]);
	double step_q = s->step.measured ? s->step.measured[q] : NAN;
	double per_step = p ? p->median / step_q : NAN;
	struct amd_scaling_pred *st = &w->step, *ep = &w->epoch, *ef = &w->efficiency;
	const struct amd_rfit *sf = &s->step.fit;
	*st = (struct amd_scaling_pred){ n, step_q * S0[a] / S0[at], NAN, NAN };
	for (int b = 0; b < B; b++)
		tmp[b] = step_q * S[(size_t)b * k + a] / S[(size_t)b * k + at]
			* (1 + (b < sf->B ? sf->noise[b] : 0));
	amd_percentile_interval(tmp, (size_t)B, level, &st->lo, &st->hi);
	st->lo = clamp0(st->lo);
	*ep = (struct amd_scaling_pred){ n, st->value * per_step, st->lo * per_step, st->hi * per_step };
	double base = ss ? ss->base_value * ss->base_n : NAN;
	*ef = (struct amd_scaling_pred){ n, base / (n * ep->value), base / (n * ep->hi),
		base / (n * ep->lo) };
}

/* One row of the whole at ns[a]: measured at a measured n, else
 * predicted; the Amdahl and USL fits beside it. */
static void whole_at(struct amd_scaling_strategy *s, const struct amd_strategy_stats *ss,
		     struct amd_scaling_whole *w, const double *ns, size_t k, size_t a,
		     const double *S0, const double *S, int B, double level, double *tmp)
{
	double n = ns[a];
	w->n = n;
	size_t q = anchor_of(s, n);
	if (s->ns[q] == n)
		whole_measured(s, ss, w, q);
	else
		whole_predicted(s, ss, w, ns, k, a, S0, S, B, level, tmp);
	const struct amd_scaling_pred *ep = &w->epoch;
	fit_epochs(ss, n, &w->amdahl_epoch, &w->usl_epoch);
	w->disagree = !w->measured
		&& ((isfinite(w->amdahl_epoch) && (w->amdahl_epoch < ep->lo || w->amdahl_epoch > ep->hi))
		    || (isfinite(w->usl_epoch) && (w->usl_epoch < ep->lo || w->usl_epoch > ep->hi)));
}

static int cmp_advice(const void *a, const void *b)
{
	const struct amd_scaling_advice *x = a, *y = b;
	double p = isnan(x->narrowing) ? INFINITY : x->narrowing;
	double q = isnan(y->narrowing) ? INFINITY : y->narrowing;
	return (p > q) - (p < q);
}

/* The candidates to measure next, ranked by how much k repeats there
 * narrow the interval of the sum of the region models at the target.
 * Where that cannot be predicted none is (NAN, why set: one run per n,
 * or a region with an interval at the target outside where the
 * prediction holds, amd_rfit_narrowing_holds), and they stay in the
 * order 2x, 4x, ... of the largest n. */
static int advise(struct amd_scaling_strategy *s, const struct amd_region_obs *obs,
		  const struct amd_scaling_opts *o)
{
	double top = s->ns[s->nn - 1], cand[32];
	size_t nc = 0;
	if (o->next)
		for (size_t a = 0; a < o->nnext && nc < 32; a++)
			cand[nc++] = o->next[a];
	else
		for (double n = 2 * top; nc < 32 && (nc == 0 || n <= s->target); n *= 2)
			cand[nc++] = n;
	s->advice = calloc(nc, sizeof *s->advice);
	if (!s->advice)
		return -1;
	double before = 0;
	const char *why = s->repeats < 2 ? AMD_SCALING_NO_NARROWING : NULL;
	for (size_t r = 0; r < s->nregions; r++) {
		const struct amd_rfit *f = &s->regions[r].fit;
		double v = amd_rfit_pred_var(f, s->target, o->level, 0, 0);
		before += isfinite(v) ? v : 0;
		if (!why && isfinite(v) && !amd_rfit_narrowing_holds(f))
			why = AMD_SCALING_NARROWING_UNSURE;
	}
	for (size_t c = 0; c < nc; c++) {
		if (why) {
			s->advice[c] = (struct amd_scaling_advice){ cand[c], s->repeats < 2 ? 1 : s->repeats,
				NAN, why };
			continue;
		}
		double after = 0;
		for (size_t r = 0; r < s->nregions; r++) {
			double v = amd_rfit_pred_var(&s->regions[r].fit, s->target, o->level,
						     cand[c], s->repeats);
			after += isfinite(v) ? v : 0;
		}
		s->advice[c] = (struct amd_scaling_advice){ cand[c], s->repeats,
			before > 0 ? sqrt(after / before) : NAN, NULL };
	}
	s->nadvice = nc;
	if (!why)
		qsort(s->advice, nc, sizeof *s->advice, cmp_advice);
	return 0;
}

/* The repeats per n the run-to-run noise asks for (±5% at 95%). */
static void repeats_needed(struct amd_scaling_strategy *s)
{
	double cv = s->noise_cv;
	if (!isfinite(cv)) {
		cv = s->step.fit.rel_noise;
		strcat(s->note, "noise from the step model's residuals (one run per n). ");
	}
	double k = ceil(pow(ADVICE_Z * cv / ADVICE_HALF, 2));
	s->repeats_needed = isfinite(k) ? (int)fmax(k, 2) : 0;
}

static int whole_all(struct amd_scaling_strategy *s, const struct amd_strategy_stats *ss,
		     const double *ns, size_t k, int level_B, const struct amd_scaling_opts *o)
{
	int B = level_B;
	double *S0 = malloc(k * sizeof *S0), *S = malloc((size_t)B * k * sizeof *S);
	double *tmp = malloc((size_t)(B ? B : 1) * sizeof *tmp);
	s->whole = calloc(k, sizeof *s->whole);
	int rc = S0 && S && tmp && s->whole ? 0 : -1;
	if (rc == 0) {
		s->nwhole = k;
		s->busy_max_n = 0;
		for (size_t r = 0; r < s->nregions; r++)
			s->busy_max_n += s->regions[r].measured_max_n;
		region_sums(s, ns, k, B, S0, S);
		for (size_t a = 0; a < k; a++)
			whole_at(s, ss, &s->whole[a], ns, k, a, S0, S, B, o->level, tmp);
		for (size_t r = 0; r < s->nregions; r++)
			region_shares(&s->regions[r], s, ns, k, S0, S, B, o->level, tmp);
	}
	free(S0);
	free(S);
	free(tmp);
	return rc;
}

static const struct amd_strategy_stats *find_strategy(const struct amd_sweep_stats *sw,
						      const char *name)
{
	for (size_t i = 0; sw && i < sw->nstrategies; i++)
		if (strcmp(sw->strategies[i].strategy, name) == 0)
			return &sw->strategies[i];
	return NULL;
}

int amd_scaling_whole(struct amd_scaling_strategy *s, const struct amd_region_obs *obs,
		      const struct amd_region_obs *step_obs, struct amd_store *st, const char *sweep, const struct amd_scaling_opts *o,
		      struct amd_err *err)
{
	double top = s->ns[s->nn - 1];
	s->target = o->target > 0 ? o->target : 4 * top;
	struct amd_analysis_opts ao = { .sweep = sweep, .axis = o->axis, .seed = o->seed,
					.level = o->level };
	struct amd_sweep_stats *sw = NULL; /* computed here, else o->analysis */
	const struct amd_sweep_stats *have = o->analysis;
	if (!amd_analysis_is(have, &ao) && amd_analyse(st, &ao, &sw, err) < 0)
		return -1;
	if (sw)
		have = sw;
	const struct amd_strategy_stats *ss = find_strategy(have, s->strategy);
	epoch_facts(ss, top, &s->epoch_max_n, &s->noise_cv);
	if (!isfinite(s->epoch_max_n))
		strcat(s->note, "no epoch time at the largest n: step times only. ");
	size_t k = 0;
	double *ns = pred_ns(s, &k);
	int B = o->resamples;
	for (size_t r = 0; r < s->nregions; r++)
		B = s->regions[r].fit.B < B ? s->regions[r].fit.B : B;
	int rc = ns ? 0 : -1;
	for (size_t r = 0; rc == 0 && r < s->nregions; r++)
		rc = region_preds(&s->regions[r], &obs[r], s, ns, k, o->level);
	if (rc == 0)
		rc = region_preds(&s->step, step_obs, s, ns, k, o->level);
	if (rc == 0)
		rc = whole_all(s, ss, ns, k, B, o);
	for (size_t w = 0; rc == 0 && o->axis && w < s->nwhole; w++) /* n's efficiency */
		s->whole[w].efficiency = (struct amd_scaling_pred){ s->whole[w].n, NAN, NAN, NAN };
	if (rc == 0)
		rc = crossovers(s);
	if (rc == 0)
		rc = advise(s, obs, o);
	if (rc == 0)
		repeats_needed(s);
	free(ns);
	amd_sweep_stats_free(sw);
	return rc < 0 ? amd_fail(err, "scaling: out of memory") : 0;
}
