/* detectable.c — the smallest detectable change per row and the likely
 * regressions of rows too small for the test (detectable.h). */
#include "detectable.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_double.h>

#include "compare_table.h"
#include "num.h"
#include "significance.h"
#include "stats.h"

static double row_level(const struct amd_comparison *c, const struct amd_cmp_row *r)
{
	return r->gated && c->family > 1 ? r->alpha / (double)c->family : r->alpha;
}

/* The largest min(U, mn − U) the row's Mann–Whitney test rejects at level
 * a, as amd_mann_whitney decides (no ties): the exact null distribution up
 * to AMD_MWU_EXACT_MAX_MN pairs, else the normal approximation with its
 * continuity correction; -1 when no U rejects, NAN out of memory. */
static double u_critical(size_t m, size_t n, double a)
{
	double mn = (double)m * (double)n;
	if (m * n <= AMD_MWU_EXACT_MAX_MN) { /* bisection: the cdf rises with u */
		double lo = -1, hi = floor(mn / 2) + 1; /* 2·cdf(lo) <= a < 2·cdf(hi) */
		while (hi - lo > 1) {
			double mid = floor((lo + hi) / 2), cdf = amd_mwu_exact_cdf(m, n, mid);
			if (!amd_num_ok(cdf))
				return NAN;
			*(2 * cdf <= a ? &lo : &hi) = mid;
		}
		return lo;
	}
	double sd = sqrt(mn * ((double)(m + n) + 1) / 12);
	return floor(mn / 2 - 0.5 - gsl_cdf_ugaussian_Qinv(a / 2) * sd);
}

/* Draws of both sides' standardised noise, each side sorted (a shift keeps
 * the order): S·m and S·n values, made once for every row of the same run
 * counts (the draws depend on m, n and the seed only). */
struct noise_draws {
	size_t m, n;
	double *zb, *zc;
};

static void draws_free(struct noise_draws *z)
{
	free(z->zb);
	free(z->zc);
	z->zb = z->zc = NULL;
	z->m = z->n = 0;
}

/* z holds the draws of m against n runs, made now unless it held them. */
static int draws_for(struct noise_draws *z, size_t m, size_t n)
{
	if (z->zb && z->m == m && z->n == n)
		return 0;
	draws_free(z);
	const size_t S = AMD_DETECT_DRAWS;
	z->zb = malloc(S * m * sizeof *z->zb);
	z->zc = malloc(S * n * sizeof *z->zc);
	gsl_rng *r = z->zb && z->zc ? amd_rng_new(AMD_DETECT_SEED) : NULL;
	if (!r) {
		draws_free(z);
		return -1;
	}
	for (size_t s = 0; s < S; s++) {
		for (size_t i = 0; i < m; i++)
			z->zb[s * m + i] = gsl_ran_ugaussian(r);
		for (size_t j = 0; j < n; j++)
			z->zc[s * n + j] = gsl_ran_ugaussian(r);
		gsl_sort(z->zb + s * m, 1, m);
		gsl_sort(z->zc + s * n, 1, n);
	}
	gsl_rng_free(r);
	z->m = m;
	z->n = n;
	return 0;
}

/* The power simulation of one row: its draws, the rejecting bound of
 * min(U, mn − U), and per draw bounds on U over the bisection's interval
 * [lo, hi] (ulo at lo, uhi at hi). */
struct power_sim {
	const struct noise_draws *z;
	size_t S;
	double mn, ucrit, vb, vc;
	double *ulo, *uhi, *u;
};

/* U of draw s with the candidate shifted by d (relative): the pairs with
 * cand > base, by a merge. Never falls as d grows (each candidate value
 * only rises), which the bisection's bounds rely on. */
static double sim_u(const struct power_sim *p, size_t s, double d)
{
	size_t m = p->z->m, n = p->z->n;
	const double *b = p->z->zb + s * m, *c = p->z->zc + s * n;
	double u = 0, vb = p->vb, vc = p->vc;
	size_t i = 0;
	for (size_t j = 0; j < n; j++) {
		double cj = 1 + d + vc * c[j];
		while (i < m && 1 + vb * b[i] < cj)
			i++;
		u += (double)i;
	}
	return u;
}

/* The two-sided test rejects: min(U, mn − U) <= its bound. */
static int rejects(const struct power_sim *p, double u)
{
	return (u < p->mn - u ? u : p->mn - u) <= p->ucrit;
}

/* Whether the power at shift d reaches AMD_DETECT_POWER; every draw's U
 * into p->u. */
static int power_reaches_all(const struct power_sim *p, double d)
{
	size_t hit = 0;
	for (size_t s = 0; s < p->S; s++) {
		p->u[s] = sim_u(p, s, d);
		hit += rejects(p, p->u[s]);
	}
	return (double)hit / (double)p->S >= AMD_DETECT_POWER;
}

