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

/* The --aggregate choices, one row each: the option's spelling, the
 * heading (and with the unit of seconds), the rule in words, the value of
 * unsorted and of sorted finite runs. A new choice is an enum value and a
 * row here. */
static const struct aggregate {
	const char *name, *label, *label_s, *rule;
	double (*of)(const double *x, size_t n);
	double (*of_sorted)(const double *v, size_t m);
} aggregates[] = {
	[AMD_AGG_MEDIAN] = {"median", "median", "median (s)", "the median of the runs",
			    amd_median, amd_median_sorted},
	[AMD_AGG_MLPERF] = {"mlperf", "MLPerf mean", "MLPerf mean (s)",
			    "MLPerf's rule: the mean of the runs without the fastest and the slowest",
			    amd_mlperf_mean, amd_mlperf_mean_sorted},
};
#define NAGGREGATES (sizeof aggregates / sizeof aggregates[0])

/* The row of a (the median's for a value out of range). */
static const struct aggregate *row(enum amd_aggregate a)
{
	return (size_t)a < NAGGREGATES ? &aggregates[a] : &aggregates[AMD_AGG_MEDIAN];
}

double amd_aggregate(const double *x, size_t n, enum amd_aggregate a)
{
	return row(a)->of(x, n);
}

const char *amd_aggregate_name(enum amd_aggregate a)
{
	return row(a)->name;
}

const char *amd_aggregate_label(enum amd_aggregate a)
{
	return row(a)->label;
}

const char *amd_aggregate_label_s(enum amd_aggregate a)
{
	return row(a)->label_s;
}

const char *amd_aggregate_rule(enum amd_aggregate a)
{
	return row(a)->rule;
}

double amd_aggregate_sorted(const double *v, size_t m, enum amd_aggregate a)
{
	return m == 0 ? NAN : row(a)->of_sorted(v, m);
}

int amd_aggregate_parse(const char *s, enum amd_aggregate *a)
{
	for (size_t i = 0; s && i < NAGGREGATES; i++)
		if (strcmp(s, aggregates[i].name) == 0) {
			*a = (enum amd_aggregate)i;
			return 0;
		}
	return -1;
}
