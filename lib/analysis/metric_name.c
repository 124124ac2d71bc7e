/* metric_name.c — units and stems of metric names (see metric_name.h). */
#include "metric_name.h"

#include <string.h>

int amd_metric_in_seconds(const char *metric)
{
	size_t len = metric ? strlen(metric) : 0;
	return len > 2 && strcmp(metric + len - 2, "_s") == 0;
}

size_t amd_metric_stem_len(const char *metric)
{
	size_t len = strlen(metric);
	return amd_metric_in_seconds(metric) ? len - 2 : len;
}

int amd_sweep_time_metric(const struct amd_sweep_stats *s)
{
	return !s->higher_is_better && amd_metric_in_seconds(s->metric);
}
