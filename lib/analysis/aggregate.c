/* aggregate.c — the median or MLPerf's trimmed mean of a configuration's
 * runs (see aggregate.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>
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

/* Out of memory for the sorted copy: the smallest and largest finite
 * values are found in place and subtracted from the sum. */
static double mlperf_unsorted(const double *x, size_t n, size_t m)
{
	if (m < 3)
		return amd_mean(x, n);
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		sum += x[i];
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	return (sum - lo - hi) / (double)(m - 2);
}

double amd_mlperf_mean(const double *x, size_t n)
{
	size_t m = amd_finite_count(x, n);
	double *v = m ? malloc(m * sizeof *v) : NULL;
	if (!v)
		return m ? mlperf_unsorted(x, n, m) : NAN;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[k++] = x[i];
	gsl_sort(v, 1, m);
	double r = amd_mlperf_mean_sorted(v, m);
	free(v);
	return r;
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
