/* aggregate.c — the median or MLPerf's trimmed mean of a configuration's
 * runs (see aggregate.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "aggregate.h"
#include "stats.h"

double amd_mlperf_mean_sorted(const double *v, size_t m)
{
	if (m == 0)
		return NAN;
	if (m < 3)
		return gsl_stats_mean(v, 1, m);
	return gsl_stats_mean(v + 1, 1, m - 2);
}

double amd_aggregate_sorted(const double *v, size_t m, enum amd_aggregate a)
{
	if (m == 0)
		return NAN;
	if (a == AMD_AGG_MLPERF)
		return amd_mlperf_mean_sorted(v, m);
	return amd_median_sorted(v, m);
}

/* MLPerf's mean without a sorted copy: the first smallest and the first
 * largest finite value are left out (none below 3 values) and the rest
 * averaged as a running mean, mean += (x - mean) / k, which never
 * overflows where the sum would (runs near DBL_MAX), as the median's
 * midpoint rule. GSL's mean (amd_mlperf_mean_sorted) is a running mean
 * too. */
double amd_mlperf_mean(const double *x, size_t n)
{
	size_t m = 0, lo = n, hi = n;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		m++;
		lo = lo == n || x[i] < x[lo] ? i : lo;
		hi = hi == n || x[i] > x[hi] ? i : hi;
	}
	if (m == 0)
		return NAN;
	if (m < 3)
		lo = hi = n;
	else if (lo == hi)
		hi = n; /* all equal: only one index is known; drop the next below */
	double mean = 0;
	size_t k = 0, skip_hi = m >= 3 && hi == n; /* every value equal: drop one more */
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || i == lo || i == hi)
			continue;
		if (skip_hi) {
			skip_hi = 0;
			continue;
		}
		mean += (x[i] - mean) / (double)++k;
	}
	return mean;
}

double amd_aggregate(const double *x, size_t n, enum amd_aggregate a)
{
	return a == AMD_AGG_MLPERF ? amd_mlperf_mean(x, n) : amd_median(x, n);
}

const char *amd_aggregate_name(enum amd_aggregate a)
{
	return a == AMD_AGG_MLPERF ? "mlperf" : "median";
}

const char *amd_aggregate_label(enum amd_aggregate a)
{
	return a == AMD_AGG_MLPERF ? "MLPerf mean" : "median";
}

const char *amd_aggregate_rule(enum amd_aggregate a)
{
	return a == AMD_AGG_MLPERF
		? "MLPerf's rule: the mean of the runs without the fastest and the slowest"
		: "the median of the runs";
}

int amd_aggregate_parse(const char *s, enum amd_aggregate *a)
{
	if (s && strcmp(s, "median") == 0)
		*a = AMD_AGG_MEDIAN;
	else if (s && strcmp(s, "mlperf") == 0)
		*a = AMD_AGG_MLPERF;
	else
		return -1;
	return 0;
}
