/* chart_layout.h — layout and legend, private to the engine: the plot
 * rectangle left by titles, tick labels and axis labels, the legend's
 * size, its place inside the plot where it hides no data (tested
 * against the drawn shapes) or else beside it, and its drawing. */
#ifndef AMD_CHART_LAYOUT_H
#define AMD_CHART_LAYOUT_H

#include <cairo.h>

#include "chart_model.h"

struct chart_legend {
	size_t n;
	double w, h, row;
	int cols;
};

/* The legend's entries and size (n 0: no legend); room: the height it
 * may take (the plot's). */
struct chart_legend chart_legend_size(const struct chart *c, cairo_t *cr, double room);
/* Fixes the plot rectangle (c->f.x0..y1) in a w × h drawing, leaving
 * legend_w (0: none) on the right. */
void chart_layout(struct chart *c, cairo_t *cr, double w, double h, double legend_w);
/* Places the legend inside the plot where it hides nothing, else on the
 * right of a narrower plot; sets c->f.legend_*. -1 when out of memory
 * (the chart is marked failed). */
int chart_place_legend(struct chart *c, cairo_t *cr, const struct chart_legend *L, double w,
		       double h);
void chart_draw_legend(struct chart *c, cairo_t *cr, const struct chart_legend *L);

#endif
