/* charts_step.h — the training step's time by phase per data loader,
 * from the step-time breakdown lib/analysis computes (step_time.h),
 * with a note per loader on its data-loading share. */
#ifndef AMD_REPORT_CHARTS_STEP_H
#define AMD_REPORT_CHARTS_STEP_H

#include "charts.h"

/* The step-time chart and its notes, or why not. */
int report_step_chart(struct report_charts *rc, struct amd_store *st,
		      const struct amd_sweep_stats *s, struct amd_err *err);

#endif
