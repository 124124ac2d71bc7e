/* sweep_facts.h — facts over a sweep's statistics (struct
 * amd_sweep_stats) that decide what the report draws and on which
 * axes: the value of a kind at a point, whether any point has it and
 * its largest value, the axis extent and its distinct values, runs per
 * point, how many points have an interval, the strategies' bases, and
 * the trace phases present. The renderer reads these; it computes none. */
#ifndef AMD_SWEEP_FACTS_H
#define AMD_SWEEP_FACTS_H

#include <stddef.h>

#include "analysis.h"

/* A value of a configuration (point). */
enum amd_point_value {
	AMD_PV_MEDIAN,          /* the metric: median over the runs */
	AMD_PV_SPEEDUP,
	AMD_PV_EFFICIENCY,      /* a fraction (1 = ideal) */
	AMD_PV_THROUGHPUT,
	AMD_PV_UTIL,            /* percent */
	AMD_PV_ENERGY_EPOCH,
	AMD_PV_ENERGY_SOLUTION,
	AMD_PV_ENERGY_SAMPLE,
	AMD_PV_COMP_FRACTION,   /* a fraction */
	AMD_PV_COMM_SHARE,      /* a fraction; NAN without a trace */
};

/* The value v of point p (NAN when unknown). */
double amd_point_value(const struct amd_point_stats *p, enum amd_point_value v);
/* The interval of v at p: median, speedup or efficiency; NULL for the
 * values without one. */
const struct amd_ci *amd_point_ci(const struct amd_point_stats *p, enum amd_point_value v);

/* 1 when some point has a finite v. */
int amd_sweep_any(const struct amd_sweep_stats *s, enum amd_point_value v);
/* The largest finite v over the points, 0 when none is above 0. */
double amd_sweep_max(const struct amd_sweep_stats *s, enum amd_point_value v);

/* The smallest and largest axis value of the points (INFINITY and
 * -INFINITY when there is none); returns the number of points. */
size_t amd_sweep_axis_extent(const struct amd_sweep_stats *s, double *lo, double *hi);
/* The distinct axis values of the points, ascending, in *xs (malloc'd,
 * *n of them). -1 when out of memory. */
int amd_sweep_axis_values(const struct amd_sweep_stats *s, double **xs, size_t *n);
/* The fewest and most runs of a point (*hi 0 when there is no point). */
void amd_sweep_runs_range(const struct amd_sweep_stats *s, size_t *lo, size_t *hi);

/* Points whose interval of v (AMD_PV_MEDIAN or a ratio: speedup,
 * efficiency) is valid, out of *total; a ratio's base point is left
 * out: it is 1 by definition and carries no interval. */
size_t amd_sweep_ci_count(const struct amd_sweep_stats *s, enum amd_point_value v,
			  size_t *total);

/* The coverage of v's valid intervals over the sweep: *lo and *hi the
 * smallest and largest (an interval's own exact level when it has one,
 * else the level the sweep asked for). Returns 1 when some interval has
 * its own level (a median's order-statistic interval; a speedup at 3 runs
 * a side, docs/methods.md), 0 when every one is at the asked level or
 * none is valid (*lo = *hi = the asked level). */
int amd_sweep_ci_levels(const struct amd_sweep_stats *s, enum amd_point_value v, double *lo,
			double *hi);

/* 1 when some strategy has 2 or more points (something to scale against). */
int amd_sweep_scalable(const struct amd_sweep_stats *s);
/* 1 when some point has profiler traces. */
int amd_sweep_has_trace(const struct amd_sweep_stats *s);
/* 1 when some point has 2 or more runs. */
int amd_sweep_has_repeats(const struct amd_sweep_stats *s);

/* The distinct positive bases (smallest n) of the strategies with 2 or
 * more points, in strategy order, at most max; returns the count. */
size_t amd_sweep_bases(const struct amd_sweep_stats *s, double *bases, size_t max);

/* The largest sum over a point's trace of the shares of the given
 * phases (enum amd_phase); above 1 the phases overlap in time. */
double amd_sweep_phase_sum_max(const struct amd_sweep_stats *s, const int *phases, size_t np);
/* 1 when some point's trace spends more than min_share in phase. */
int amd_sweep_phase_present(const struct amd_sweep_stats *s, int phase, double min_share);

#endif
