/* chart_xy.h — drawing XY charts, private to the engine: markers, line
 * styles, interval bands, error bars, jittered per-run strips and the
 * x axis with its ticks. */
#ifndef AMD_CHART_XY_H
#define AMD_CHART_XY_H

#include <cairo.h>

#include "chart_model.h"

/* The path of marker m of radius r at (x, y) (filled by the caller). */
void chart_marker(cairo_t *cr, enum chart_marker m, double x, double y, double r);
/* Colour, width, dash and cap of series s's line. */
void chart_line_style(cairo_t *cr, const struct xy_series *s);
/* Horizontal offset of point k of s among the points sharing its x
 * (CS_JITTER), in points; 0 otherwise. */
double chart_jitter(const struct xy_series *s, size_t k);

void chart_draw_x_axis(struct chart *c, cairo_t *cr);
void chart_draw_band(struct chart *c, cairo_t *cr, const struct xy_series *s);
void chart_draw_series(struct chart *c, cairo_t *cr, const struct xy_series *s);

#endif
