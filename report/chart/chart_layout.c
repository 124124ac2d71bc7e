/* chart_layout.c — the plot rectangle, the legend's size and place, and
 * its drawing (see chart_layout.h). */
#include "chart_layout.h"

#include <stdio.h>

#include "buf.h"
#include "chart_bars.h"
#include "chart_scale.h"
#include "chart_style.h"
#include "chart_xy.h"

/* ---- the legend's entries and size ---- */

static int legend_entry(const struct chart *c, size_t i, const char **name)
{
	if (c->kind == CHART_XY) {
		if (i >= c->ns || !c->s[i].name)
			return 0;
		*name = c->s[i].name;
	} else {
		if (i >= c->nb || !c->b[i].name)
			return 0;
		*name = c->b[i].name;
	}
	return 1;
}

static size_t entry_count(const struct chart *c)
{
	return c->kind == CHART_XY ? c->ns : c->nb;
}

/* The widest a legend's name is drawn (points). */
#define LEGEND_TEXT_MAX 170.0

struct chart_legend chart_legend_size(const struct chart *c, cairo_t *cr, double room)
{
	struct chart_legend L = {0};
	double maxw = 0;
	const char *name;
	chart_font(cr, FS_LEGEND, 0);
	for (size_t i = 0; i < entry_count(c); i++)
		if (legend_entry(c, i, &name)) {
			L.n++;
			double w = chart_text_width(cr, name);
			if (w > maxw)
				maxw = w;
		}

	if (L.n == 1 && c->kind != CHART_XY && !c->overlap)
		L.n = 0; /* one bar series: the axis says it all (overlapping ones are classes) */
	L.row = FS_LEGEND * 1.45;
	/* more than 6 entries go in 2 columns of half the width, unless a
	 * name would be shortened there and one column fits the room: a
	 * name is shown whole wherever it can be */
	int cut_in_two = maxw > LEGEND_TEXT_MAX / 2;
	int one_fits = (double)L.n * L.row + 8 <= room;
	L.cols = L.n > 6 && !(cut_in_two && one_fits) ? 2 : 1;
	double most = L.cols == 2 ? LEGEND_TEXT_MAX / 2 : LEGEND_TEXT_MAX;
	if (maxw > most)
		maxw = most; /* longer names are shortened with an ellipsis */
	size_t rows = (L.n + (size_t)L.cols - 1) / (size_t)L.cols;
	L.w = L.cols * (maxw + 26) + 8;
	L.h = (double)rows * L.row + 8;
	return L;
}

/* ---- the plot rectangle ---- */

static double max_label_w(cairo_t *cr, const struct chart *c)
{
	double w = 0;
	char buf[64];
	chart_font(cr, FS_TICK, 0);
	if (c->kind == CHART_HBARS) {
		for (size_t g = 0; g < c->ng; g++) {
			double lw = c->g[g].label ? chart_text_width(cr, c->g[g].label) : 0;
			if (lw > w)
				w = lw;
		}
		return w;
	}
	for (size_t i = 0; i < c->nvticks; i++) {
		chart_fmt_tick(buf, sizeof buf, c->vticks[i], c->vstep, c->ysuffix);
		double lw = chart_text_width(cr, buf);
		if (lw > w)
			w = lw;
	}
	return w;
}

void chart_layout(struct chart *c, cairo_t *cr, double w, double h, double legend_w)
{
	double top = PAD + FS_TITLE * 1.3;
	if (c->subtitle)
		top += FS_SUB * 1.45;
	top += 6;
	double left = PAD + (c->kind == CHART_HBARS ? 0 : FS_LABEL * 1.5) + max_label_w(cr, c) + 6;
	if (c->kind == CHART_HBARS && left > w * 0.42)
		left = w * 0.42;
	const char *below = c->kind == CHART_HBARS ? c->ylabel : c->xlabel; /* the axis label under the plot */
	double bottom = PAD + FS_TICK * 1.6 + (below ? FS_LABEL * 1.6 : 0);
	if (c->kind == CHART_BARS && chart_has_super(c))
		bottom += FS_TICK * 1.6;
	double right = PAD + 6 + (legend_w > 0 ? legend_w + 8 : 0);
	c->f.x0 = left;
	c->f.x1 = w - right;
	c->f.y0 = top;
	c->f.y1 = h - bottom;
	if (c->f.x1 - c->f.x0 < 40)
		c->f.x1 = c->f.x0 + 40;
	if (c->f.y1 - c->f.y0 < 40)
		c->f.y1 = c->f.y0 + 40;
}

