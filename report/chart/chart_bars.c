/* chart_bars.c — vertical and horizontal bars: slots, rectangles,
 * whiskers, hatching, value labels and group labels (see chart_bars.h). */
#include "chart_bars.h"

#include <stdio.h>
#include <string.h>

#include "chart_scale.h"
#include "chart_style.h"

/* Bar slot: the extent of bar i of group g along the category axis. */
static void bar_slot(const struct chart *c, size_t g, size_t i, double *a, double *b)
{
	const struct chart_frame *f = &c->f;
	int horiz = c->kind == CHART_HBARS;
	double lo = horiz ? f->y0 : f->x0, hi = horiz ? f->y1 : f->x1;
	double gw = (hi - lo) / (double)(c->ng ? c->ng : 1);
	double start = lo + gw * (double)g;
	if (c->stacked || c->overlap || c->nb <= 1) {
		double bw = fmin(gw * 0.62, 64);
		*a = start + (gw - bw) / 2;
		*b = *a + bw;
		return;
	}
	double inner = fmin(gw * 0.8, 36.0 * (double)c->nb);
	double bw = inner / (double)c->nb;
	*a = start + (gw - inner) / 2 + bw * (double)i;
	*b = *a + bw * 0.92;
}

int chart_bar_rect(const struct chart *c, size_t g, size_t i, struct rect *r)
{
	double v = c->b[i].v[g];
	if (!amd_num_ok(v))
		return 0;
	double base = c->has_base && !c->stacked ? c->bar_base : 0;
	if (c->stacked) /* diverging: a negative value stacks down from 0 */
		for (size_t k = 0; k < i; k++)
			if (amd_num_ok(c->b[k].v[g]) && (c->b[k].v[g] < 0) == (v < 0))
				base += c->b[k].v[g];
	double a, b;
	bar_slot(c, g, i, &a, &b);
	double top = c->has_base && !c->stacked ? v : base + v; /* from the base to v */
	double p0 = chart_map_v(c, base), p1 = chart_map_v(c, top);
	if (c->kind == CHART_HBARS)
		*r = (struct rect){fmin(p0, p1), a, fmax(p0, p1), b};
	else
		*r = (struct rect){a, fmin(p0, p1), b, fmax(p0, p1)};
	return 1;
}

void chart_hatch(cairo_t *cr, const struct rect *r, int color)
{
	cairo_save(cr);
	cairo_rectangle(cr, r->x0, r->y0, r->x1 - r->x0, r->y1 - r->y0);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
	cairo_paint(cr);
	if (color == CHART_GREY) {
		cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
		cairo_set_line_width(cr, 0.7);
	} else { /* the series' colour in stripes on its light tint */
		chart_set_color(cr, color, 0.25);
		cairo_paint(cr);
		chart_set_color(cr, color, 1);
		cairo_set_line_width(cr, 1.6);
	}
	double h = r->y1 - r->y0;
	for (double x = r->x0 - h; x < r->x1; x += 5) {
		cairo_move_to(cr, x, r->y1);
		cairo_line_to(cr, x + h, r->y0);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

int chart_has_super(const struct chart *c)
{
	for (size_t g = 0; g < c->ng; g++)
		if (c->g[g].super)
			return 1;
	return 0;
}

static void bar_value_label(struct chart *c, cairo_t *cr, size_t g, size_t i,
			    const struct rect *r)
{
	char buf[64];
	snprintf(buf, sizeof buf, c->value_fmt, c->b[i].v[g]);
	chart_font(cr, FS_VALUE, 0);
	double tw = chart_text_width(cr, buf);
	if (c->kind == CHART_HBARS) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		double xe = r->x1 + 3;
		if (c->b[i].hi && amd_num_ok(c->b[i].hi[g]))
			xe = fmax(xe, chart_map_v(c, c->b[i].hi[g]) + 3);
		chart_text(cr, xe, (r->y0 + r->y1) / 2, buf, 0, 0.5);
		return;
	}
	int inside = c->stacked && r->y1 - r->y0 > FS_VALUE * 1.8 && r->x1 - r->x0 > tw + 2;
	if (inside) {
		double ink[3];
		chart_text_color_on(c->b[i].color, ink); /* WCAG AA against the bar */
		cairo_set_source_rgb(cr, ink[0], ink[1], ink[2]);
		chart_text(cr, (r->x0 + r->x1) / 2, (r->y0 + r->y1) / 2, buf, 0.5, 0.5);
	} else if (!c->stacked) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		double top = r->y0;
		if (c->b[i].hi && amd_num_ok(c->b[i].hi[g]))
			top = fmin(top, chart_map_v(c, c->b[i].hi[g]));
		chart_text(cr, (r->x0 + r->x1) / 2, top - 2.5, buf, 0.5, 1);
	}
}

/* Stacked bars: the total of the coloured segments above each stack. */
static void stack_totals(struct chart *c, cairo_t *cr)
{
	for (size_t g = 0; g < c->ng; g++) {
		double total = 0, up = 0; /* the net total, over the positive stack's top */
		int any = 0, hatched = 0;
		for (size_t i = 0; i < c->nb; i++) {
			hatched |= c->b[i].hatched;
			if (!c->b[i].hatched && amd_num_ok(c->b[i].v[g])) {
				total += c->b[i].v[g];
				up += fmax(c->b[i].v[g], 0);
				any = 1;
			}
		}
		if (!any || hatched) /* a hatched rest fills to 100%: no total to show */
			continue;
		double a, b;
		bar_slot(c, g, 0, &a, &b);
		char buf[64];
		snprintf(buf, sizeof buf, c->value_fmt, total);
		chart_font(cr, FS_VALUE, 1);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		chart_text(cr, (a + b) / 2, chart_map_v(c, fmax(up, total)) - 2.5, buf, 0.5, 1);
	}
}

