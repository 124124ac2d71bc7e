/* charts_history.h — a metric's history over groups of runs (commits,
 * nightlies) with its change points marked: the per-group medians with
 * their intervals, every run as a grey point, and each segment between
 * change points as a dashed line at the median of its runs. Written as a
 * PNG by `amdahl history --png`. The numbers are lib/compare/history.h's. */
#ifndef AMD_REPORT_CHARTS_HISTORY_H
#define AMD_REPORT_CHARTS_HISTORY_H

#include "chart.h"
#include "history.h"

/* The chart (NULL or failed when out of memory; chart_failed says). */
struct chart *history_chart(const struct amd_history *h);

#endif
