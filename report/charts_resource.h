/* charts_resource.h — the charts of what a sweep's runs cost: energy
 * per epoch, to solution and per sample, and GPU utilisation. */
#ifndef AMD_REPORT_CHARTS_RESOURCE_H
#define AMD_REPORT_CHARTS_RESOURCE_H

#include "charts.h"

/* The energy charts the sweep has data for, then utilisation (each, or
 * why not). */
int report_resource_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			   struct amd_err *err);

#endif
