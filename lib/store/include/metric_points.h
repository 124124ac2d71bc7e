/* metric_points.h — finding a step in a run's metric points as
 * amd_run_metric (runs.h) returns them, sorted by rank, step and time:
 * by binary search, so a run of millions of points is read in
 * O(n log n) and not a scan per step. */
#ifndef AMD_METRIC_POINTS_H
#define AMD_METRIC_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include "runs.h"

/* Number of leading points of p[0..n) with p[0]'s rank (the lowest). */
size_t amd_points_lowest_rank(const struct amd_point *p, size_t n);

/* Index of the first point (the earliest logged) with the given step in
 * p[0..n), which is sorted by step (points of one rank); n when no point
 * has that step. */
size_t amd_points_find_step(const struct amd_point *p, size_t n, int64_t step);

#endif
