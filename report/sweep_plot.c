/* sweep_plot.c — a sweep's statistics laid out on charts (see
 * sweep_plot.h). */
#include "sweep_plot.h"

#include "buf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "labels.h"
#include "num.h"

int plot_log2(const struct amd_sweep_stats *s)
{
	double lo, hi;
	amd_sweep_axis_extent(s, &lo, &hi);
	return lo > 0 && hi / lo >= 3.9;
}

struct chart *plot_xy(const struct amd_sweep_stats *s, const char *title, const char *ylabel)
{
	struct chart *c = chart_new(CHART_XY, title, report_axis_label(s), ylabel);
	if (plot_log2(s))
		chart_xscale(c, CHART_LOG2);
	return c;
}

enum chart_marker plot_marker(size_t i)
{
	static const enum chart_marker m[] = {MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND};
	return m[i % 4];
}

/* Point p's runs, "runs: NAME (ID), …", as the point's hover text. */
static int point_runs(struct chart *c, size_t k, const struct amd_point_stats *p)
{
	struct amd_buf b = {0};
	int rc = amd_buf_printf(&b, "runs:");
	for (size_t r = 0; rc == 0 && r < p->nruns; r++)
		rc = amd_buf_printf(&b, "%s %s (%.8s)", r ? "," : "",
				    p->runs[r].name ? p->runs[r].name : "",
				    p->runs[r].ext_id ? p->runs[r].ext_id : "");
	if (rc == 0)
		rc = chart_point_info(c, k, b.data);
	amd_buf_free(&b);
	return rc < 0 ? chart_fail(c) : 0;
}

/* Strategy i's line (nothing when no point has a value); 1 when drawn,
 * -1 when out of memory. */
static int strategy_line(struct chart *c, const struct amd_sweep_stats *s, size_t i,
			 enum amd_point_value v, double scale, int with_ci, unsigned style)
{
	const struct amd_strategy_stats *st = &s->strategies[i];
	size_t n = st->npoints, m = 0;
	double *x = calloc(4 * (n + 1), sizeof *x);
	size_t *from = calloc(n + 1, sizeof *from); /* kept point m is st->points[from[m]] */
	if (!x || !from) {
		free(x);
		free(from);
		return chart_fail(c);
	}
	double *y = x + n + 1, *lo = y + n + 1, *hi = lo + n + 1;
	for (size_t k = 0; k < n; k++) {
		const struct amd_point_stats *p = &st->points[k];
		double val = amd_point_value(p, v) * scale;
		if (!amd_num_ok(val))
			continue;
		const struct amd_ci *iv = with_ci ? amd_point_ci(p, v) : NULL;
		x[m] = p->n;
		y[m] = val;
		lo[m] = iv && iv->valid ? iv->lo * scale : NAN;
		hi[m] = iv && iv->valid ? iv->hi * scale : NAN;
		from[m++] = k;
	}
	int drawn = m > 0;
	if (m && chart_series(c, st->strategy, (int)i, style | CS_LINE | CS_POINTS, plot_marker(i),
			      m, x, y, with_ci ? lo : NULL, with_ci ? hi : NULL) < 0)
		drawn = -1;
	for (size_t j = 0; drawn > 0 && j < m; j++)
		if (point_runs(c, j, &st->points[from[j]]) < 0)
			drawn = -1;
	free(x);
	free(from);
	return drawn;
}

int plot_strategy_lines(struct chart *c, const struct amd_sweep_stats *s,
			enum amd_point_value v, double scale, int with_ci, unsigned style)
{
	int drawn = 0;
	for (size_t i = 0; i < s->nstrategies; i++) {
		int d = strategy_line(c, s, i, v, scale, with_ci, style);
		if (d < 0)
			return drawn;
		drawn += d;
	}
	return drawn;
}

/* "95%", or "75%–97%" when v's intervals differ in level. */
static void level_words(double lo, double hi, char *buf, size_t n)
{
	if (fabs(hi - lo) < 0.005)
		snprintf(buf, n, "%.0f%%", lo * 100);
	else
		snprintf(buf, n, "%.0f%%–%.0f%%", lo * 100, hi * 100);
}

