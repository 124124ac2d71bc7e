/* charts_memory.h — memory per GPU: the peak per configuration over the
 * sweep's axis and one rank's memory timeline (charts_memory.c). */
#ifndef AMD_REPORT_CHARTS_MEMORY_H
#define AMD_REPORT_CHARTS_MEMORY_H

#include "charts.h"

/* Both charts when the sweep's runs carry memory (traces recorded with
 * profile_memory=True, or a max_memory_allocated metric), else why not. */
int report_memory_charts(struct report_charts *rc, struct amd_store *st,
			 const struct amd_sweep_stats *s, struct amd_err *err);

#endif
