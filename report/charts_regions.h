/* charts_regions.h — where the time goes per configuration, from the
 * region model: the stacked shares of the sweep's top regions
 * (lib/analysis/region_mix.h), whatever profiler measured them; and per
 * run the Nsight Systems phase split next to the trace's (phase_pairs.h). */
#ifndef AMD_REPORT_CHARTS_REGIONS_H
#define AMD_REPORT_CHARTS_REGIONS_H

#include "charts.h"

/* The region share chart and a note on the largest region, then per run
 * the Nsight Systems phase split next to the trace's, or why not. */
int report_region_chart(struct report_charts *rc, struct amd_store *st,
			const struct amd_sweep_stats *s, struct amd_region_share *share,
			struct amd_err *err);

#endif
