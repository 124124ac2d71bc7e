/* scale_ratio.h — the interval of the factor a step multiplied a metric
 * by: the runs after a change point are taken as the runs before times
 * an unknown factor r (the step model the change point rests on; the
 * noise's shape is any continuous distribution, not assumed normal). On
 * the logs that is a shift, and the Moses/Hodges–Lehmann interval of a
 * shift — order statistics of the pairwise differences log(after_j) −
 * log(before_i), at ranks from the Mann–Whitney null distribution — has
 * an exact level at every sample size. `history` prints it beside the
 * ratio of medians (the percentile bootstrap it replaces covered 89.5–93%
 * at a "95%" label with 3–4 runs a side, and tends to 75% with 3 runs
 * against many: docs/methods.md). */
#ifndef AMD_SCALE_RATIO_H
#define AMD_SCALE_RATIO_H

#include <stddef.h>

#include "analysis.h"
#include "err.h"

/* The interval of r for after ≈ r · before at the smallest exact level
 * ≥ level (ci->level: 1 − 2·P(U ≤ k−1) of the ranks k used; below level
 * when no rank reaches it: 3 runs against 3 give [min, max] of the
 * pairwise ratios at 90%). The exact null for nb·na ≤
 * AMD_MWU_EXACT_MAX_MN, the normal approximation above. Widened to hold
 * point (the ratio printed) if it falls outside. Invalid (ci->why) when a
 * side has fewer than 3 runs or a value is not > 0. -1 only out of
 * memory. */
int amd_scale_ratio_ci(const double *before, size_t nb, const double *after, size_t na,
		       double level, double point, struct amd_ci *ci, struct amd_err *err);

#endif
