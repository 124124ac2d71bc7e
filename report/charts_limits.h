/* charts_limits.h — the report's page "What limits scaling": per
 * strategy, the top regions of the profiler traces (lib/analysis/
 * scaling.h) — measured per-rank time per step at each n, the fitted
 * model and its 95% prediction band on log–log axes, extrapolated to
 * the target n — with the findings in sentences in its caption. */
#ifndef AMD_REPORT_CHARTS_LIMITS_H
#define AMD_REPORT_CHARTS_LIMITS_H

#include "charts.h"
#include "scaling.h"

/* The regions shown per strategy. */
#define REPORT_LIMITS_TOP 4

/* One chart per strategy and its findings, or why not. */
int report_limits_charts(struct report_charts *rc, struct amd_store *st,
			 const struct amd_sweep_stats *s, struct amd_region_share *share,
			 struct amd_err *err);

/* The value range a chart of regions 0..top-1 shows (ms): from half the
 * smallest measured time to twice the largest measured or predicted at
 * the target — the bands' far tails and a model's dive towards 0 where
 * a region is absent (a collective at n = 1) are cut there. */
void report_limits_yrange(const struct amd_scaling_strategy *s, size_t top, double *lo,
			  double *hi);
/* Region r in colour i: its fitted curve with the band, its measured
 * means as points (both in ms), cut to ylo..yhi; named: in the legend. */
void report_limits_region(struct chart *c, const struct amd_scaling_strategy *s,
			  const struct amd_region_model *r, int i, double level, double ylo,
			  double yhi, int named);

#endif