/* The same for lo < d < hi, with U[s] known to lie in [ulo[s], uhi[s]]: a
 * draw whose test decides alike at both bounds (the accepting U form an
 * interval) decides so at d without its merge; p->u[s] is -1 for those. */
static int power_reaches_within(const struct power_sim *p, double d)
{
	size_t hit = 0;
	for (size_t s = 0; s < p->S; s++) {
		double a = p->ulo[s], b = p->uhi[s];
		p->u[s] = -1;
		if (b <= p->ucrit || p->mn - a <= p->ucrit)
			hit++;
		else if (rejects(p, a) || rejects(p, b))
			hit += rejects(p, p->u[s] = sim_u(p, s, d));
	}
	return (double)hit / (double)p->S >= AMD_DETECT_POWER;
}

static void keep_bounds(const struct power_sim *p, double *to)
{
	for (size_t s = 0; s < p->S; s++)
		if (p->u[s] >= 0)
			to[s] = p->u[s];
}

/* The relative shift at which the simulated power reaches
 * AMD_DETECT_POWER: bisection on common random numbers. Each draw's U is
 * known to lie between its values at the interval's ends, so only the
 * draws whose test could still change are merged again. */
static double power_shift(struct power_sim *p)
{
	double lo = 0, hi = 4 * (p->vb + p->vc) + 1e-12;
	int i = 0;
	while (i < 60 && !power_reaches_all(p, hi))
		hi *= 2, i++;
	if (i == 60) /* hi past the last one measured: its bounds still */
		power_reaches_all(p, hi);
	keep_bounds(p, p->uhi);
	for (size_t s = 0; s < p->S; s++)
		p->ulo[s] = 0;
	for (i = 0; i < 40; i++) {
		double mid = (lo + hi) / 2;
		int up = power_reaches_within(p, mid);
		*(up ? &hi : &lo) = mid;
		keep_bounds(p, up ? p->uhi : p->ulo);
	}
	return hi;
}

/* The 80%-power shift of m against n runs with relative spreads vb, vc at
 * level a; INFINITY when no ranking reaches a, NAN out of memory. */
static double mw_detectable(struct noise_draws *z, size_t m, size_t n, double vb, double vc,
			    double a)
{
	double ucrit = u_critical(m, n, a);
	if (!amd_num_ok(ucrit))
		return NAN;
	if (ucrit < 0)
		return INFINITY;
	const size_t S = AMD_DETECT_DRAWS;
	struct power_sim p = {z, S, (double)m * (double)n, ucrit, vb, vc, malloc(S * sizeof(double)),
			      malloc(S * sizeof(double)), malloc(S * sizeof(double))};
	double d = NAN;
	if (p.ulo && p.uhi && p.u && draws_for(z, m, n) == 0)
		d = power_shift(&p);
	free(p.ulo);
	free(p.uhi);
	free(p.u);
	return d;
}

static double detectable_with(const struct amd_comparison *c, const struct amd_cmp_row *r,
			      size_t m, size_t n, struct noise_draws *z)
{
	if (r->nb < 2 || r->nc < 2 || !amd_num_ok(r->med_base) || r->med_base == 0)
		return NAN;
	double a = row_level(c, r);
	if (amd_mwu_min_p(m, n) > a)
		return INFINITY;
	return mw_detectable(z, m, n, amd_sd(r->base, r->nb) / fabs(r->med_base),
			     amd_sd(r->cand, r->nc) / fabs(r->med_base), a);
}

/* The gated row with the largest finite detectable change, or NULL. */
static const struct amd_cmp_row *least_sensitive(const struct amd_comparison *c)
{
	const struct amd_cmp_row *w = NULL;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (r->gated && amd_num_ok(r->detectable) && (!w || r->detectable > w->detectable))
			w = r;
	}
	return w;
}

static int likely(const struct amd_cmp_row *r)
{
	if (r->verdict != AMD_INSUFFICIENT || !r->ci.valid)
		return 0;
	double up = 1 + r->threshold, down = 1 - r->threshold;
	int above = r->ci.lo > up, below = r->ci.hi < down;
	if (r->dir == AMD_LOWER_IS_BETTER)
		return above ? 1 : below ? -1 : 0;
	return below ? 1 : above ? -1 : 0;
}

/* Rows by their run counts, so that rows of the same counts share draws. */
static int by_run_counts(const void *x, const void *y)
{
	const struct amd_cmp_row *a = *(struct amd_cmp_row *const *)x;
	const struct amd_cmp_row *b = *(struct amd_cmp_row *const *)y;
	if (a->nb != b->nb)
		return a->nb < b->nb ? -1 : 1;
	return a->nc < b->nc ? -1 : a->nc > b->nc;
}

