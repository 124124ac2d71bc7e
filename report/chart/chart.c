/* chart.c — chart_draw: the order of a chart's layers and the frame
 * every kind shares (value axis and grid, threshold band, reference
 * lines, notes, axes, titles). The kinds' own drawing is in chart_xy.c,
 * chart_bars.c and chart_icicle.c; the files in chart_output.c. */
#include "chart.h"

#include "chart_bars.h"
#include "chart_icicle.h"
#include "chart_layout.h"
#include "chart_scale.h"
#include "chart_style.h"
#include "chart_xy.h"

static void draw_value_axis(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	char buf[64];
	chart_font(cr, FS_TICK, 0);
	for (size_t i = 0; i < c->nvticks; i++) {
		double p = chart_map_v(c, c->vticks[i]);
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_set_line_width(cr, 0.6);
		if (c->kind == CHART_HBARS) {
			cairo_move_to(cr, p, f->y0);
			cairo_line_to(cr, p, f->y1);
		} else {
			cairo_move_to(cr, f->x0, p);
			cairo_line_to(cr, f->x1, p);
		}
		cairo_stroke(cr);
		chart_fmt_tick(buf, sizeof buf, c->vticks[i], c->vstep, c->ysuffix);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		if (c->kind == CHART_HBARS)
			chart_text(cr, p, f->y1 + 4, buf, 0.5, 0);
		else
			chart_text(cr, f->x0 - 5, p, buf, 1, 0.5);
	}
}

/* The shaded span of the value axis, under the data. */
static void draw_band_span(struct chart *c, cairo_t *cr)
{
	if (!amd_num_ok(c->band_lo) || !amd_num_ok(c->band_hi))
		return;
	const struct chart_frame *f = &c->f;
	double a = chart_map_v(c, c->band_lo), b = chart_map_v(c, c->band_hi);
	cairo_set_source_rgb(cr, 0.90, 0.90, 0.90);
	if (c->kind == CHART_HBARS)
		cairo_rectangle(cr, fmin(a, b), f->y0, fabs(b - a), f->y1 - f->y0);
	else
		cairo_rectangle(cr, f->x0, fmin(a, b), f->x1 - f->x0, fabs(b - a));
	cairo_fill(cr);
}

static void draw_refs(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	for (size_t i = 0; i < c->nrefs; i++) {
		double p = chart_map_v(c, c->refs[i].v);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		cairo_set_line_width(cr, 1);
		double d[] = {4, 3};
		cairo_set_dash(cr, d, 2, 0);
		if (c->kind == CHART_HBARS) {
			cairo_move_to(cr, p, f->y0);
			cairo_line_to(cr, p, f->y1);
		} else {
			cairo_move_to(cr, f->x0, p);
			cairo_line_to(cr, f->x1, p);
		}
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		if (c->refs[i].label) {
			chart_font(cr, FS_VALUE, 0);
			if (c->kind == CHART_HBARS)
				chart_text(cr, p + 3, f->y0 + 2, c->refs[i].label, 0, 0);
			else
				chart_text(cr, f->x1 - 2, p - 3, c->refs[i].label, 1, 1);
		}
	}
}

static void draw_notes(struct chart *c, cairo_t *cr)
{
	chart_font(cr, FS_VALUE + 0.5, 0);
	cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
	for (size_t i = 0; i < c->nnotes; i++)
		chart_text(cr, chart_map_x(c, c->notes[i].x) - 3, chart_map_y(c, c->notes[i].y) - 3,
			   c->notes[i].text, 1, 1);
}

static void draw_axis_labels(struct chart *c, cairo_t *cr, double h)
{
	const struct chart_frame *f = &c->f;
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	chart_font(cr, FS_LABEL, 0);
	/* HBARS: the value axis runs along the bottom; its rows need no label */
	const char *xl = c->kind == CHART_HBARS ? c->ylabel : c->xlabel;
	const char *yl = c->kind == CHART_HBARS ? NULL : c->ylabel;
	if (xl)
		chart_text(cr, (f->x0 + f->x1) / 2, h - PAD, xl, 0.5, 1);
	if (yl) {
		cairo_save(cr);
		cairo_translate(cr, PAD, (f->y0 + f->y1) / 2);
		cairo_rotate(cr, -M_PI / 2);
		chart_text(cr, 0, 0, yl, 0.5, 0);
		cairo_restore(cr);
	}
}

