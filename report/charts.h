/* charts.h — the report's charts: the list `report build` writes and
 * draws (each with its file name, title and caption), the sentences on
 * charts that could not be drawn and why, and the notes a chart's own
 * data gives. Built from a sweep's statistics and what lib/analysis
 * derives from the store (the step-time breakdown, py-spy); a chart
 * whose data the sweep lacks is not built, a sentence in `missing` says
 * why. The builders are in charts_*.c. */
#ifndef AMD_REPORT_CHARTS_H
#define AMD_REPORT_CHARTS_H

#include <stddef.h>

#include "analysis.h"
#include "chart.h"
#include "err.h"
#include "store.h"

struct amd_region_share; /* regions.h */
struct amd_scaling;      /* scaling.h */
#include "table.h"

struct report_chart {
	char *name;    /* file stem: charts/<name>.png */
	char *title;
	char *caption; /* what the chart shows and how to read it */
	struct chart *chart;
	struct amd_table *table; /* drawn under the chart in the PDF, or NULL */
	/* report.html only (limits_picker.h): a chart of one region drawn
	 * by the engine and every region's data as JSON for the page's
	 * picker; NULL both when the chart has none */
	struct chart *pick;
	char *pick_json, *pick_caption;
};

struct report_charts {
	struct report_chart *v;
	size_t n, cap;
	char **missing; /* sentences: what could not be drawn and why */
	size_t nmissing, capmissing;
	char **notes;   /* findings a chart's own data gives (step-time split) */
	size_t nnotes, capnotes;
	/* the limits charts' region models, kept for explain's region split
	 * (explain.h's amd_explain_opts.scaling); NULL when none were fitted */
	struct amd_scaling *limits;
};

/* Every chart of sweep s; -1 with err on a store error or out of
 * memory (nothing is kept). share: NULL, or one scan of the region table
 * for the region chart and the limits charts after it (regions.h's
 * amd_region_share), inside the caller's read snapshot. */
int report_charts_build(struct amd_store *st, const struct amd_sweep_stats *s,
			struct amd_region_share *share, struct report_charts *out,
			struct amd_err *err);
void report_charts_free(struct report_charts *rc);

/* For the builders. Adds chart c (taken over: freed on failure) with
 * its caption; -1 with err "out of memory" when c is NULL or failed, or
 * the list cannot grow. */
int report_chart_add(struct report_charts *rc, struct amd_err *err, const char *name,
		     struct chart *c, const char *title, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Adds a sentence on a chart that cannot be drawn, or a note. */
int report_chart_missing(struct report_charts *rc, struct amd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int report_chart_note(struct report_charts *rc, struct amd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Chart size in points: the PNG/SVG files and the PDF regions. */
#define REPORT_CHART_W 495.0
#define REPORT_CHART_H 290.0

#endif
