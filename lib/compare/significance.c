/* significance.c — the statistics of a comparison (significance.h):
 * Mann–Whitney U (exact null distribution by counting, or the normal approximation with tie and
 * continuity correction), Holm's adjustment, the bootstrap ratio of
 * medians (amd_median, lib/analysis/stats.h), and the smallest
 * attainable p that decides "insufficient data". Rows and verdicts are
 * built in compare.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "resample.h"
#include "significance.h"
#include "num.h"
#include "stats.h"

struct tagged {
	double v;
	int from_x;
};

static int cmp_tagged(const void *a, const void *b)
{
	double x = ((const struct tagged *)a)->v, y = ((const struct tagged *)b)->v;
	return (x > y) - (x < y);
}

/* Counts of rankings by U for sizes (m, n): cnt[u], u = 0..m·n. The largest
 * of the pooled values is either an x (beating all n y's: U shifts by n)
 * or a y, so N(i, j, u) = N(i-1, j, u-j) + N(i, j-1, u). Rolled over i. */
static double *mwu_counts(size_t m, size_t n)
{
	size_t umax = m * n, w = umax + 1;
	double *prev = calloc((n + 1) * w, sizeof *prev);
	double *cur = calloc((n + 1) * w, sizeof *cur);
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NULL;
	}
	for (size_t j = 0; j <= n; j++)
		prev[j * w] = 1; /* i = 0: only U = 0 */
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * w * sizeof *cur);
		cur[0] = 1; /* j = 0: only U = 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++)
				cur[j * w + u] = (u >= j ? prev[j * w + u - j] : 0) +
						 cur[(j - 1) * w + u];
		double *t = prev;
		prev = cur;
		cur = t;
	}
	double *out = malloc(w * sizeof *out);
	if (out)
		memcpy(out, prev + n * w, w * sizeof *out);
	free(prev);
	free(cur);
	return out;
}

double amd_mwu_exact_cdf(size_t m, size_t n, double u)
{
	if (m == 0 || n == 0 || m * n > AMD_MWU_EXACT_MAX_MN)
		return NAN;
	if (n > m) { /* the distribution is symmetric in (m, n): fewer rows */
		size_t t = m;
		m = n;
		n = t;
	}
	double *cnt = mwu_counts(m, n);
	if (!cnt)
		return NAN;
	double below = 0, total = 0;
	for (size_t k = 0; k <= m * n; k++) {
		total += cnt[k];
		if ((double)k <= u)
			below += cnt[k];
	}
	free(cnt);
	return below / total;
}

double *amd_mwu_exact_cdf_table(size_t m, size_t n)
{
	if (m == 0 || n == 0 || m * n > AMD_MWU_EXACT_MAX_MN)
		return NULL;
	double *cnt = mwu_counts(m > n ? m : n, m > n ? n : m);
	if (!cnt)
		return NULL;
	double total = 0;
	for (size_t k = 0; k <= m * n; k++)
		total += cnt[k];
	double below = 0;
	for (size_t k = 0; k <= m * n; k++) {
		below += cnt[k];
		cnt[k] = below / total;
	}
	return cnt;
}

double amd_mwu_min_p(size_t m, size_t n)
{
	if (m == 0 || n == 0)
		return 1;
	double c = 1; /* C(m+n, m), exact in a double while it is below 2^53 */
	size_t k = m < n ? m : n, big = m + n - k;
	for (size_t i = 1; i <= k; i++)
		c = c * (double)(big + i) / (double)i;
	double p = 2 / c;
	return p < 1 ? p : 1;
}

int amd_mwu_runs_needed(double alpha)
{
	for (int k = 1; k <= 1000; k++)
		if (amd_mwu_min_p((size_t)k, (size_t)k) <= alpha)
			return k;
	return -1;
}