static void draw_titles(struct chart *c, cairo_t *cr, double w, double h)
{
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	chart_font(cr, FS_TITLE, 1);
	char fit[1024]; /* titles wider than the chart lose their middle, not their end */
	if (c->title) {
		chart_fit_label(cr, c->title, w - 2 * PAD, fit, sizeof fit);
		chart_text(cr, PAD, PAD, fit, 0, 0);
	}
	if (c->subtitle) {
		chart_font(cr, FS_SUB, 0);
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		chart_fit_label(cr, c->subtitle, w - 2 * PAD, fit, sizeof fit);
		chart_text(cr, PAD, PAD + FS_TITLE * 1.3 + 2, fit, 0, 0);
	}
	draw_axis_labels(c, cr, h);
}

static void draw_frame(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
	cairo_set_line_width(cr, 0.9);
	cairo_move_to(cr, f->x0, f->y0);
	cairo_line_to(cr, f->x0, f->y1);
	cairo_line_to(cr, f->x1, f->y1);
	cairo_stroke(cr);
}

/* The data layers: grid, band, groups, series, bars, references, notes
 * (those of the current layer: chart_model.h). */
static void draw_data(struct chart *c, cairo_t *cr)
{
	int base = chart_layer_base(c);
	if (chart_layer_xaxis(c) && c->kind == CHART_XY)
		chart_draw_x_axis(c, cr);
	if (base) {
		draw_band_span(c, cr);
		draw_value_axis(c, cr);
	}
	if (base && c->kind != CHART_XY)
		chart_draw_groups(c, cr);
	cairo_save(cr);
	for (size_t i = 0; i < c->ns; i++)
		if (c->s[i].style & CS_BAND && chart_layer_series(c, i))
			chart_draw_band(c, cr, &c->s[i]);
	for (size_t i = 0; i < c->ns; i++)
		if (chart_layer_series(c, i))
			chart_draw_series(c, cr, &c->s[i]);
	cairo_restore(cr);
	if (c->kind != CHART_XY)
		chart_draw_bars(c, cr);
	if (base) {
		draw_refs(c, cr);
		draw_notes(c, cr);
	}
}

/* Axes, layout and the legend's place, then every layer. */
static int draw_plot(struct chart *c, cairo_t *cr, double w, double h)
{
	if (c->frame_kept && !chart_layer_base(c) && !chart_layer_xaxis(c)) {
		draw_data(c, cr);
		return 0;
	}
	chart_value_axis(c);
	chart_x_axis(c);
	chart_layout(c, cr, w, h, 0);
	struct chart_legend L = chart_legend_size(c, cr, c->f.y1 - c->f.y0);
	c->f.legend_x0 = c->f.legend_x1 = c->f.legend_y0 = c->f.legend_y1 = 0;
	if (L.n && chart_place_legend(c, cr, &L, w, h) < 0)
		return -1;
	draw_data(c, cr);
	if (!chart_layer_base(c))
		return 0;
	draw_frame(c, cr);
	draw_titles(c, cr, w, h);
	if (L.n)
		chart_draw_legend(c, cr, &L);
	return 0;
}

int chart_draw(struct chart *c, cairo_t *cr, double w, double h)
{
	if (chart_failed(c))
		return -1;
	cairo_save(cr);
	if (chart_layer_xaxis(c)) { /* the layers after it lie over it */
		cairo_rectangle(cr, 0, 0, w, h);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_fill(cr);
	}
	int rc;
	if (c->kind == CHART_ICICLE) {
		rc = chart_draw_icicle(c, cr, w, h);
		if (rc == 0)
			draw_titles(c, cr, w, h);
	} else
		rc = draw_plot(c, cr, w, h);
	cairo_restore(cr);
	return rc;
}
