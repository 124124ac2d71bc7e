/* highlights.h — the points a sweep's findings talk about, picked from
 * its statistics: a strategy's best speedup, where it stops scaling or
 * its efficiency drops below a bound, its throughput extremes and the
 * span of its communication share; over the sweep, the extremes of
 * energy per sample, the largest run-to-run spread and the runs with
 * flagged epochs. The report words them; it picks none itself. */
#ifndef AMD_HIGHLIGHTS_H
#define AMD_HIGHLIGHTS_H

#include <stddef.h>

#include "analysis.h"

/* A point and the strategy it belongs to (p NULL: none). */
struct amd_point_pick {
	const struct amd_point_stats *p;
	const char *strategy;
};

/* The point with the largest finite speedup past the base; NULL when
 * none has one. */
const struct amd_point_stats *amd_best_speedup(const struct amd_strategy_stats *st);
/* The first k >= 1 whose median is no better than point k-1's (both
 * finite; better is lower unless the metric is higher-is-better);
 * 0 when the strategy keeps improving. */
size_t amd_scaling_stop(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st);
/* The first point past the base whose efficiency is below bound; NULL
 * when none is. */
const struct amd_point_stats *amd_efficiency_below(const struct amd_strategy_stats *st,
						   double bound);
/* The points of lowest and highest finite throughput (first of equals;
 * NULL when none has one). */
void amd_throughput_extremes(const struct amd_strategy_stats *st,
			     const struct amd_point_stats **lo, const struct amd_point_stats **hi);
/* The first and last points whose traces give a communication share
 * above min_share (NULL when none does). */
void amd_comm_span(const struct amd_strategy_stats *st, double min_share,
		   const struct amd_point_stats **first, const struct amd_point_stats **last);

/* The points of lowest and highest finite energy per sample over the
 * sweep (first of equals); a point pooling configurations is none. */
void amd_energy_extremes(const struct amd_sweep_stats *s, struct amd_point_pick *best,
			 struct amd_point_pick *worst);
/* The point of 2 or more runs with the largest finite coefficient of
 * variation, not one pooling configurations. */
struct amd_point_pick amd_largest_spread(const struct amd_sweep_stats *s);
/* Runs in the statistics with epochs flagged as outliers. */
size_t amd_flagged_runs(const struct amd_sweep_stats *s);

#endif
