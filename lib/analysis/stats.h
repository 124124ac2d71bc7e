/* stats.h — the statistics amdahl reports, on GSL: location and spread
 * (median, quantiles, mean, sd, CV, MAD), intervals (percentile
 * bootstrap with a fixed-seed mt19937, t-based), and the scaling models
 * (Amdahl least squares on 1/n, USL by nonlinear least squares,
 * Karp–Flatt). Every function skips NaN inputs; a result that cannot be
 * computed is NAN, an interval that cannot be computed says why.
 *
 * Out of memory: the location and spread functions fall back to a way
 * that needs none (slower, quadratic), so their result is never wrong;
 * an interval or fit refused for want of memory says so in why and sets
 * oom, which callers turn into an error. */
#ifndef AMD_STATS_H
#define AMD_STATS_H

#include <stddef.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "aggregate.h"

/* Location and spread over the finite values of x (NaN skipped). */
size_t amd_finite_count(const double *x, size_t n);
double amd_median(const double *x, size_t n);
/* Quantile p in [0,1], linear interpolation between order statistics
 * (GSL's definition, numpy's default "linear"). */
double amd_quantile(const double *x, size_t n, double p);
double amd_mean(const double *x, size_t n);
double amd_sd(const double *x, size_t n);   /* sample sd (n-1); NAN below 2 values */
double amd_cv(const double *x, size_t n);   /* sd / mean */
double amd_mad(const double *x, size_t n);  /* median |x - median|, unscaled */
double amd_min(const double *x, size_t n);
double amd_max(const double *x, size_t n);

/* Modified z-score of Iglewicz and Hoaglin: 0.6745 |x - median| / MAD.
 * Flags (out[i] = 1) finite values whose score exceeds k; needs at least
 * 3 finite values and MAD > 0, else flags nothing. Returns the count. */
size_t amd_mad_flags(const double *x, size_t n, double k, int *out);

struct amd_interval {
	double lo, hi;
	int valid;
	double level;       /* its own coverage when not the one asked for; 0: as asked */
	char why[64];
	int oom;            /* refused for want of memory */
};

/* Bootstrap settings: resamples (>= 2000 enforced), seed for gsl_rng
 * mt19937, level (e.g. 0.95), and the statistic each resample is reduced
 * to (aggregate.h; zero: the median). */
/* The median of v[0..m) sorted (m > 0); the midpoint of the two middle
 * values never overflows (1e308 and 1e308 give 1e308, not inf). */
double amd_median_sorted(const double *v, size_t m);

struct amd_boot {
	int resamples;
	unsigned long seed;
	double level;
	enum amd_aggregate aggregate;
};

/* Percentile-bootstrap CI of the median (or of b->aggregate): resample x
 * with replacement, take the median, report the (1-level)/2 and (1+level)/2 quantiles of
 * the resampled medians. Refused below 3 finite values ("n=2: no CI"). */
int amd_boot_median_ci(const double *x, size_t n, const struct amd_boot *b,
		       struct amd_interval *ci);

/* Percentile-bootstrap CI of median(num)/median(den) (or b->aggregate's), resampling the two
 * samples independently. Refused when either has fewer than 3 values. */
/* The distribution-free interval of the median of x[0..n) (finite values):
 * the order statistics [x(j), x(n+1-j)] with the largest j whose exact
 * coverage 1 - 2 P(Bin(n, 1/2) <= j-1) is at least level; ci->level is
 * that coverage. Below 6 values no j reaches 95%: [min, max] with its
 * own level (75% at 3, 87.5% at 4, 93.75% at 5). Refused below 3. */
int amd_median_os_ci(const double *x, size_t n, double level, struct amd_interval *ci);

/* The coverage the 95% percentile bootstrap of MLPerf's mean reaches with
 * n runs (simulated, normal and log-normal noise, tests/eval/small_sample.py,
 * docs/methods.md): 0.73, 0.86, 0.89, 0.90 at 3-6 runs, 0.91 at 7-11,
 * 0.92 at 12-19, 0.95 from 20 (93-94% simulated at 20 and 30: the 95%
 * label holds its 93% floor). The interval is labelled with it below
 * 0.95; 0 below 3 runs. */
double amd_mlperf_boot_coverage(size_t n);

/* The same for the 95% percentile bootstrap of a mean (energy, power,
 * utilisation: Σnum/Σden over the runs, a mean when each run's den is the
 * same): 0.73, 0.80, 0.83, 0.85, 0.85 at 3-7 runs, 0.88 at 8-9, 0.89 at
 * 10-11, 0.91 from 12 (simulated up to 12). */
double amd_mean_boot_coverage(size_t n);

/* What the 95% percentile-bootstrap interval of a ratio of medians of nb
 * against nc runs covers, by simulation: 0.89 at 3 against 3, 0.75 at 3
 * against many; 0.95 from 5 runs a side (up to 100 against 5).
 * compare's and stats' speedup intervals are labelled with it when it is
 * below 0.93. */
double amd_median_ratio_coverage(size_t nb, size_t nc);

/* The same for the 95% percentile bootstrap of a ratio of MLPerf means
 * (compare's and gate's ratio with --aggregate mlperf), simulated at the
 * run counts in stats.c (docs/methods.md): its coverage where below 0.93,
 * else 0.95; 0 below 3 runs on a side. */