/* The whisker lo..hi of bar i in group g across its rectangle r. */
static void whisker(struct chart *c, cairo_t *cr, size_t g, size_t i, const struct rect *r)
{
	double a = chart_map_v(c, c->b[i].lo[g]), b = chart_map_v(c, c->b[i].hi[g]);
	double m = c->kind == CHART_HBARS ? (r->y0 + r->y1) / 2 : (r->x0 + r->x1) / 2;
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1.1);
	if (c->kind == CHART_HBARS) {
		cairo_move_to(cr, a, m);
		cairo_line_to(cr, b, m);
		cairo_move_to(cr, a, m - 3);
		cairo_line_to(cr, a, m + 3);
		cairo_move_to(cr, b, m - 3);
		cairo_line_to(cr, b, m + 3);
	} else {
		cairo_move_to(cr, m, a);
		cairo_line_to(cr, m, b);
		cairo_move_to(cr, m - 3, a);
		cairo_line_to(cr, m + 3, a);
		cairo_move_to(cr, m - 3, b);
		cairo_line_to(cr, m + 3, b);
	}
	cairo_stroke(cr);
}

static void draw_bar(struct chart *c, cairo_t *cr, size_t g, size_t i)
{
	struct rect r;
	if (!chart_bar_rect(c, g, i, &r))
		return;
	if (c->has_base && c->kind == CHART_HBARS && r.x1 - r.x0 < 2) {
		double m = (r.x0 + r.x1) / 2; /* no length: a 2 pt mark at the value */
		r.x0 = m - 1;
		r.x1 = m + 1;
	}
	if (c->b[i].hatched)
		chart_hatch(cr, &r, c->b[i].color);
	else {
		cairo_rectangle(cr, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
		chart_set_color(cr, c->b[i].color, 1);
		cairo_fill(cr);
	}
	if (!c->stacked && c->b[i].lo && c->b[i].hi && amd_num_ok(c->b[i].lo[g]) &&
	    amd_num_ok(c->b[i].hi[g]))
		whisker(c, cr, g, i, &r);
	if (c->value_fmt && !c->b[i].hatched)
		bar_value_label(c, cr, g, i, &r);
}

void chart_draw_bars(struct chart *c, cairo_t *cr)
{
	for (size_t g = 0; g < c->ng; g++)
		for (size_t i = 0; i < c->nb; i++)
			if (chart_layer_series(c, i))
				draw_bar(c, cr, g, i);
	if (c->stacked && c->value_fmt && c->kind == CHART_BARS && chart_layer_base(c))
		stack_totals(c, cr);
}

/* The second row under the groups: consecutive equal labels merge under
 * one line, with a faint divider between the runs. */
static void draw_supers(struct chart *c, cairo_t *cr, double span)
{
	const struct chart_frame *f = &c->f;
	size_t a = 0;
	while (a < c->ng) {
		size_t b = a;
		while (b + 1 < c->ng && c->g[b + 1].super && c->g[a].super &&
		       strcmp(c->g[b + 1].super, c->g[a].super) == 0)
			b++;
		double x0 = f->x0 + span * (double)a + 4, x1 = f->x0 + span * (double)(b + 1) - 4;
		double y = f->y1 + FS_TICK * 1.6 + 5;
		cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
		cairo_set_line_width(cr, 0.6);
		cairo_move_to(cr, x0, y);
		cairo_line_to(cr, x1, y);
		cairo_stroke(cr);
		if (c->g[a].super) {
			chart_font(cr, FS_TICK, 1);
			cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
			chart_text(cr, (x0 + x1) / 2, y + 3, c->g[a].super, 0.5, 0);
			chart_font(cr, FS_TICK, 0);
		}
		if (a > 0) { /* a faint divider between groups of bars */
			double xd = f->x0 + span * (double)a;
			cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
			cairo_move_to(cr, xd, f->y0);
			cairo_line_to(cr, xd, f->y1);
			cairo_stroke(cr);
		}
		a = b + 1;
	}
}

void chart_draw_groups(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	int horiz = c->kind == CHART_HBARS;
	double span = (horiz ? f->y1 - f->y0 : f->x1 - f->x0) / (double)c->ng;
	chart_font(cr, FS_TICK, 0);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	for (size_t g = 0; g < c->ng; g++) {
		if (!c->g[g].label)
			continue;
		double m = (horiz ? f->y0 : f->x0) + span * ((double)g + 0.5);
		if (horiz) {
			char buf[512];
			chart_fit_label(cr, c->g[g].label, f->x0 - PAD - 4, buf, sizeof buf);
			chart_text(cr, f->x0 - 4, m, buf, 1, 0.5);
		} else
			chart_text(cr, m, f->y1 + 4, c->g[g].label, 0.5, 0);
	}
	if (horiz || !chart_has_super(c))
		return;
	draw_supers(c, cr, span);
}
