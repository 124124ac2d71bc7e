/* region_diff.h — the region diff between two sweeps or configurations
 * (`amdahl diff A B`, the "compare baseline and optimized pstats" and
 * HTA trace-diff question): per region of the profiler traces, its
 * per-rank time per step on each side (median over the side's traces),
 * the ratio B/A with a bootstrap interval (ranks and runs resampled),
 * and a Mann–Whitney U over the runs (per-run means over ranks) where
 * both sides have 2 or more runs, Holm-corrected over the regions;
 * regions new in B and vanished from A. Input: amd_store_region_times
 * (the same table `amdahl scaling` reads). */
#ifndef AMD_REGION_DIFF_H
#define AMD_REGION_DIFF_H

#include <stddef.h>

#include "analysis.h"
#include "err.h"
#include "store.h"

/* A side: a sweep, optionally one strategy (NULL: all) and one n (0:
 * the side's largest n). */
struct amd_rdiff_side {
	const char *sweep, *strategy;
	int n;
};

struct amd_rdiff_row {
	char *name, *kind;
	int side;              /* 0 on both sides, 1 only in B (new), -1 only in A (vanished) */
	double a, b;           /* median seconds per step over the side's traces; 0 when absent */
	double ratio;          /* b / a (NAN when a side lacks it) */
	struct amd_ci ci;      /* of the ratio */
	double p, p_holm;      /* Mann–Whitney over runs; NAN when a side has < 2 runs */
};

struct amd_rdiff {
	int n_a, n_b;               /* the n compared */
	size_t traces_a, traces_b, runs_a, runs_b;
	size_t nrows;
	struct amd_rdiff_row *rows; /* by |b - a|, largest first */
};

int amd_region_diff(struct amd_store *st, const struct amd_rdiff_side *a,
		    const struct amd_rdiff_side *b, int resamples, unsigned long seed, double level,
		    struct amd_rdiff **out, struct amd_err *err);
void amd_region_diff_free(struct amd_rdiff *d);

#endif
