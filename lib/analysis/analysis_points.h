/* analysis_points.h — the part of amd_analyse (analysis.h) above the
 * runs: per configuration (strategy, n) the median with its bootstrap
 * interval, spread, throughput, energy, phase shares; per strategy the
 * speedup and efficiency against its smallest n (with intervals),
 * Karp–Flatt, and the Amdahl and USL fits. */
#ifndef AMD_ANALYSIS_POINTS_H
#define AMD_ANALYSIS_POINTS_H

#include <stddef.h>

#include "analysis_run.h"
#include "stats.h"

/* The interval src of nruns values as a reported amd_ci (why says
 * "n=2: no CI" and the like when it was refused). */
void analysis_set_ci(struct amd_ci *dst, const struct amd_interval *src, size_t nruns);

/* Orders included runs by strategy, n, repeat, run id (for qsort over
 * struct analysis_run *). */
int analysis_cmp_runs(const void *a, const void *b);

/* Fills sw's strategies from the included runs w[0..n) sorted by
 * analysis_cmp_runs; -1 out of memory (sw then holds what was built,
 * for amd_sweep_stats_free). */
int analysis_build_strategies(struct amd_sweep_stats *sw, struct analysis_run **w, size_t n,
			      const struct analysis_opts *o);

#endif
