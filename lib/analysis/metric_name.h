/* metric_name.h — what a metric's name says: a name ending in "_s" is
 * in seconds (epoch_time_s), and its stem is the name without that
 * suffix. The report's labels and sentences read these instead of
 * parsing names themselves. */
#ifndef AMD_METRIC_NAME_H
#define AMD_METRIC_NAME_H

#include <stddef.h>

#include "analysis.h"

/* 1 when metric (NULL: none) is in seconds: its name ends in "_s"
 * after at least one character. */
int amd_metric_in_seconds(const char *metric);

/* The length of metric's name without its "_s" suffix (the whole
 * length when it has none). */
size_t amd_metric_stem_len(const char *metric);

/* 1 when the sweep's metric is a time (in seconds, lower is better):
 * its sentences read "an epoch takes X s". */
int amd_sweep_time_metric(const struct amd_sweep_stats *s);

#endif
