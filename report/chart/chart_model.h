/* chart_model.h — what a chart is, private to the engine's sections:
 * struct chart (its series, bar groups, icicle cells, reference lines
 * and the frame chart_draw computes) and the sticky failure flag that
 * out of memory sets (chart_fail). chart.h declares the functions that
 * fill it. */
#ifndef AMD_CHART_MODEL_H
#define AMD_CHART_MODEL_H

#include <stddef.h>

#include "chart.h"

struct xy_series {
	char *name;
	int color;
	unsigned style;
	enum chart_marker marker;
	size_t n;
	double *x, *y, *lo, *hi;
	char **info; /* NULL, or n texts: what is behind each point (chart_point_info) */
};

struct bar_series {
	char *name;
	int color, hatched;
	double *v, *lo, *hi; /* ngroups each, sized when added */
	size_t ngroups;
};

struct chart_note_at {
	double x, y;
	char *text;
};

struct bar_group {
	char *label, *super;
};

struct chart_refline {
	double v;
	char *label;
};

struct rect {
	double x0, y0, x1, y1;
};

struct cell {
	long parent;
	int depth, color;
	double value;
	char *label;
};

struct chart {
	enum chart_kind kind;
	char *title, *subtitle, *xlabel, *ylabel;
	enum chart_scale xscale, yscale;
	double ylo, yhi;
	int y_zero, stacked;
	char ysuffix[16];
	char *value_fmt;
	struct xy_series *s;
	size_t ns, cs;
	struct bar_series *b;
	size_t nb, cb;
	struct bar_group *g;
	size_t ng, cg;
	struct chart_note_at *notes;
	size_t nnotes, cnotes;
	struct chart_refline *refs;
	size_t nrefs, crefs;
	int has_base, overlap;   /* bars start at bar_base; series share a slot */
	double bar_base;
	double band_lo, band_hi; /* a shaded span of the value axis (NAN: none) */
	struct cell *cells;      /* icicle */
	size_t ncells, ccells;
	int failed;              /* out of memory while built or drawn */
	/* computed by chart_draw */
	struct chart_frame f;
	double xticks[64], vticks[64];
	size_t nxticks, nvticks;
	double vstep, xstep;
	struct rect *obst; /* data shapes, for legend placement */
	size_t nobst, cobst;
	/* what chart_draw draws (chart_svg.c draws a chart in layers):
	 * LAYER_ALL, LAYER_XAXIS (an XY chart's background and x axis: its
	 * grid lines and tick labels, which a page redraws when it zooms),
	 * LAYER_BASE (all but the series and an XY chart's x axis), or
	 * LAYER_SERIES(k) */
	int layer;
	/* 1 while chart_svg.c draws the series layers after the base one:
	 * they keep the frame above (axes, plot, legend place) that the
	 * base layer computed for the same size instead of computing it
	 * again per series (which, with its legend measured and its
	 * obstacles collected, took time in the square of the series) */
	int frame_kept;
	struct rect *legend_at; /* NULL, or where each series' legend entry went */
};

#define LAYER_ALL 0
#define LAYER_BASE 1
#define LAYER_XAXIS (-1)
#define LAYER_SERIES(k) (2 + (int)(k))

/* 1 when the current layer draws what is not a series (axes, text, legend). */
static inline int chart_layer_base(const struct chart *c)
{
	return c->layer == LAYER_ALL || c->layer == LAYER_BASE;
}

/* 1 when the current layer paints the background and an XY chart's x
 * axis (in layers, an XY chart's come before the base layer). */
static inline int chart_layer_xaxis(const struct chart *c)
{
	return c->layer == LAYER_ALL || c->layer == LAYER_XAXIS ||
	       (c->layer == LAYER_BASE && c->kind != CHART_XY);
}

/* 1 when the current layer draws series k (XY series or bar series). */
static inline int chart_layer_series(const struct chart *c, size_t k)
{
	return c->layer == LAYER_ALL || c->layer == LAYER_SERIES(k);
}

#endif
