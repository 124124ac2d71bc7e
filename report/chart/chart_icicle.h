/* chart_icicle.h — drawing icicle charts (CHART_ICICLE), private to the
 * engine: nested cells one row per depth, width ∝ value. */
#ifndef AMD_CHART_ICICLE_H
#define AMD_CHART_ICICLE_H

#include <cairo.h>

#include "chart_model.h"

/* The plot area and cells (no axes) in a w × h drawing; -1 when out of
 * memory (the chart is marked failed). */
int chart_draw_icicle(struct chart *c, cairo_t *cr, double w, double h);

#endif
