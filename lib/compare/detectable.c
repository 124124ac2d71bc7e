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
 * the order), for the power simulation. */
struct power_sim {
	size_t m, n, S;
	double *zb, *zc; /* S·m and S·n */
	double ucrit;
};

/* min(U, mn − U) of draw s with the candidate shifted by d (relative),
 * spreads vb and vc (relative): pairs cand > base by a merge. */
static double sim_u(const struct power_sim *p, size_t s, double d, double vb, double vc)
{
	const double *b = p->zb + s * p->m, *c = p->zc + s * p->n;
	double u = 0;
	size_t i = 0;
	for (size_t j = 0; j < p->n; j++) {
		double cj = 1 + d + vc * c[j];
		while (i < p->m && 1 + vb * b[i] < cj)
			i++;
		u += (double)i;
	}
	double mn = (double)p->m * (double)p->n;
	return u < mn - u ? u : mn - u;
}

static double sim_power(const struct power_sim *p, double d, double vb, double vc)
{
	size_t hit = 0;
	for (size_t s = 0; s < p->S; s++)
		hit += sim_u(p, s, d, vb, vc) <= p->ucrit;
	return (double)hit / (double)p->S;
}

/* The relative shift at which the simulated power reaches
 * AMD_DETECT_POWER: bisection on common random numbers. */
static double power_shift(const struct power_sim *p, double vb, double vc)
{
	double lo = 0, hi = 4 * (vb + vc) + 1e-12;
	for (int i = 0; i < 60 && sim_power(p, hi, vb, vc) < AMD_DETECT_POWER; i++)
		hi *= 2;
	for (int i = 0; i < 40; i++) {
		double mid = (lo + hi) / 2;
		*(sim_power(p, mid, vb, vc) >= AMD_DETECT_POWER ? &hi : &lo) = mid;
	}
	return hi;
}

static int sim_fill(struct power_sim *p)
{
	p->zb = malloc(p->S * p->m * sizeof *p->zb);
	p->zc = malloc(p->S * p->n * sizeof *p->zc);
	gsl_rng *r = p->zb && p->zc ? amd_rng_new(AMD_DETECT_SEED) : NULL;
	if (!r)
		return -1;
	for (size_t s = 0; s < p->S; s++) {
		for (size_t i = 0; i < p->m; i++)
			p->zb[s * p->m + i] = gsl_ran_ugaussian(r);
		for (size_t j = 0; j < p->n; j++)
			p->zc[s * p->n + j] = gsl_ran_ugaussian(r);
		gsl_sort(p->zb + s * p->m, 1, p->m);
		gsl_sort(p->zc + s * p->n, 1, p->n);
	}
	gsl_rng_free(r);
	return 0;
}

/* The 80%-power shift of m against n runs with relative spreads vb, vc at
 * level a; INFINITY when no ranking reaches a, NAN out of memory. */
static double mw_detectable(size_t m, size_t n, double vb, double vc, double a)
{
	struct power_sim p = {m, n, AMD_DETECT_DRAWS, NULL, NULL, u_critical(m, n, a)};
	double d = NAN;
	if (amd_num_ok(p.ucrit) && p.ucrit >= 0 && sim_fill(&p) == 0)
		d = power_shift(&p, vb, vc);
	else if (amd_num_ok(p.ucrit) && p.ucrit < 0)
		d = INFINITY;
	free(p.zb);
	free(p.zc);
	return d;
}

static double detectable_with(const struct amd_comparison *c, const struct amd_cmp_row *r,
			      size_t m, size_t n)
{
	if (r->nb < 2 || r->nc < 2 || !amd_num_ok(r->med_base) || r->med_base == 0)
		return NAN;
	double a = row_level(c, r);
	if (amd_mwu_min_p(m, n) > a)
		return INFINITY;
	return mw_detectable(m, n, amd_sd(r->base, r->nb) / fabs(r->med_base),
			     amd_sd(r->cand, r->nc) / fabs(r->med_base), a);
}

static double detectable(const struct amd_comparison *c, const struct amd_cmp_row *r)
{
	return detectable_with(c, r, r->nb, r->nc);
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

void amd_cmp_noise(struct amd_comparison *c)
{
	c->likely_regressions = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		struct amd_cmp_row *r = &c->rows[i];
		r->detectable = r->verdict == AMD_MISSING ? NAN : detectable(c, r);
		r->likely = likely(r);
		c->likely_regressions += r->gated && r->likely == 1;
	}
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
		double d2 = detectable_with(c, w, 2 * w->nb, 2 * w->nc);
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
