/* labels.c — axis, metric and runs-per-point labels (see labels.h). */
#include "labels.h"

#include <stdio.h>
#include <string.h>

#include "metric_name.h"
#include "sweep_facts.h"

const char *report_axis_name(const struct amd_sweep_stats *s)
{
	return s->scaling || !s->axis ? "n" : s->axis;
}

const char *report_axis_label(const struct amd_sweep_stats *s)
{
	return s->scaling || !s->axis ? "workers (world size n)" : s->axis;
}

const char *report_axis_words(const struct amd_sweep_stats *s)
{
	return s->scaling || !s->axis ? "world size n" : s->axis;
}

void report_runs_per_point(const struct amd_sweep_stats *s, char *buf, size_t n)
{
	size_t lo, hi;
	amd_sweep_runs_range(s, &lo, &hi);
	if (hi == 0)
		snprintf(buf, n, "0");
	else if (lo == hi)
		snprintf(buf, n, "%zu", lo);
	else
		snprintf(buf, n, "%zu–%zu", lo, hi);
}

void report_metric_label(const struct amd_sweep_stats *s, char *buf, size_t n)
{
	if (!s->metric || strcmp(s->metric, "epoch_time_s") == 0)
		snprintf(buf, n, "epoch time (s)");
	else if (amd_metric_in_seconds(s->metric))
		snprintf(buf, n, "%.*s (s)", (int)amd_metric_stem_len(s->metric), s->metric);
	else
		snprintf(buf, n, "%s", s->metric);
}

const char *report_median_header(const struct amd_sweep_stats *s)
{
	return amd_sweep_time_metric(s) ? amd_aggregate_label_s(s->aggregate)
					 : amd_aggregate_label(s->aggregate);
}