double amd_mlperf_ratio_coverage(size_t nb, size_t nc);

/* What compare's/gate's speedup and efficiency rows' interval covers
 * (a ratio of two strategies' speedups, each run's speedup against its
 * side's base-n aggregate held fixed), nb and nc the fewest runs of each
 * side at the base n and at n, mlperf nonzero with --aggregate mlperf:
 * simulated at the run counts in stats.c (docs/methods.md), 0.73-0.87;
 * 0 below 3 runs on a side. */
double amd_speedup_ratio_coverage(size_t nb, size_t nc, int mlperf);

int amd_boot_ratio_ci(const double *num, size_t nn, const double *den, size_t nd,
		      const struct amd_boot *b, struct amd_interval *ci);

/* Percentile-bootstrap CI of Σnum/Σden over the pairs (num[i], den[i])
 * with both finite, resampled together (den NULL: each 1, so the CI of
 * the mean of num): energy and power, whose point value is such a mean or
 * ratio of sums. Refused below 3 pairs ("n=2: no CI"). */
int amd_boot_sum_ratio_ci(const double *num, const double *den, size_t n,
			  const struct amd_boot *b, struct amd_interval *ci);

/* t-based CI of the mean: mean ± t(1-(1-level)/2, n-1) sd/sqrt(n). */
int amd_t_mean_ci(const double *x, size_t n, double level, struct amd_interval *ci);

/* Amdahl: T(n) = a + b/n by ordinary least squares of T on 1/n
 * (gsl_fit_linear; T past 1e100 or below 1e-100 as fractions of its
 * largest |T|, so that times near 1e308 do not overflow). serial = a/(a+b) (NaN when a + b is 0);
 * r2 the coefficient of determination, NaN when T does not vary. Needs
 * 2 distinct n. */
struct amd_amdahl {
	int ok;
	char why[128];
	double a, b, serial, r2;
	int oom;            /* failed for want of memory */
};
int amd_amdahl_fit(const double *n, const double *t, size_t m, struct amd_amdahl *out);

/* The groups of a bootstrap over runs: for each of m axis values, the
 * runs' values. */
struct amd_group {
	double n;
	const double *x;
	size_t len;
};
/* CI of the Amdahl serial fraction by bootstrap over runs: resample the
 * runs of each n with replacement, refit on the resampled medians (or
 * b->aggregate).
 * Refused when any group has fewer than 3 runs. */
int amd_amdahl_serial_ci(const struct amd_group *g, size_t m, const struct amd_boot *b,
			 struct amd_interval *ci);
/* What the 95% bootstrap interval of the serial fraction covers in
 * simulation (tests/eval/small_sample.py "serial fraction": Amdahl sweeps
 * with 5% normal and log-normal noise, the lower of the two) when the
 * fewest runs at any n is `fewest` over m distinct n: that coverage where
 * below 0.93, else 0.95; 0 below 3 runs. */
double amd_amdahl_serial_coverage(size_t fewest, size_t m);

/* USL: X(n) = gamma n / (1 + alpha (n-1) + beta n (n-1)) by nonlinear
 * least squares (gsl_multifit_nlinear, trust region with Levenberg–
 * Marquardt steps) under alpha, beta >= 0 (usl_fit.c). Refused below 4
 * distinct n. When the unconstrained optimum has alpha < 0 or beta < 0
 * (or does not converge) the fit is the best one on the bounds (alpha = 0,
 * beta = 0 or both), bounded = 1, and no peak is predicted. n_peak =
 * sqrt((1-alpha)/beta) when the fit is unbounded, beta > 0 and alpha < 1;
 * else NAN and peak_why says why in words. */
struct amd_usl {
	int ok;
	char why[128];
	double alpha, beta, gamma, n_peak;
	int bounded;                  /* a bound alpha >= 0 or beta >= 0 is active */
	double free_alpha, free_beta; /* the unconstrained fit; NAN when it failed */
	char peak_why[160];           /* when n_peak is NAN: why there is no peak */
	size_t iterations;
	int oom;            /* failed for want of memory */
};
int amd_usl_fit(const double *n, const double *x, size_t m, struct amd_usl *out);

/* The number of distinct values in n[0..m). */
size_t amd_distinct_count(const double *n, size_t m);

/* Karp–Flatt experimentally determined serial fraction for speedup s at
 * p processors relative to the base: e = (1/s - 1/p)/(1 - 1/p); NAN at p = 1. */
double amd_karp_flatt(double s, double p);

/* A mt19937 generator seeded with seed, NULL when out of memory (with
 * GSL's error handler off while it allocates: its default aborts). Every
 * bootstrap of amdahl draws from one of these. */
gsl_rng *amd_rng_new(unsigned long seed);

/* GSL's error handler is one global. Code that may run on several
 * threads at once (the region fits, scaling.c) turns it off and back
 * through these: on a thread marked by amd_gsl_thread_quiet(1) — whose
 * caller turned the handler off for the threads' whole run — they
 * leave it alone. */
gsl_error_handler_t *amd_gsl_off(void);
void amd_gsl_back(gsl_error_handler_t *old);
void amd_gsl_thread_quiet(int on);

#endif