void amd_cmp_noise(struct amd_comparison *c)
{
	struct noise_draws z = {0};
	struct amd_cmp_row **order = c->nrows ? malloc(c->nrows * sizeof *order) : NULL;
	for (size_t i = 0; order && i < c->nrows; i++)
		order[i] = &c->rows[i];
	if (order)
		qsort(order, c->nrows, sizeof *order, by_run_counts);
	c->likely_regressions = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		struct amd_cmp_row *r = order ? order[i] : &c->rows[i];
		r->detectable = r->verdict == AMD_MISSING ? NAN
			      : detectable_with(c, r, r->nb, r->nc, &z);
		r->likely = likely(r);
		c->likely_regressions += r->gated && r->likely == 1;
	}
	draws_free(&z);
	free(order);
}

void amd_cmp_detectable_range(const struct amd_comparison *c, double *lo, double *hi,
			      size_t *none)
{
	*lo = *hi = NAN;
	*none = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (!r->gated || isnan(r->detectable))
			continue;
		if (isinf(r->detectable)) {
			++*none;
			continue;
		}
		*lo = isnan(*lo) || r->detectable < *lo ? r->detectable : *lo;
		*hi = isnan(*hi) || r->detectable > *hi ? r->detectable : *hi;
	}
}

static int likely_lines(const struct amd_comparison *c, const char *prefix, struct amd_buf *b)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (!r->gated || r->likely != 1)
			continue;
		char cfg[160], ratio[96];
		amd_cmp_config(r, cfg, sizeof cfg);
		amd_cmp_ratio(r, "-", ratio, sizeof ratio);
		if (amd_buf_printf(b, "%slikely regression: %s %s ratio %s lies wholly past the %g%% "
				   "threshold, but %zu vs %zu runs cannot reach alpha; %d runs per "
				   "side would confirm it\n", prefix, r->metric, cfg, ratio,
				   r->threshold * 100, r->nc, r->nb, r->runs_needed) < 0)
			return -1;
	}
	return 0;
}

int amd_cmp_noise_text(const struct amd_comparison *c, const char *prefix, struct amd_buf *b)
{
	double lo, hi;
	size_t none;
	amd_cmp_detectable_range(c, &lo, &hi, &none);
	int rc = 0;
	if (!isnan(lo))
		rc = amd_buf_printf(b, "%ssmallest change these runs could detect (80%% power at the"
				    " test's level, from the runs' spread): %.1f%% to %.1f%% across"
				    " the gated rows", prefix, lo * 100, hi * 100);
	else if (none)
		rc = amd_buf_printf(b, "%ssmallest change these runs could detect: none", prefix);
	if (rc == 0 && none)
		rc = amd_buf_printf(b, "%s%zu gated row%s cannot detect any change with %s run"
				    " counts", isnan(lo) ? " — " : "; ", none, none == 1 ? "" : "s",
				    none == 1 ? "its" : "their");
	const struct amd_cmp_row *w = rc == 0 && !isnan(lo) ? least_sensitive(c) : NULL;
	if (w) { /* what more repeats would buy, by the same simulation */
		struct noise_draws z = {0};
		double d2 = detectable_with(c, w, 2 * w->nb, 2 * w->nc, &z);
		draws_free(&z);
		if (amd_num_ok(d2))
			rc = amd_buf_printf(b, "; twice the runs (%zu vs %zu) would detect %.1f%% where "
					    "these detect %.1f%%", 2 * w->nc, 2 * w->nb, d2 * 100,
					    w->detectable * 100);
	}
	if (rc == 0 && (!isnan(lo) || none))
		rc = amd_buf_printf(b, "\n");
	return rc < 0 ? -1 : likely_lines(c, prefix, b);
}

const char *amd_cmp_detectable_value(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (isinf(r->detectable))
		snprintf(buf, n, "none");
	else if (isnan(r->detectable))
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%.10g", r->detectable);
	return buf;
}

const char *amd_cmp_detectable_sentence(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (isinf(r->detectable))
		snprintf(buf, n, "smallest change these runs could detect: none (%zu vs %zu runs "
			 "cannot reach the test's level)", r->nc, r->nb);
	else if (isnan(r->detectable))
		snprintf(buf, n, "smallest change these runs could detect: unknown (a side has "
			 "fewer than 2 runs or no median)");
	else
		snprintf(buf, n, "smallest change these runs could detect (80%% power at the test's "
			 "level, from the runs' spread): %.1f%%", r->detectable * 100);
	return buf;
}
