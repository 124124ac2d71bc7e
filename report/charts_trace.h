/* charts_trace.h — the charts of where profiled time goes: itwinai's
 * computation fraction, the trace window by phase, and the
 * communication share. */
#ifndef AMD_REPORT_CHARTS_TRACE_H
#define AMD_REPORT_CHARTS_TRACE_H

#include "charts.h"

/* Computation vs other, then (with profiler traces) the phase split and
 * communication share; each, or why not. */
int report_trace_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			struct amd_err *err);

#endif
