/* chart_bars.h — drawing bar charts, private to the engine: where each
 * bar lies (grouped, stacked, overlapping, from a base), hatching,
 * whiskers, value labels and stack totals, and the group labels along
 * the category axis with their merged second row. */
#ifndef AMD_CHART_BARS_H
#define AMD_CHART_BARS_H

#include <cairo.h>

#include "chart_model.h"

/* The rectangle of bar i in group g, or 0 when it has no value. */
int chart_bar_rect(const struct chart *c, size_t g, size_t i, struct rect *r);
/* A hatched rectangle, grey (CHART_GREY: the "other" share) or in the
 * colour of a series (a gain below 0: report/explain_page.c); also its
 * legend swatch. */
void chart_hatch(cairo_t *cr, const struct rect *r, int color);
/* 1 when some group has a second-row label. */
int chart_has_super(const struct chart *c);

void chart_draw_bars(struct chart *c, cairo_t *cr);
void chart_draw_groups(struct chart *c, cairo_t *cr);

#endif
