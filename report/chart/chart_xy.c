/* chart_xy.c — lines, points, error bars, bands and the x axis of XY
 * charts (see chart_xy.h). */
#include "chart_xy.h"

#include <stdio.h>

#include "chart_scale.h"
#include "chart_style.h"

void chart_marker(cairo_t *cr, enum chart_marker m, double x, double y, double r)
{
	cairo_new_path(cr); /* no line from the last text or marker */
	switch (m) {
	case MARK_SQUARE:
		cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
		break;
	case MARK_TRIANGLE:
		cairo_move_to(cr, x, y - r * 1.1);
		cairo_line_to(cr, x + r, y + r * 0.7);
		cairo_line_to(cr, x - r, y + r * 0.7);
		cairo_close_path(cr);
		break;
	case MARK_DIAMOND:
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r * 1.2);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	case MARK_DASH:
		cairo_rectangle(cr, x - r * 2.2, y - 0.9, r * 4.4, 1.8);
		break;
	default:
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
	}
}

void chart_line_style(cairo_t *cr, const struct xy_series *s)
{
	cairo_set_line_cap(cr, s->style & CS_DOTTED ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
	if (s->style & CS_THIN) {
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		cairo_set_line_width(cr, 1.1);
	} else {
		chart_set_color(cr, s->color, 1);
		cairo_set_line_width(cr, 1.7);
	}
	if (s->style & CS_DOTTED) {
		double d[] = {0.1, 3.2};
		cairo_set_dash(cr, d, 2, 0);
	} else if (s->style & CS_DASHED) {
		double d[] = {5, 3};
		cairo_set_dash(cr, d, 2, 0);
	} else
		cairo_set_dash(cr, NULL, 0, 0);
}

double chart_jitter(const struct xy_series *s, size_t k)
{
	if (!(s->style & CS_JITTER))
		return 0;
	size_t m = 0, idx = 0;
	for (size_t j = 0; j < s->n; j++)
		if (s->x[j] == s->x[k]) {
			if (j < k)
				idx++;
			m++;
		}
	double step = m > 7 ? 24.0 / (double)(m - 1) : 4.0;
	return ((double)idx - (double)(m - 1) / 2) * step;
}

void chart_draw_x_axis(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	char buf[64];
	chart_font(cr, FS_TICK, 0);
	for (size_t i = 0; i < c->nxticks; i++) {
		double x = chart_map_x(c, c->xticks[i]);
		if (x < f->x0 - 0.5 || x > f->x1 + 0.5)
			continue;
		cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
		cairo_set_line_width(cr, 0.6);
		cairo_move_to(cr, x, f->y0);
		cairo_line_to(cr, x, f->y1);
		cairo_stroke(cr);
		if (c->xscale == CHART_LOG2)
			snprintf(buf, sizeof buf, "%g", c->xticks[i]);
		else
			chart_fmt_tick(buf, sizeof buf, c->xticks[i], c->xstep, "");
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		chart_text(cr, x, f->y1 + 4, buf, 0.5, 0);
	}
}

void chart_draw_band(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	if (!s->lo || !s->hi)
		return;
	size_t k = 0;
	while (k < s->n) { /* one polygon per run of finite intervals */
		while (k < s->n && !(amd_num_ok(s->lo[k]) && amd_num_ok(s->hi[k])))
			k++;
		size_t a = k;
		while (k < s->n && amd_num_ok(s->lo[k]) && amd_num_ok(s->hi[k]))
			k++;
		if (k - a < 2)
			continue;
		cairo_new_path(cr);
		for (size_t j = a; j < k; j++)
			cairo_line_to(cr, chart_map_x(c, s->x[j]), chart_map_y(c, s->hi[j]));
		for (size_t j = k; j-- > a;)
			cairo_line_to(cr, chart_map_x(c, s->x[j]), chart_map_y(c, s->lo[j]));
		cairo_close_path(cr);
		chart_set_color(cr, s->color, 0.18);
		cairo_fill(cr);
	}
}

static void draw_line(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	chart_line_style(cr, s);
	int pen = 0;
	for (size_t k = 0; k < s->n; k++) {
		if (!amd_num_ok(s->y[k])) {
			pen = 0;
			continue;
		}
		double x = chart_map_x(c, s->x[k]), y = chart_map_y(c, s->y[k]);
		if (pen)
			cairo_line_to(cr, x, y);
		else
			cairo_move_to(cr, x, y);
		pen = 1;
	}
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

static void draw_errbars(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	chart_set_color(cr, s->color, 1);
	cairo_set_line_width(cr, 1.2);
	for (size_t k = 0; k < s->n; k++) {
		if (!amd_num_ok(s->lo[k]) || !amd_num_ok(s->hi[k]) || !amd_num_ok(s->y[k]))
			continue;
		double x = chart_map_x(c, s->x[k]) + chart_jitter(s, k);
		double a = chart_map_y(c, s->lo[k]), b = chart_map_y(c, s->hi[k]);
		cairo_move_to(cr, x, a);
		cairo_line_to(cr, x, b);
		cairo_move_to(cr, x - 3.5, a);
		cairo_line_to(cr, x + 3.5, a);
		cairo_move_to(cr, x - 3.5, b);
		cairo_line_to(cr, x + 3.5, b);
	}
	cairo_stroke(cr);
}

static void draw_points(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	int hollow = (s->style & CS_JITTER) != 0;
	for (size_t k = 0; k < s->n; k++) {
		if (!amd_num_ok(s->y[k]))
			continue;
		double x = chart_map_x(c, s->x[k]) + chart_jitter(s, k), y = chart_map_y(c, s->y[k]);
		chart_marker(cr, s->marker, x, y, hollow ? 2.6 : 3.3);
		if (hollow) {
			chart_set_color(cr, s->color, 0.35);
			cairo_fill_preserve(cr);
			chart_set_color(cr, s->color, 1);
			cairo_set_line_width(cr, 0.9);
			cairo_stroke(cr);
		} else {
			chart_set_color(cr, s->color, 1);
			cairo_fill_preserve(cr);
			cairo_set_source_rgb(cr, 1, 1, 1);
			cairo_set_line_width(cr, 0.8);
			cairo_stroke(cr);
		}
	}
}

void chart_draw_series(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	if (s->style & CS_LINE)
		draw_line(c, cr, s);
	if ((s->style & CS_ERRBARS) && s->lo && s->hi)
		draw_errbars(c, cr, s);
	if (s->style & CS_POINTS)
		draw_points(c, cr, s);
}