int amd_mann_whitney(const double *x, size_t m, const double *y, size_t n,
		     struct amd_mwu *out, struct amd_err *err)
{
	if (m == 0 || n == 0)
		return amd_fail(err, "Mann-Whitney U: a sample is empty (%zu vs %zu)", m, n);
	size_t N = m + n;
	struct tagged *a = malloc(N * sizeof *a);
	if (!a)
		return amd_fail(err, "Mann-Whitney U: out of memory");
	for (size_t i = 0; i < m; i++)
		a[i] = (struct tagged){x[i], 1};
	for (size_t j = 0; j < n; j++)
		a[m + j] = (struct tagged){y[j], 0};
	qsort(a, N, sizeof *a, cmp_tagged);
	double rank_x = 0, tie_term = 0;
	for (size_t i = 0; i < N;) {
		size_t j = i;
		while (j + 1 < N && a[j + 1].v == a[i].v)
			j++;
		double t = (double)(j - i + 1), mid = (double)(i + j) / 2 + 1;
		tie_term += t * t * t - t;
		for (size_t k = i; k <= j; k++)
			rank_x += a[k].from_x ? mid : 0;
		i = j + 1;
	}
	free(a);
	double mn = (double)m * (double)n;
	out->u = rank_x - (double)m * ((double)m + 1) / 2;
	out->ties = tie_term > 0;
	out->exact = !out->ties && m * n <= AMD_MWU_EXACT_MAX_MN;
	double u_small = out->u < mn - out->u ? out->u : mn - out->u;
	if (out->exact) {
		double cdf = amd_mwu_exact_cdf(m, n, u_small); /* NAN: out of memory */
		if (!amd_num_ok(cdf))
			return amd_fail(err, "Mann-Whitney U: out of memory");
		double p = 2 * cdf;
		out->p = p < 1 ? p : 1;
		return 0;
	}
	double Nd = (double)N;
	double var = mn / 12 * ((Nd + 1) - tie_term / (Nd * (Nd - 1)));
	if (!(var > 0)) { /* every value equal: nothing separates the samples */
		out->p = 1;
		return 0;
	}
	double z = (mn / 2 - u_small - 0.5) / sqrt(var);
	double p = 2 * gsl_cdf_ugaussian_Q(z);
	out->p = p < 1 ? p : 1;
	return 0;
}

int amd_holm(const double *p, size_t n, double *adj)
{
	if (n == 0)
		return 0;
	struct amd_ranked *s = malloc(n * sizeof *s);
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++)
		s[i] = (struct amd_ranked){p[i], i};
	qsort(s, n, sizeof *s, amd_ranked_cmp);
	double run = 0;
	for (size_t k = 0; k < n; k++) {
		double v = (double)(n - k) * s[k].v;
		if (v > run)
			run = v;
		adj[s[k].i] = run < 1 ? run : 1;
	}
	free(s);
	return 0;
}

/* The aggregate of v (amd_aggregate: NaN skipped); NAN from values that
 * are there means out of memory. */
static int aggregate_of(const double *v, size_t n, enum amd_aggregate agg, double *out,
			struct amd_err *err)
{
	*out = amd_aggregate(v, n, agg);
	if (amd_num_ok(*out) || amd_finite_count(v, n) == 0)
		return 0;
	return amd_fail(err, "ratio of %ss: out of memory", amd_aggregate_name(agg));
}

/* The aggregate of n values drawn from v with replacement (into tmp); a
 * median's draws laid out sorted by counting when rs is given
 * (resample.h: the array the median would sort them into). */
