/* analysis_keys.h — the metric keys `stats` reads (analysis_keys.c), so
 * a remote store loads only their points (remote.h's
 * amd_location_open_metrics) and not every metric of the sweep. */
#ifndef AMD_ANALYSIS_KEYS_H
#define AMD_ANALYSIS_KEYS_H

#include <stddef.h>

#include "analysis.h"

/* The most keys amd_analysis_metric_keys gives. */
#define AMD_ANALYSIS_MAX_KEYS 16

/* The metric keys amd_analyse (with options o) and amd_memory_stats
 * read with amd_run_metric, into keys (at most AMD_ANALYSIS_MAX_KEYS);
 * returns how many. */
size_t amd_analysis_metric_keys(const struct amd_analysis_opts *o, const char **keys);

#endif