/* ---- obstacles: the drawn data the legend must not hide ---- */

static void obstacle(struct chart *c, double x0, double y0, double x1, double y1)
{
	if (amd_grow(&c->obst, c->nobst, &c->cobst, sizeof *c->obst, 64) < 0) {
		chart_fail(c);
		return;
	}
	c->obst[c->nobst++] = (struct rect){fmin(x0, x1), fmin(y0, y1), fmax(x0, x1), fmax(y0, y1)};
}

static void segment_obstacles(struct chart *c, double xa, double ya, double xb, double yb)
{
	for (int k = 0; k <= 24; k++) {
		double t = k / 24.0;
		double x = xa + (xb - xa) * t, y = ya + (yb - ya) * t;
		obstacle(c, x - 2, y - 2, x + 2, y + 2);
	}
}

static void series_obstacles(struct chart *c, const struct xy_series *s)
{
	for (size_t k = 0; k < s->n; k++) {
		if (!amd_num_ok(s->y[k]))
			continue;
		double x = chart_map_x(c, s->x[k]) + chart_jitter(s, k), y = chart_map_y(c, s->y[k]);
		obstacle(c, x - 4, y - 4, x + 4, y + 4);
		if (s->lo && s->hi && amd_num_ok(s->lo[k]) && amd_num_ok(s->hi[k]))
			obstacle(c, x - 4, chart_map_y(c, s->lo[k]), x + 4, chart_map_y(c, s->hi[k]));
		if (k + 1 < s->n && amd_num_ok(s->y[k + 1]) && (s->style & (CS_LINE | CS_BAND)))
			segment_obstacles(c, x, y, chart_map_x(c, s->x[k + 1]),
					  chart_map_y(c, s->y[k + 1]));
		if ((s->style & CS_BAND) && k + 1 < s->n && s->lo && s->hi) {
			segment_obstacles(c, x, chart_map_y(c, s->lo[k]), chart_map_x(c, s->x[k + 1]),
					  chart_map_y(c, s->lo[k + 1]));
			segment_obstacles(c, x, chart_map_y(c, s->hi[k]), chart_map_x(c, s->x[k + 1]),
					  chart_map_y(c, s->hi[k + 1]));
		}
	}
}

static void bar_obstacles(struct chart *c)
{
	struct rect r;
	for (size_t g = 0; g < c->ng; g++)
		for (size_t i = 0; i < c->nb; i++)
			if (chart_bar_rect(c, g, i, &r)) {
				obstacle(c, r.x0, r.y0 - (c->value_fmt ? FS_VALUE * 1.6 : 0), r.x1, r.y1);
				if (!c->stacked && c->b[i].hi && amd_num_ok(c->b[i].hi[g])) {
					double p = chart_map_v(c, c->b[i].hi[g]);
					if (c->kind == CHART_HBARS)
						obstacle(c, r.x0, r.y0, p + 2, r.y1);
					else
						obstacle(c, r.x0, p - 2, r.x1, r.y1);
				}
			}
}

static void collect_obstacles(struct chart *c)
{
	c->nobst = 0;
	if (c->kind == CHART_XY)
		for (size_t i = 0; i < c->ns; i++)
			series_obstacles(c, &c->s[i]);
	else
		bar_obstacles(c);
	for (size_t i = 0; i < c->nnotes; i++) {
		double x = chart_map_x(c, c->notes[i].x), y = chart_map_y(c, c->notes[i].y);
		obstacle(c, x - 40, y - 10, x + 4, y + 4);
	}
	for (size_t i = 0; i < c->nrefs; i++) { /* the line's label sits at its right end */
		double p = chart_map_v(c, c->refs[i].v);
		if (c->kind == CHART_HBARS)
			obstacle(c, p - 2, c->f.y0, p + 60, c->f.y0 + 12);
		else
			obstacle(c, c->f.x1 - 70, p - 12, c->f.x1, p + 2);
	}
}

