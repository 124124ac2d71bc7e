/* chart_icicle.c — the icicle (flame graph from the top): cells from
 * the left edge of their parent, labels clipped to their cell (see
 * chart_icicle.h). */
#include "chart_icicle.h"

#include <math.h>
#include <stdlib.h>

#include "chart_layout.h"
#include "chart_style.h"

#define ICICLE_ROW 15.0

static void icicle_label(cairo_t *cr, const struct cell *cl, double x, double y, double w,
			 double rowh)
{
	if (!cl->label || w < chart_text_width(cr, "abc") + 4)
		return;
	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, rowh);
	cairo_clip(cr);
	double ink[3];
	chart_text_color_on(cl->color, ink); /* WCAG AA against the cell */
	cairo_set_source_rgb(cr, ink[0], ink[1], ink[2]);
	chart_text(cr, x + 2, y + rowh / 2, cl->label, 0, 0.5);
	cairo_restore(cr);
}

/* Cell i at (x, y), wd wide: its colour, a thin white line parting it
 * from the row above and, unless it starts its parent (at left_edge),
 * from its left neighbour, inside the cell, so the right edge stays
 * where the value puts it. */
static void draw_cell(cairo_t *cr, const struct cell *cl, double x, double y, double wd,
		      double rowh, double left_edge)
{
	cairo_rectangle(cr, x, y, wd, rowh);
	chart_set_color(cr, cl->color, 1);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, x, y, wd, fmin(0.6, rowh / 4));
	if (x > left_edge + 0.01)
		cairo_rectangle(cr, x, y, fmin(0.6, wd / 4), rowh);
	cairo_fill(cr);
	icicle_label(cr, cl, x, y, wd, rowh);
}

/* Cells from the left edge of their parent (roots: of the plot), one
 * row per depth. */
static int draw_cells(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	double sum = 0;
	int maxd = 0;
	for (size_t i = 0; i < c->ncells; i++) {
		if (c->cells[i].parent < 0)
			sum += c->cells[i].value;
		if (c->cells[i].depth > maxd)
			maxd = c->cells[i].depth;
	}
	if (!(sum > 0))
		return 0;
	/* next[i]: where cell i's next child goes; left[i]: cell i's left edge */
	double *next = calloc(2 * c->ncells + 1, sizeof *next);
	if (!next)
		return chart_fail(c);
	double *left = next + c->ncells;
	double rowh = fmin(ICICLE_ROW, (f->y1 - f->y0) / (maxd + 1)), k = (f->x1 - f->x0) / sum;
	double root_x = f->x0;
	chart_font(cr, FS_TICK, 0);
	for (size_t i = 0; i < c->ncells; i++) {
		const struct cell *cl = &c->cells[i];
		double *cursor = cl->parent < 0 ? &root_x : &next[cl->parent];
		double x = *cursor, wd = cl->value * k, y = f->y0 + cl->depth * rowh;
		*cursor += wd;
		next[i] = left[i] = x;
		draw_cell(cr, cl, x, y, wd, rowh, cl->parent < 0 ? f->x0 : left[cl->parent]);
	}
	free(next);
	return 0;
}

int chart_draw_icicle(struct chart *c, cairo_t *cr, double w, double h)
{
	chart_layout(c, cr, w, h, 0);
	c->f.x0 = PAD;
	c->f.x1 = w - PAD;
	c->f.xmin = c->f.ymin = 0;
	c->f.xmax = c->f.ymax = 0;
	for (size_t i = 0; i < c->ncells; i++)
		if (c->cells[i].parent < 0)
			c->f.xmax += c->cells[i].value;
	return draw_cells(c, cr);
}
