/* significance.h — the statistics a comparison rests on, with no store
 * and no config: the two-sided Mann–Whitney U (exact null distribution
 * for small samples without ties, normal approximation with tie and
 * continuity correction otherwise), the smallest p a sample size can
 * reach, Holm's correction, and the ratio of medians with a bootstrap
 * interval. */
#ifndef AMD_SIGNIFICANCE_H
#define AMD_SIGNIFICANCE_H

#include <stddef.h>

#include "analysis.h"
#include "err.h"

struct amd_mwu {
	double u;      /* U of the first sample: pairs (x_i, y_j) with x_i > y_j, ties ½ */
	double p;      /* two-sided */
	int exact;     /* 1: exact null distribution; 0: normal approximation */
	int ties;      /* 1: some values tie (across or within the samples) */
};

/* Largest m·n for which the exact distribution is used (when no ties). */
#define AMD_MWU_EXACT_MAX_MN 2500

/* Two-sided Mann–Whitney U of x (m values) against y (n values); m, n ≥ 1. */
int amd_mann_whitney(const double *x, size_t m, const double *y, size_t n,
		     struct amd_mwu *out, struct amd_err *err);
/* P(U ≤ u) under the null for sample sizes m, n (no ties), by counting
 * rankings with a dynamic programme over (m, n, U); NAN when too large. */
double amd_mwu_exact_cdf(size_t m, size_t n, double u);
/* The whole null CDF: t[u] = P(U ≤ u), u = 0..m·n (malloc'd; NULL when
 * m·n > AMD_MWU_EXACT_MAX_MN or out of memory). */
double *amd_mwu_exact_cdf_table(size_t m, size_t n);
/* The smallest two-sided p any ranking of m against n values can give:
 * 2 / C(m+n, m), at most 1. */
double amd_mwu_min_p(size_t m, size_t n);
/* Smallest k such that k runs against k can reach alpha (min p ≤ alpha). */
int amd_mwu_runs_needed(double alpha);

/* Holm–Bonferroni adjusted p-values of p[0..n) into adj (may alias p);
 * -1 when out of memory (adj untouched). */
int amd_holm(const double *p, size_t n, double *adj);

/* Ratio of medians cand/base (amd_median) with a percentile bootstrap
 * interval (resampling each side, gsl_rng mt19937 seeded with seed). The
 * interval is invalid (with why) when a side has fewer than 3 values. */
int amd_median_ratio(const double *base, size_t nb, const double *cand, size_t nc,
		     int resamples, unsigned long seed, double level,
		     double *ratio, struct amd_ci *ci, struct amd_err *err);
/* ci->level: what the 95% interval covers in simulation when below 0.93
 * (stats.h: amd_median_ratio_coverage for the median,
 * amd_mlperf_ratio_coverage for MLPerf's mean). The same with each side reduced by agg (aggregate.h: the median or
 * MLPerf's trimmed mean) instead of the median. */
int amd_aggregate_ratio(const double *base, size_t nb, const double *cand, size_t nc,
			enum amd_aggregate agg, int resamples, unsigned long seed, double level,
			double *ratio, struct amd_ci *ci, struct amd_err *err);

#endif
