/* charts.h — the report's charts, built from a sweep's statistics
 * (struct amd_sweep_stats) and, for the step-time breakdown, the runtime
 * profiler metrics in the store. A chart whose data the sweep lacks is
 * not built; a sentence in `missing` says why. */
#ifndef AMD_REPORT_CHARTS_H
#define AMD_REPORT_CHARTS_H

#include <stddef.h>

#include "analysis.h"
#include "chart.h"
#include "store.h"

struct report_chart {
	char *name;    /* file stem: charts/<name>.png */
	char *title;
	char *caption; /* what the chart shows and how to read it */
	struct chart *chart;
};

struct report_charts {
	struct report_chart *v;
	size_t n;
	char **missing; /* sentences: what could not be drawn and why */
	size_t nmissing;
	char **notes;   /* findings a chart's own data gives (step-time split) */
	size_t nnotes;
};

int report_charts_build(struct amd_store *st, const struct amd_sweep_stats *s,
			struct report_charts *out, struct amd_err *err);
void report_charts_free(struct report_charts *rc);

/* Label of the scaling axis: "workers (world size n)" or the parameter. */
const char *report_axis_label(const struct amd_sweep_stats *s);
/* Number of finished runs per point as "3" or "2–3". */
void report_runs_per_point(const struct amd_sweep_stats *s, char *buf, size_t n);

/* Chart size in points: the PNG/SVG files and the PDF regions. */
#define REPORT_CHART_W 495.0
#define REPORT_CHART_H 290.0

#endif