static int hits(const struct chart *c, struct rect L)
{
	for (size_t i = 0; i < c->nobst; i++) {
		const struct rect *o = &c->obst[i];
		if (o->x1 >= L.x0 && o->x0 <= L.x1 && o->y1 >= L.y0 && o->y0 <= L.y1)
			return 1;
	}
	return 0;
}

/* ---- the legend's place ---- */

/* Places the legend inside the plot where it hides nothing; returns 0
 * when no corner is free. */
static int place_legend_inside(struct chart *c, const struct chart_legend *L)
{
	const struct chart_frame *f = &c->f;
	double in = 6;
	double xs[3] = {f->x1 - in - L->w, f->x0 + in, (f->x0 + f->x1 - L->w) / 2};
	double ys[3] = {f->y0 + in, f->y1 - in - L->h, (f->y0 + f->y1 - L->h) / 2};
	static const int order[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1},
				       {0, 2}, {1, 2}};
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		struct rect r = {xs[order[k][0]], ys[order[k][1]], 0, 0};
		r.x1 = r.x0 + L->w;
		r.y1 = r.y0 + L->h;
		if (r.x0 < f->x0 || r.y1 > f->y1)
			continue;
		if (!hits(c, r)) {
			c->f.legend_x0 = r.x0;
			c->f.legend_y0 = r.y0;
			c->f.legend_x1 = r.x1;
			c->f.legend_y1 = r.y1;
			return 1;
		}
	}
	return 0;
}

int chart_place_legend(struct chart *c, cairo_t *cr, const struct chart_legend *L, double w,
		       double h)
{
	collect_obstacles(c);
	if (c->failed)
		return -1;
	if (place_legend_inside(c, L))
		return 0;
	chart_layout(c, cr, w, h, L->w);
	c->f.legend_x0 = c->f.x1 + 10;
	c->f.legend_y0 = c->f.y0;
	c->f.legend_x1 = c->f.legend_x0 + L->w;
	c->f.legend_y1 = c->f.legend_y0 + L->h;
	return 0;
}

/* ---- drawing ---- */

static void legend_swatch(const struct chart *c, cairo_t *cr, size_t i, double x, double y)
{
	if (c->kind != CHART_XY) {
		struct rect r = {x, y - 4.5, x + 14, y + 4.5};
		if (c->b[i].hatched) {
			chart_hatch(cr, &r, c->b[i].color);
			return;
		}
		cairo_rectangle(cr, r.x0, r.y0, 14, 9);
		chart_set_color(cr, c->b[i].color, 1);
		cairo_fill(cr);
		return;
	}
	const struct xy_series *s = &c->s[i];
	if (s->style & CS_BAND && !(s->style & CS_LINE)) {
		cairo_rectangle(cr, x, y - 4, 16, 8);
		chart_set_color(cr, s->color, 0.18);
		cairo_fill(cr);
	}
	if (s->style & CS_LINE) {
		chart_line_style(cr, s);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + 16, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	if (s->style & CS_POINTS) {
		chart_marker(cr, s->marker, x + 8, y, 3);
		chart_set_color(cr, s->color, 1);
		cairo_fill(cr);
	}
}

void chart_draw_legend(struct chart *c, cairo_t *cr, const struct chart_legend *L)
{
	const struct chart_frame *f = &c->f;
	cairo_rectangle(cr, f->legend_x0, f->legend_y0, L->w, L->h);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.92);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
	cairo_set_line_width(cr, 0.6);
	cairo_stroke(cr);
	size_t rows = (L->n + (size_t)L->cols - 1) / (size_t)L->cols, k = 0;
	double colw = (L->w - 8) / L->cols;
	const char *name;
	for (size_t i = 0; i < entry_count(c); i++) {
		if (!legend_entry(c, i, &name))
			continue;
		double x = f->legend_x0 + 4 + colw * (double)(k / rows);
		double y = f->legend_y0 + 4 + L->row * ((double)(k % rows) + 0.5);
		legend_swatch(c, cr, i, x, y);
		if (c->legend_at)
			c->legend_at[i] = (struct rect){x - 2, y - L->row / 2, x + colw - 4, y + L->row / 2};
		chart_font(cr, FS_LEGEND, 0);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		char fit[256];
		chart_fit_label(cr, name, colw - 26, fit, sizeof fit);
		chart_text(cr, x + 21, y, fit, 0, 0.5);
		k++;
	}
}