static int resampled_aggregate(gsl_rng *r, const double *v, size_t n, enum amd_aggregate agg,
			       const struct amd_resample *rs, double *tmp, double *out,
			       struct amd_err *err)
{
	if (rs && agg == AMD_AGG_MEDIAN) {
		size_t k = amd_resample_draw(rs, r, tmp);
		*out = k ? amd_median_sorted(tmp, k) : NAN;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[gsl_rng_uniform_int(r, n)];
	return aggregate_of(tmp, n, agg, out, err);
}

/* The two sides of a ratio and the statistic each is reduced to. */
struct ratio_sides {
	const double *base, *cand;
	size_t nb, nc;
	enum amd_aggregate agg;
};

/* Percentile interval of the ratio of resampled aggregates. */
static int boot_ratio(const struct ratio_sides *sd, int resamples, unsigned long seed,
		      double level, double *tmp, double *ratios, struct amd_ci *ci,
		      struct amd_err *err)
{
	gsl_rng *r = amd_rng_new(seed);
	if (!r)
		return amd_fail(err, "ratio of %ss: out of memory", amd_aggregate_name(sd->agg));
	struct amd_resample cb, cc; /* a median's draws sorted by counting */
	int med = sd->agg == AMD_AGG_MEDIAN;
	const struct amd_resample *rb = med && amd_resample_init(&cb, sd->base, sd->nb) == 0 ? &cb
				       : NULL;
	const struct amd_resample *rcand = med && amd_resample_init(&cc, sd->cand, sd->nc) == 0
					   ? &cc : NULL;
	size_t k = 0;
	int rc = 0;
	for (int i = 0; i < resamples && rc == 0; i++) {
		double b, c;
		rc = resampled_aggregate(r, sd->base, sd->nb, sd->agg, rb, tmp, &b, err);
		if (rc == 0)
			rc = resampled_aggregate(r, sd->cand, sd->nc, sd->agg, rcand, tmp, &c, err);
		if (rc == 0 && b != 0)
			ratios[k++] = c / b;
	}
	if (rb)
		amd_resample_free(&cb);
	if (rcand)
		amd_resample_free(&cc);
	gsl_rng_free(r);
	if (rc < 0)
		return -1;
	if (k < 2) {
		ci->why = "too few usable resamples";
		return 0;
	}
	gsl_sort(ratios, 1, k);
	double tail = (1 - level) / 2;
	ci->lo = gsl_stats_quantile_from_sorted_data(ratios, 1, k, tail);
	ci->hi = gsl_stats_quantile_from_sorted_data(ratios, 1, k, 1 - tail);
	ci->valid = 1;
	return 0;
}

int amd_aggregate_ratio(const double *base, size_t nb, const double *cand, size_t nc,
			enum amd_aggregate agg, int resamples, unsigned long seed, double level,
			double *ratio, struct amd_ci *ci, struct amd_err *err)
{
	*ci = (struct amd_ci){NAN, NAN, 0, NULL, 0};
	*ratio = NAN;
	if (nb == 0 || nc == 0) {
		ci->why = "a side has no runs";
		return 0;
	}
	size_t big = nb > nc ? nb : nc;
	double *tmp = malloc(big * sizeof *tmp);
	double *ratios = malloc((size_t)(resamples > 0 ? resamples : 1) * sizeof *ratios);
	if (!tmp || !ratios) {
		free(tmp);
		free(ratios);
		return amd_fail(err, "ratio of %ss: out of memory", amd_aggregate_name(agg));
	}
	struct ratio_sides sd = {base, cand, nb, nc, agg};
	double mb, mc;
	int rc = aggregate_of(base, nb, agg, &mb, err);
	if (rc == 0)
		rc = aggregate_of(cand, nc, agg, &mc, err);
	if (rc == 0) {
		*ratio = mb != 0 ? mc / mb : NAN;
		if (nb < 3 || nc < 3)
			ci->why = "fewer than 3 runs on a side: no interval";
		else if (mb == 0)
			ci->why = agg == AMD_AGG_MLPERF ? "the baseline's MLPerf mean is 0: no ratio"
							: "the baseline median is 0: no ratio";
		else
			rc = boot_ratio(&sd, resamples, seed, level, tmp, ratios, ci, err);
		double cover = agg == AMD_AGG_MLPERF ? amd_mlperf_ratio_coverage(nb, nc)
						     : amd_median_ratio_coverage(nb, nc);
		if (rc == 0 && ci->valid && fabs(level - 0.95) < 1e-12 && cover < 0.93)
			ci->level = cover; /* what it covers, not 95% */
	}
	free(tmp);
	free(ratios);
	return rc;
}

int amd_median_ratio(const double *base, size_t nb, const double *cand, size_t nc,
		     int resamples, unsigned long seed, double level,
		     double *ratio, struct amd_ci *ci, struct amd_err *err)
{
	return amd_aggregate_ratio(base, nb, cand, nc, AMD_AGG_MEDIAN, resamples, seed, level,
				   ratio, ci, err);
}
