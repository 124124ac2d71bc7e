/* charts_scaling.h — the charts of a sweep's metric over its axis:
 * epoch time, speedup (ideal line, interval band, Amdahl and USL fits),
 * parallel efficiency, throughput and the run-to-run variation. */
#ifndef AMD_REPORT_CHARTS_SCALING_H
#define AMD_REPORT_CHARTS_SCALING_H

#include "charts.h"

/* Epoch time, then speedup and efficiency (or why not) and throughput
 * (or why not). */
int report_scaling_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			  struct amd_err *err);
/* Every run's value per configuration. */
int report_variance_chart(struct report_charts *rc, const struct amd_sweep_stats *s,
			  struct amd_err *err);

#endif
