/* labels.h — the words every part of the report uses for a sweep's
 * axis, metric and runs: one place, so that the PDF, the charts, the
 * summaries and report.json name things alike. */
#ifndef AMD_REPORT_LABELS_H
#define AMD_REPORT_LABELS_H

#include <stddef.h>

#include "analysis.h"

/* The axis in table headers and sentences: "n" or the param. */
const char *report_axis_name(const struct amd_sweep_stats *s);
/* The axis under a chart: "workers (world size n)" or the param. */
const char *report_axis_label(const struct amd_sweep_stats *s);
/* The axis on page 1 ("epoch_time_s by world size n"). */
const char *report_axis_words(const struct amd_sweep_stats *s);
/* Number of finished runs per point as "3" or "2–3" ("0": no point). */
void report_runs_per_point(const struct amd_sweep_stats *s, char *buf, size_t n);
/* The metric on a value axis: "epoch time (s)", "<stem> (s)" for a
 * metric in seconds, else its name. */
void report_metric_label(const struct amd_sweep_stats *s, char *buf, size_t n);
/* The median column's header: "median (s)" for a time metric. */
const char *report_median_header(const struct amd_sweep_stats *s);

#endif
