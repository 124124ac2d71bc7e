/* charts_limits.h — the report's page "What limits scaling": per
 * strategy, the top regions of the profiler traces (lib/analysis/
 * scaling.h) — measured per-rank time per step at each n, the fitted
 * model and its 95% prediction band on log–log axes, extrapolated to
 * the target n — with the findings in sentences in its caption. */
#ifndef AMD_REPORT_CHARTS_LIMITS_H
#define AMD_REPORT_CHARTS_LIMITS_H

#include "charts.h"

/* The regions shown per strategy. */
#define REPORT_LIMITS_TOP 4

/* One chart per strategy and its findings, or why not. */
int report_limits_charts(struct report_charts *rc, struct amd_store *st,
			 const struct amd_sweep_stats *s, struct amd_region_share *share,
			 struct amd_err *err);

#endif
