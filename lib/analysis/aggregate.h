/* aggregate.h — how a configuration's runs become one value: the median
 * (the default) or MLPerf's rule (drop the fastest and the slowest run,
 * the mean of the rest). Every point statistic, bootstrap interval and
 * comparison ratio reads the runs through amd_aggregate, so one option
 * (`--aggregate median|mlperf`) changes them all. */
#ifndef AMD_AGGREGATE_H
#define AMD_AGGREGATE_H

#include <stddef.h>

enum amd_aggregate {
	AMD_AGG_MEDIAN = 0, /* zero: the default of every zeroed options struct */
	AMD_AGG_MLPERF,
};

/* MLPerf's rule on the finite values of x: with 3 or more, the mean of
 * all but one smallest and one largest; below 3 nothing can be dropped,
 * the mean of them. NAN when none are finite. */
double amd_mlperf_mean(const double *x, size_t n);
/* The same on m finite values already sorted ascending (no allocation). */
double amd_mlperf_mean_sorted(const double *v, size_t m);

/* The aggregate of the finite values of x (NaN skipped), NAN when none. */
double amd_aggregate(const double *x, size_t n, enum amd_aggregate a);
/* The aggregate of m finite values sorted ascending. */
double amd_aggregate_sorted(const double *v, size_t m, enum amd_aggregate a);

/* "median" / "mlperf" — the option's spelling, used in JSON and CSV. */
const char *amd_aggregate_name(enum amd_aggregate a);
/* "median" / "MLPerf mean" — a column heading or a value's name. */
const char *amd_aggregate_label(enum amd_aggregate a);
/* "median (s)" / "MLPerf mean (s)" — the heading of a value in seconds. */
const char *amd_aggregate_label_s(enum amd_aggregate a);
/* The rule in words, for tables and the report. */
const char *amd_aggregate_rule(enum amd_aggregate a);
/* 0 and *a set for "median" or "mlperf", -1 for anything else. */
int amd_aggregate_parse(const char *s, enum amd_aggregate *a);

#endif