void plot_ci_note(const struct amd_sweep_stats *s, enum amd_point_value v, const char *what,
		  char *buf, size_t n)
{
	size_t total, valid = amd_sweep_ci_count(s, v, &total);
	double lo, hi;
	int own = amd_sweep_ci_levels(s, v, &lo, &hi);
	char lv[32];
	level_words(lo, hi, lv, sizeof lv);
	if (valid == 0)
		snprintf(buf, n, "no CI: fewer than 3 runs per point");
	else if (valid < total)
		snprintf(buf, n, "%s: %s CI where a point has 3+ runs%s", what, lv,
			 own ? " (its coverage at these runs)" : "");
	else
		snprintf(buf, n, "%s: %s %s", what, lv, own ? "CI (its coverage at these runs)" : "bootstrap CI");
}

void plot_ci_caption(const struct amd_sweep_stats *s, enum amd_point_value v, const char *what,
		     char *buf, size_t n)
{
	double lo, hi;
	int own = amd_sweep_ci_levels(s, v, &lo, &hi);
	char lv[32];
	level_words(lo, hi, lv, sizeof lv);
	if (own)
		snprintf(buf, n, "the interval of the %s, labelled with the coverage it has at these "
			 "run counts (%s; Method)", what, lv);
	else
		snprintf(buf, n, "the %s bootstrap interval of the %s", lv, what);
}

/* Strategy st's bars over the axis values xs: v × scale, NAN where it
 * has no point; lo and hi its interval (× scale) where v has a valid one,
 * else NAN. */
static void grouped_values(const struct amd_strategy_stats *st, const double *xs, size_t nx,
			   enum amd_point_value v, double scale, double *vals, double *lo,
			   double *hi)
{
	for (size_t j = 0; j < nx; j++) {
		vals[j] = lo[j] = hi[j] = NAN;
		for (size_t k = 0; k < st->npoints; k++) {
			if (st->points[k].n != xs[j])
				continue;
			vals[j] = amd_point_value(&st->points[k], v) * scale;
			const struct amd_ci *ci = amd_point_ci(&st->points[k], v);
			if (ci && ci->valid) {
				lo[j] = ci->lo * scale;
				hi[j] = ci->hi * scale;
			}
		}
	}
}

struct chart *plot_grouped(const struct amd_sweep_stats *s, const char *title,
			   const char *ylabel, enum amd_point_value v, double scale)
{
	struct chart *c = chart_new(CHART_BARS, title, report_axis_label(s), ylabel);
	double *xs;
	size_t nx;
	if (amd_sweep_axis_values(s, &xs, &nx) < 0) {
		chart_fail(c);
		return c;
	}
	for (size_t j = 0; j < nx; j++) {
		char lab[32];
		snprintf(lab, sizeof lab, "%g", xs[j]);
		chart_group(c, lab, NULL);
	}
	double *vals = calloc(3 * (nx + 1), sizeof *vals), *lo = vals + nx + 1, *hi = lo + nx + 1;
	if (!vals)
		chart_fail(c);
	for (size_t i = 0; vals && i < s->nstrategies; i++) {
		grouped_values(&s->strategies[i], xs, nx, v, scale, vals, lo, hi);
		chart_bars(c, s->strategies[i].strategy, (int)i, 0, vals, lo, hi);
	}
	free(vals);
	free(xs);
	return c;
}

struct chart *plot_per_config(const struct amd_sweep_stats *s, const char *title,
			      const char *ylabel, size_t *ngroups)
{
	struct chart *c = chart_new(CHART_BARS, title, report_axis_label(s), ylabel);
	*ngroups = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			char lab[32];
			snprintf(lab, sizeof lab, "%g", s->strategies[i].points[k].n);
			chart_group(c, lab, s->strategies[i].strategy);
			(*ngroups)++;
		}
	chart_stacked(c, 1);
	chart_yrange(c, 0, 100, 1);
	return c;
}
