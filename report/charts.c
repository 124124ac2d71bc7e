/* charts.c — the list of the report's charts (see charts.h) and the
 * order they are built in: the metric over the axis (charts_scaling.c),
 * resources (charts_resource.c), traces (charts_trace.c), run-to-run
 * variation, memory per GPU (charts_memory.c), the step-time breakdown
 * (charts_step.c), where the time goes by region (charts_regions.c),
 * py-spy (charts_pyspy.c) and what limits scaling (charts_limits.c). */
#include "charts.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "charts_memory.h"
#include "charts_limits.h"
#include "charts_pyspy.h"
#include "charts_regions.h"
#include "charts_resource.h"
#include "charts_scaling.h"
#include "charts_step.h"
#include "charts_trace.h"
#include "scaling.h"
#include "sweep_facts.h"

void report_charts_free(struct report_charts *rc)
{
	for (size_t i = 0; i < rc->n; i++) {
		free(rc->v[i].name);
		free(rc->v[i].title);
		free(rc->v[i].caption);
		chart_free(rc->v[i].chart);
		amd_table_free(rc->v[i].table);
		chart_free(rc->v[i].pick);
		free(rc->v[i].pick_json);
		free(rc->v[i].pick_caption);
	}
	for (size_t i = 0; i < rc->nmissing; i++)
		free(rc->missing[i]);
	for (size_t i = 0; i < rc->nnotes; i++)
		free(rc->notes[i]);
	amd_scaling_free(rc->limits);
	free(rc->v);
	free(rc->missing);
	free(rc->notes);
	memset(rc, 0, sizeof *rc);
}

int report_chart_add(struct report_charts *rc, struct amd_err *err, const char *name,
		     struct chart *c, const char *title, const char *fmt, ...)
{
	char *buf = NULL; /* the whole caption, however long (a fixed buffer cut its end) */
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&buf, fmt, ap) < 0)
		buf = NULL;
	va_end(ap);
	struct report_chart ch = {strdup(name), strdup(title), buf, c, NULL, NULL, NULL, NULL};
	if (chart_failed(c) || !ch.name || !ch.title || !ch.caption ||
	    amd_grow(&rc->v, rc->n, &rc->cap, sizeof *rc->v, 16) < 0) {
		free(ch.name);
		free(ch.title);
		free(ch.caption);
		chart_free(c);
		return amd_fail(err, "chart %s: out of memory", name);
	}
	rc->v[rc->n++] = ch;
	return 0;
}

/* Appends the formatted sentence to the list (*v, *n, *cap). */
static int vappend(char ***v, size_t *n, size_t *cap, struct amd_err *err, const char *fmt,
		   va_list ap)
{
	char buf[512];
	vsnprintf(buf, sizeof buf, fmt, ap);
	char *s = strdup(buf);
	if (!s || amd_grow(v, *n, cap, sizeof **v, 8) < 0) {
		free(s);
		return amd_fail(err, "out of memory");
	}
	(*v)[(*n)++] = s;
	return 0;
}

int report_chart_missing(struct report_charts *rc, struct amd_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vappend(&rc->missing, &rc->nmissing, &rc->capmissing, err, fmt, ap);
	va_end(ap);
	return r;
}

int report_chart_note(struct report_charts *rc, struct amd_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vappend(&rc->notes, &rc->nnotes, &rc->capnotes, err, fmt, ap);
	va_end(ap);
	return r;
}

/* The charts of the sweep's statistics, in the report's order. */
static int stats_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			struct amd_err *err)
{
	int usable = amd_sweep_any(s, AMD_PV_MEDIAN);
	if (usable && report_scaling_charts(rc, s, err) < 0)
		return -1;
	if (!usable && report_chart_missing(rc, err, "Epoch time, speedup, efficiency, throughput "
						     "and run-to-run variation: no run has a usable %s.",
					    s->metric ? s->metric : "metric") < 0)
		return -1;
	if (report_resource_charts(rc, s, err) < 0 || report_trace_charts(rc, s, err) < 0)
		return -1;
	if (amd_sweep_has_repeats(s))
		return report_variance_chart(rc, s, err);
	if (usable)
		return report_chart_missing(rc, err, "Run-to-run variation: one run per configuration; "
						     "repeat runs (3 or more) to see spread and get "
						     "intervals.");
	return 0;
}

int report_charts_build(struct amd_store *st, const struct amd_sweep_stats *s,
			struct amd_region_share *share, struct report_charts *out,
			struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	if (stats_charts(out, s, err) < 0 || report_memory_charts(out, st, s, err) < 0 ||
	    report_step_chart(out, st, s, err) < 0 || report_region_chart(out, st, s, share, err) < 0 ||
	    report_pyspy_charts(out, st, s, err) < 0 || report_limits_charts(out, st, s, share, err) < 0) {
		report_charts_free(out);
		return -1;
	}
	return 0;
}
