/* chart_scale.h — scales and ticks, private to the engine: the value
 * axis range (linear with nice 1-2-5 ticks, or log2), the x axis (XY:
 * linear or log2; bars: one unit per group), tick labels, and the
 * mapping from data to drawing coordinates. chart_nice_ticks is public
 * (chart.h). */
#ifndef AMD_CHART_SCALE_H
#define AMD_CHART_SCALE_H

#include <math.h>
#include <stddef.h>

#include "chart_model.h"
#include "num.h"

/* Fixes both axes' data ranges and ticks (c->f, c->vticks, c->xticks). */
void chart_value_axis(struct chart *c);
void chart_x_axis(struct chart *c);

/* A tick label: step 0 means a log axis (powers of two). */
void chart_fmt_tick(char *buf, size_t n, double v, double step, const char *suffix);

/* Data to drawing units: x along the plot, y up the plot, and a value
 * along the value axis (y for XY and BARS, x for HBARS). */
double chart_map_x(const struct chart *c, double x);
double chart_map_y(const struct chart *c, double y);
double chart_map_v(const struct chart *c, double v);

#endif
