/* charts_pyspy.h — where Python time goes, from py-spy: the top
 * functions (self and total thread-seconds) and the call tree as an
 * icicle, for up to two of the sweep's runs with py-spy samples. */
#ifndef AMD_REPORT_CHARTS_PYSPY_H
#define AMD_REPORT_CHARTS_PYSPY_H

#include "charts.h"

/* The py-spy charts, or why there are none. */
int report_pyspy_charts(struct report_charts *rc, struct amd_store *st,
			const struct amd_sweep_stats *s, struct amd_err *err);

#endif
