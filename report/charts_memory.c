/* charts_memory.c — the memory charts (see charts_memory.h): peak memory
 * per GPU over the axis, a line per strategy with the runs' range as
 * bars, and the timeline of allocated and reserved memory of the lowest
 * rank of one run; numbers from lib/analysis/memory_stats.c. */
#include "charts_memory.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory_stats.h"
#include "sweep_plot.h"

/* GiB when the largest value reaches one, else MiB. */
static double unit(double max, const char **name)
{
	*name = max >= (double)(1 << 30) ? "GiB" : "MiB";
	return max >= (double)(1 << 30) ? 1.0 / (1 << 30) : 1.0 / (1 << 20);
}

static struct chart *peak_chart(const struct amd_sweep_stats *s,
				const struct amd_memory_stats *m, const char *title)
{
	double max = 0;
	for (size_t i = 0; i < m->n; i++)
		if (isfinite(m->v[i].hi))
			max = fmax(max, m->v[i].hi);
	const char *u;
	double k = unit(max, &u);
	char ylabel[64];
	snprintf(ylabel, sizeof ylabel, "peak allocated (%s)", u);
	struct chart *c = plot_xy(s, title, ylabel);
	double *x = malloc((m->n ? m->n : 1) * 4 * sizeof *x);
	if (!x) {
		chart_fail(c);
		return c;
	}
	double *y = x + m->n, *lo = y + m->n, *hi = lo + m->n;
	for (size_t i = 0; i < s->nstrategies; i++) {
		size_t n = 0;
		for (size_t j = 0; j < m->n; j++)
			if (m->v[j].nruns && strcmp(m->v[j].strategy, s->strategies[i].strategy) == 0) {
				x[n] = m->v[j].n;
				y[n] = m->v[j].allocated * k;
				lo[n] = m->v[j].lo * k;
				hi[n++] = m->v[j].hi * k;
			}
		if (n && chart_series(c, s->strategies[i].strategy, (int)i, CS_LINE | CS_POINTS,
				      plot_marker(i), n, x, y, lo, hi) < 0)
			chart_fail(c);
	}
	free(x);
	chart_yrange(c, NAN, NAN, 1);
	chart_subtitle(c, "median over runs; bars: least and most run");
	return c;
}

static struct chart *timeline_chart(const struct amd_memory_stats *m, const char *title)
{
	double max = 0;
	for (size_t i = 0; i < m->ntl; i++)
		max = fmax(max, (double)(m->tl[i].reserved > m->tl[i].allocated
					 ? m->tl[i].reserved : m->tl[i].allocated));
	const char *u;
	double k = unit(max, &u);
	char ylabel[64];
	snprintf(ylabel, sizeof ylabel, "memory (%s)", u);
	struct chart *c = chart_new(CHART_XY, title, "time since the first event (s)", ylabel);
	double *x = malloc((m->ntl ? m->ntl : 1) * 3 * sizeof *x);
	if (!x) {
		chart_fail(c);
		return c;
	}
	double *a = x + m->ntl, *r = a + m->ntl;
	int reserved = 0;
	for (size_t i = 0; i < m->ntl; i++) {
		x[i] = (double)(m->tl[i].ts_ns - m->tl[0].ts_ns) / 1e9;
		a[i] = (double)m->tl[i].allocated * k;
		r[i] = m->tl[i].reserved >= 0 ? (double)m->tl[i].reserved * k : NAN;
		reserved |= m->tl[i].reserved >= 0;
	}
	if (chart_series(c, "allocated", 0, CS_LINE, MARK_CIRCLE, m->ntl, x, a, NULL, NULL) < 0 ||
	    (reserved && chart_series(c, "reserved", 1, CS_LINE | CS_DOTTED, MARK_SQUARE, m->ntl,
				      x, r, NULL, NULL) < 0))
		chart_fail(c);
	free(x);
	chart_yrange(c, NAN, NAN, 1);
	chart_subtitle(c, "run %s (n = %g), rank %d; %zu samples", m->run, m->tl_n,
		       m->rank < 0 ? 0 : m->rank, m->ntl);
	return c;
}

/* "ddp: 3.91 GiB at 1, 1.95 GiB at 2; …" — the medians the chart draws
 * (the first 16). */
static void figures(const struct amd_memory_stats *m, char *buf, size_t len)
{
	size_t at = 0, shown = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < m->n && shown < 16 && at < len; i++) {
		if (!m->v[i].nruns)
			continue;
		const char *u;
		double k = unit(m->v[i].allocated, &u);
		int head = !shown || strcmp(m->v[i].strategy, m->v[i - 1].strategy) != 0;
		const char *sep = !shown ? "" : head ? "; " : ", ";
		const char *name = *m->v[i].strategy ? m->v[i].strategy : "(no strategy)";
		double v = m->v[i].allocated * k;
		int w = head ? snprintf(buf + at, len - at, "%s%s: %.3g %s at %g", sep, name, v, u,
					m->v[i].n)
			     : snprintf(buf + at, len - at, "%s%.3g %s at %g", sep, v, u, m->v[i].n);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
		shown++;
	}
}

static int charts(struct report_charts *rc, const struct amd_sweep_stats *s,
		  const struct amd_memory_stats *m, struct amd_err *err)
{
	const char *what = m->gpu ? "GPU" : "rank (CPU memory)";
	char title[96], fig[400];
	snprintf(title, sizeof title, "Peak memory per %s", what);
	figures(m, fig, sizeof fig);
	if (report_chart_add(rc, err, "memory_peak", peak_chart(s, m, title), title,
			     "The most memory a run's %s held at once (allocated by the caching "
			     "allocator), from traces recorded with profile_memory=True%s%s. "
			     "Sharding (FSDP, ZeRO) should bring it down as n grows; replication "
			     "(DDP) keeps it flat. Medians: %s.", m->gpu ? "GPUs" : "ranks",
			     m->from_metric ? " or a logged max_memory_allocated metric" : "",
			     m->running_sum ? "; 2021-format traces give only allocation sizes, "
			     "so their total counts from the trace's start" : "", fig) < 0)
		return -1;
	if (!m->ntl)
		return report_chart_missing(rc, err, "Memory timeline: no run has traced memory "
						     "samples (only logged metrics).");
	return report_chart_add(rc, err, "memory_timeline", timeline_chart(m, "Memory timeline"),
				"Memory timeline",
				"Allocated (and, where the trace records it, reserved) memory of "
				"one rank's %s over the profiled window: steps show as a sawtooth; "
				"the gap between the lines is the allocator's cache.",
				m->gpu ? "GPU" : "CPU");
}

int report_memory_charts(struct report_charts *rc, struct amd_store *st,
			 const struct amd_sweep_stats *s, struct amd_err *err)
{
	struct amd_memory_stats m;
	if (amd_memory_stats(st, s, &m, err) < 0)
		return -1;
	int r = m.any ? charts(rc, s, &m, err)
		: report_chart_missing(rc, err, "Memory per GPU: no trace recorded with "
						 "profile_memory=True and no max_memory_allocated "
						 "metric for these runs.");
	amd_memory_stats_free(&m);
	return r;
}
