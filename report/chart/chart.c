/* chart.c — the chart engine (see chart.h): ranges and nice ticks,
 * layout, legend placement by testing candidate corners against the
 * drawn data, and the drawing of series, bars and axes. Every output
 * format goes through chart_draw. */
#include "chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#define PAD 8.0
#define FS_TITLE 11.5
#define FS_SUB 8.5
#define FS_LABEL 9.5
#define FS_TICK 8.5
#define FS_LEGEND 8.5
#define FS_VALUE 7.5

struct xy_series {
	char *name;
	int color;
	unsigned style;
	enum chart_marker marker;
	size_t n;
	double *x, *y, *lo, *hi;
};

struct bar_series {
	char *name;
	int color, hatched;
	double *v, *lo, *hi; /* ngroups each, sized when added */
	size_t ngroups;
};

struct note {
	double x, y;
	char *text;
};

struct group {
	char *label, *super;
};

struct ref {
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
	size_t ns;
	struct bar_series *b;
	size_t nb;
	struct group *g;
	size_t ng;
	struct note *notes;
	size_t nnotes;
	struct ref *refs;
	size_t nrefs;
	int has_base, overlap;   /* bars start at bar_base; series share a slot */
	double bar_base;
	double band_lo, band_hi; /* a shaded span of the value axis (NAN: none) */
	struct cell *cells;      /* icicle */
	size_t ncells;
	/* computed by chart_draw */
	struct chart_frame f;
	double xticks[64], vticks[64];
	size_t nxticks, nvticks;
	double vstep, xstep;
	struct rect *obst; /* data shapes, for legend placement */
	size_t nobst, cobst;
};

static const double palette[CHART_PALETTE_SIZE][3] = {
	{0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0}, /* blue */
	{0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0}, /* orange */
	{0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0}, /* bluish green */
	{0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0}, /* vermillion */
	{0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0}, /* sky blue */
	{0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0}, /* reddish purple */
	{0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0}, /* yellow */
};

void chart_color(int i, double rgb[3])
{
	if (i < 0) {
		rgb[0] = rgb[1] = rgb[2] = 0.45;
		return;
	}
	memcpy(rgb, palette[i % CHART_PALETTE_SIZE], sizeof palette[0]);
}

static void set_color(cairo_t *cr, int i, double alpha)
{
	double rgb[3];
	chart_color(i, rgb);
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static double *dup_arr(const double *a, size_t n)
{
	if (!a)
		return NULL;
	double *d = malloc((n ? n : 1) * sizeof *d);
	if (d && n)
		memcpy(d, a, n * sizeof *d);
	return d;
}

struct chart *chart_new(enum chart_kind kind, const char *title, const char *xlabel,
			const char *ylabel)
{
	struct chart *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->kind = kind;
	c->title = dup_or_null(title);
	c->xlabel = dup_or_null(xlabel);
	c->ylabel = dup_or_null(ylabel);
	c->ylo = c->yhi = NAN;
	c->band_lo = c->band_hi = NAN;
	c->y_zero = kind != CHART_XY;
	return c;
}

void chart_free(struct chart *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->ns; i++) {
		free(c->s[i].name);
		free(c->s[i].x);
		free(c->s[i].y);
		free(c->s[i].lo);
		free(c->s[i].hi);
	}
	for (size_t i = 0; i < c->nb; i++) {
		free(c->b[i].name);
		free(c->b[i].v);
		free(c->b[i].lo);
		free(c->b[i].hi);
	}
	for (size_t i = 0; i < c->ng; i++) {
		free(c->g[i].label);
		free(c->g[i].super);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i].text);
	for (size_t i = 0; i < c->nrefs; i++)
		free(c->refs[i].label);
	for (size_t i = 0; i < c->ncells; i++)
		free(c->cells[i].label);
	free(c->cells);
	free(c->s);
	free(c->b);
	free(c->g);
	free(c->notes);
	free(c->refs);
	free(c->obst);
	free(c->title);
	free(c->subtitle);
	free(c->xlabel);
	free(c->ylabel);
	free(c->value_fmt);
	free(c);
}

long chart_cell(struct chart *c, long parent, double value, const char *label, int color)
{
	if (parent >= (long)c->ncells || !(value >= 0))
		return -1;
	struct cell *v = realloc(c->cells, (c->ncells + 1) * sizeof *v);
	if (!v)
		return -1;
	c->cells = v;
	v[c->ncells] = (struct cell){parent, parent < 0 ? 0 : v[parent].depth + 1, color, value,
				     dup_or_null(label)};
	return (long)c->ncells++;
}

void chart_subtitle(struct chart *c, const char *fmt, ...)
{
	va_list ap;
	char buf[512];
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(c->subtitle);
	c->subtitle = strdup(buf);
}

void chart_xscale(struct chart *c, enum chart_scale s)
{
	c->xscale = s;
}

void chart_yscale(struct chart *c, enum chart_scale s)
{
	c->yscale = c->kind == CHART_XY ? s : CHART_LINEAR;
}

void chart_yrange(struct chart *c, double lo, double hi, int y_zero)
{
	c->ylo = lo;
	c->yhi = hi;
	c->y_zero = y_zero || c->kind != CHART_XY;
}

void chart_ysuffix(struct chart *c, const char *suffix)
{
	snprintf(c->ysuffix, sizeof c->ysuffix, "%s", suffix ? suffix : "");
}

void chart_series(struct chart *c, const char *name, int color, unsigned style,
		  enum chart_marker marker, size_t n, const double *x, const double *y,
		  const double *lo, const double *hi)
{
	struct xy_series *s = realloc(c->s, (c->ns + 1) * sizeof *s);
	if (!s)
		return;
	c->s = s;
	s = &c->s[c->ns++];
	s->name = dup_or_null(name);
	s->color = color;
	s->style = style;
	s->marker = marker;
	s->n = n;
	s->x = dup_arr(x, n);
	s->y = dup_arr(y, n);
	s->lo = dup_arr(lo, n);
	s->hi = dup_arr(hi, n);
}

void chart_note(struct chart *c, double x, double y, const char *text)
{
	struct note *nt = realloc(c->notes, (c->nnotes + 1) * sizeof *nt);
	if (!nt)
		return;
	c->notes = nt;
	c->notes[c->nnotes++] = (struct note){x, y, strdup(text)};
}

void chart_group(struct chart *c, const char *label, const char *super)
{
	struct group *g = realloc(c->g, (c->ng + 1) * sizeof *g);
	if (!g)
		return;
	c->g = g;
	c->g[c->ng++] = (struct group){dup_or_null(label), dup_or_null(super)};
}

void chart_bars(struct chart *c, const char *name, int color, int hatched,
		const double *v, const double *lo, const double *hi)
{
	struct bar_series *b = realloc(c->b, (c->nb + 1) * sizeof *b);
	if (!b)
		return;
	c->b = b;
	b = &c->b[c->nb++];
	b->name = dup_or_null(name);
	b->color = color;
	b->hatched = hatched;
	b->ngroups = c->ng;
	b->v = dup_arr(v, c->ng);
	b->lo = dup_arr(lo, c->ng);
	b->hi = dup_arr(hi, c->ng);
}

void chart_stacked(struct chart *c, int stacked)
{
	c->stacked = stacked;
}

void chart_value_labels(struct chart *c, const char *fmt)
{
	free(c->value_fmt);
	c->value_fmt = dup_or_null(fmt);
}

void chart_ref(struct chart *c, double value, const char *label)
{
	struct ref *r = realloc(c->refs, (c->nrefs + 1) * sizeof *r);
	if (!r)
		return;
	c->refs = r;
	c->refs[c->nrefs++] = (struct ref){value, dup_or_null(label)};
}

void chart_bar_base(struct chart *c, double base)
{
	c->has_base = 1;
	c->bar_base = base;
}

void chart_bars_overlap(struct chart *c, int overlap)
{
	c->overlap = overlap;
}

void chart_band(struct chart *c, double lo, double hi)
{
	c->band_lo = lo;
	c->band_hi = hi;
}

/* ---- ticks ---- */

static double nice_step(double range, int target)
{
	if (!(range > 0))
		return 1;
	double raw = range / target;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	double nice = f <= 1.0001 ? 1 : f <= 2.0001 ? 2 : f <= 5.0001 ? 5 : 10;
	return nice * mag;
}

size_t chart_nice_ticks(double lo, double hi, int target, double *t, size_t max,
			double *step)
{
	double st = nice_step(hi - lo, target);
	double first = ceil(lo / st - 1e-9) * st;
	size_t n = 0;
	for (double v = first; v <= hi + st * 1e-9 && n < max; v = first + st * (double)n) {
		t[n++] = fabs(v) < st * 1e-9 ? 0 : v;
	}
	if (step)
		*step = st;
	return n;
}

static int decimals_for(double step)
{
	if (!(step > 0) || step >= 1)
		return 0;
	int d = (int)ceil(-log10(step) - 1e-9);
	return d > 6 ? 6 : d;
}

static void fmt_tick(char *buf, size_t n, double v, double step, const char *suffix)
{
	if (step == 0) /* log axis: powers of two */
		snprintf(buf, n, "%g%s", v, suffix);
	else if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-4))
		snprintf(buf, n, "%.3g%s", v, suffix);
	else
		snprintf(buf, n, "%.*f%s", decimals_for(step), v, suffix);
}

/* ---- ranges ---- */

static int is_num(double v)
{
	return !isnan(v) && !isinf(v);
}

struct range {
	double lo, hi;
	int pos_only; /* log axis: only positive values count */
};

static void widen(struct range *r, double v)
{
	if (!is_num(v) || (r->pos_only && v <= 0))
		return;
	if (v < r->lo)
		r->lo = v;
	if (v > r->hi)
		r->hi = v;
}

static struct range xy_xrange(const struct chart *c)
{
	struct range r = {INFINITY, -INFINITY, c->xscale == CHART_LOG2};
	for (size_t i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++)
			if (c->xscale != CHART_LOG2 || c->s[i].x[k] > 0)
				widen(&r, c->s[i].x[k]);
	if (!(r.lo <= r.hi))
		r = (struct range){1, 2, 0};
	return r;
}

static struct range value_range(const struct chart *c)
{
	struct range r = {INFINITY, -INFINITY, c->yscale == CHART_LOG2};
	if (c->kind == CHART_XY) {
		for (size_t i = 0; i < c->ns; i++)
			for (size_t k = 0; k < c->s[i].n; k++) {
				if (!is_num(c->s[i].y[k]))
					continue;
				widen(&r, c->s[i].y[k]);
				if (c->s[i].lo)
					widen(&r, c->s[i].lo[k]);
				if (c->s[i].hi)
					widen(&r, c->s[i].hi[k]);
			}
	} else {
		for (size_t g = 0; g < c->ng; g++) {
			double sum = 0;
			for (size_t i = 0; i < c->nb; i++) {
				double v = c->b[i].v[g];
				if (!is_num(v))
					continue;
				sum += v;
				widen(&r, c->stacked ? sum : v);
				if (!c->stacked && c->b[i].hi)
					widen(&r, c->b[i].hi[g]);
				if (!c->stacked && c->b[i].lo)
					widen(&r, c->b[i].lo[g]);
			}
		}
	}
	for (size_t i = 0; i < c->nrefs; i++)
		widen(&r, c->refs[i].v);
	if (is_num(c->band_lo) && is_num(c->band_hi)) {
		widen(&r, c->band_lo);
		widen(&r, c->band_hi);
	}
	if (c->has_base && c->kind != CHART_XY)
		widen(&r, c->bar_base);
	else if (c->y_zero && c->yscale != CHART_LOG2)
		widen(&r, 0);
	if (is_num(c->ylo))
		r.lo = c->ylo;
	if (is_num(c->yhi))
		r.hi = c->yhi;
	if (!(r.lo <= r.hi))
		r = (struct range){0, 1, 0};
	if (r.hi - r.lo < 1e-12) {
		double d = fabs(r.hi) > 0 ? fabs(r.hi) * 0.1 : 1;
		r.lo = c->y_zero && r.lo >= 0 ? 0 : r.lo - d;
		r.hi += d;
	}
	return r;
}

/* Fixes the value axis ends to tick multiples (keeping fixed ends). */
static void log_value_axis(struct chart *c)
{
	struct range r = value_range(c);
	if (!(r.lo > 0))
		r = (struct range){1, 2, 1};
	double lo = log2(r.lo) - 0.15, hi = log2(r.hi) + 0.15;
	if (floor(hi) - ceil(lo) < 1) { /* at least two powers of two on the axis */
		lo = fmin(lo, floor(lo));
		hi = fmax(hi, ceil(hi));
	}
	c->nvticks = 0;
	for (double e = ceil(lo - 1e-9); e <= hi + 1e-9 && c->nvticks < 64; e++)
		c->vticks[c->nvticks++] = pow(2, e);
	c->vstep = 0;
	c->f.ymin = pow(2, lo);
	c->f.ymax = pow(2, hi);
}

static void value_axis(struct chart *c)
{
	c->f.yscale = c->yscale;
	if (c->yscale == CHART_LOG2) {
		log_value_axis(c);
		return;
	}
	struct range r = value_range(c);
	double st = nice_step(r.hi - r.lo, 5);
	double lo = is_num(c->ylo) ? c->ylo : floor(r.lo / st + 1e-9) * st;
	double hi = is_num(c->yhi) ? c->yhi : ceil(r.hi / st - 1e-9) * st;
	if (!is_num(c->yhi) && hi - r.hi < 0.03 * (hi - lo) && c->kind != CHART_XY)
		hi += st; /* room for value labels above the tallest bar */
	c->nvticks = chart_nice_ticks(lo, hi, 5, c->vticks, 64, &c->vstep);
	c->f.ymin = lo;
	c->f.ymax = hi;
}

static void x_axis(struct chart *c)
{
	c->f.xscale = c->xscale;
	if (c->kind != CHART_XY) {
		c->f.xmin = 0;
		c->f.xmax = (double)(c->ng ? c->ng : 1);
		return;
	}
	struct range r = xy_xrange(c);
	if (c->xscale == CHART_LOG2) {
		double lo = floor(log2(r.lo) + 1e-9), hi = ceil(log2(r.hi) - 1e-9);
		if (hi <= lo)
			hi = lo + 1;
		int every = (int)ceil((hi - lo + 1) / 9.0);
		c->nxticks = 0;
		for (double e = lo; e <= hi && c->nxticks < 64; e += every)
			c->xticks[c->nxticks++] = pow(2, e);
		c->f.xmin = pow(2, log2(r.lo) - 0.3);
		c->f.xmax = pow(2, log2(r.hi) + 0.3);
		if (r.hi <= r.lo) {
			c->f.xmin = r.lo / 2;
			c->f.xmax = r.lo * 2;
		}
	} else {
		double pad = (r.hi - r.lo) * 0.05;
		if (pad <= 0)
			pad = fabs(r.lo) > 0 ? fabs(r.lo) * 0.5 : 1;
		c->nxticks = chart_nice_ticks(r.lo - pad, r.hi + pad, 6, c->xticks, 64, &c->xstep);
		c->f.xmin = r.lo - pad;
		c->f.xmax = r.hi + pad;
	}
}

/* ---- mapping ---- */

static double map_x(const struct chart *c, double x)
{
	const struct chart_frame *f = &c->f;
	double t = c->xscale == CHART_LOG2 && c->kind == CHART_XY
			   ? (log2(x) - log2(f->xmin)) / (log2(f->xmax) - log2(f->xmin))
			   : (x - f->xmin) / (f->xmax - f->xmin);
	return f->x0 + t * (f->x1 - f->x0);
}

static double map_y(const struct chart *c, double y)
{
	const struct chart_frame *f = &c->f;
	if (c->yscale == CHART_LOG2)
		return f->y1 - (log2(y) - log2(f->ymin)) / (log2(f->ymax) - log2(f->ymin)) *
				       (f->y1 - f->y0);
	return f->y1 - (y - f->ymin) / (f->ymax - f->ymin) * (f->y1 - f->y0);
}

/* Value v along the value axis, in drawing units (y for XY/BARS, x for HBARS). */
static double map_v(const struct chart *c, double v)
{
	if (c->kind != CHART_HBARS)
		return map_y(c, v);
	const struct chart_frame *f = &c->f;
	return f->x0 + (v - f->ymin) / (f->ymax - f->ymin) * (f->x1 - f->x0);
}

/* ---- text ---- */

void chart_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double chart_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

/* Draws s with its anchor at (x, y): ha 0 left, .5 centre, 1 right; va 0
 * top, .5 middle, 1 bottom of the font's cap height. */
static void text(cairo_t *cr, double x, double y, const char *s, double ha, double va)
{
	cairo_font_extents_t fe;
	cairo_font_extents(cr, &fe);
	double cap = fe.ascent * 0.78;
	cairo_move_to(cr, x - chart_text_width(cr, s) * ha, y + cap * (1 - va));
	cairo_show_text(cr, s);
}

/* ---- layout ---- */

struct legend {
	size_t n;
	double w, h, row;
	int cols;
};

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

static struct legend legend_size(const struct chart *c, cairo_t *cr)
{
	struct legend L = {0};
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
	L.cols = L.n > 6 ? 2 : 1;
	size_t rows = (L.n + (size_t)L.cols - 1) / (size_t)L.cols;
	L.w = L.cols * (maxw + 26) + 8;
	L.h = (double)rows * L.row + 8;
	return L;
}

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
		fmt_tick(buf, sizeof buf, c->vticks[i], c->vstep, c->ysuffix);
		double lw = chart_text_width(cr, buf);
		if (lw > w)
			w = lw;
	}
	return w;
}

static int has_super(const struct chart *c)
{
	for (size_t g = 0; g < c->ng; g++)
		if (c->g[g].super)
			return 1;
	return 0;
}

static void layout(struct chart *c, cairo_t *cr, double w, double h, double legend_w)
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
	if (c->kind == CHART_BARS && has_super(c))
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

/* ---- obstacles (for the legend) ---- */

static void obstacle(struct chart *c, double x0, double y0, double x1, double y1)
{
	if (c->nobst == c->cobst) {
		size_t cap = c->cobst ? 2 * c->cobst : 64;
		struct rect *r = realloc(c->obst, cap * sizeof *r);
		if (!r)
			return;
		c->obst = r;
		c->cobst = cap;
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

/* The rectangle of bar i in group g, or 0 when it has no value. */
static int bar_rect(const struct chart *c, size_t g, size_t i, struct rect *r)
{
	double v = c->b[i].v[g];
	if (!is_num(v))
		return 0;
	double base = c->has_base && !c->stacked ? c->bar_base : 0;
	if (c->stacked)
		for (size_t k = 0; k < i; k++)
			if (is_num(c->b[k].v[g]))
				base += c->b[k].v[g];
	double a, b;
	bar_slot(c, g, i, &a, &b);
	double top = c->has_base && !c->stacked ? v : base + v; /* from the base to v */
	double p0 = map_v(c, base), p1 = map_v(c, top);
	if (c->kind == CHART_HBARS)
		*r = (struct rect){fmin(p0, p1), a, fmax(p0, p1), b};
	else
		*r = (struct rect){a, fmin(p0, p1), b, fmax(p0, p1)};
	return 1;
}

static double jitter(const struct xy_series *s, size_t k)
{
	if (!(s->style & CS_JITTER))
		return 0;
	size_t m = 0, idx = 0;
	for (size_t j = 0; j < s->n; j++)
		if (s->x[j] == s->x[k]) {
			if (j < k)
				idx++;
			m++;
		}
	double step = m > 7 ? 24.0 / (double)(m - 1) : 4.0;
	return ((double)idx - (double)(m - 1) / 2) * step;
}

static void collect_obstacles(struct chart *c)
{
	c->nobst = 0;
	if (c->kind == CHART_XY) {
		for (size_t i = 0; i < c->ns; i++) {
			const struct xy_series *s = &c->s[i];
			for (size_t k = 0; k < s->n; k++) {
				if (!is_num(s->y[k]))
					continue;
				double x = map_x(c, s->x[k]) + jitter(s, k), y = map_y(c, s->y[k]);
				obstacle(c, x - 4, y - 4, x + 4, y + 4);
				if (s->lo && s->hi && is_num(s->lo[k]) && is_num(s->hi[k]))
					obstacle(c, x - 4, map_y(c, s->lo[k]), x + 4, map_y(c, s->hi[k]));
				if (k + 1 < s->n && is_num(s->y[k + 1]) && (s->style & (CS_LINE | CS_BAND)))
					segment_obstacles(c, x, y, map_x(c, s->x[k + 1]), map_y(c, s->y[k + 1]));
				if ((s->style & CS_BAND) && k + 1 < s->n && s->lo && s->hi) {
					segment_obstacles(c, x, map_y(c, s->lo[k]), map_x(c, s->x[k + 1]),
							  map_y(c, s->lo[k + 1]));
					segment_obstacles(c, x, map_y(c, s->hi[k]), map_x(c, s->x[k + 1]),
							  map_y(c, s->hi[k + 1]));
				}
			}
		}
	} else {
		struct rect r;
		for (size_t g = 0; g < c->ng; g++)
			for (size_t i = 0; i < c->nb; i++)
				if (bar_rect(c, g, i, &r)) {
					obstacle(c, r.x0, r.y0 - (c->value_fmt ? FS_VALUE * 1.6 : 0), r.x1, r.y1);
					if (!c->stacked && c->b[i].hi && is_num(c->b[i].hi[g])) {
						double p = map_v(c, c->b[i].hi[g]);
						if (c->kind == CHART_HBARS)
							obstacle(c, r.x0, r.y0, p + 2, r.y1);
						else
							obstacle(c, r.x0, p - 2, r.x1, r.y1);
					}
				}
	}
	for (size_t i = 0; i < c->nnotes; i++) {
		double x = map_x(c, c->notes[i].x), y = map_y(c, c->notes[i].y);
		obstacle(c, x - 40, y - 10, x + 4, y + 4);
	}
	for (size_t i = 0; i < c->nrefs; i++) { /* the line's label sits at its right end */
		double p = map_v(c, c->refs[i].v);
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

/* Places the legend inside the plot where it hides nothing; returns 0
 * when no corner is free. */
static int place_legend_inside(struct chart *c, const struct legend *L)
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

/* ---- drawing ---- */

static void marker(cairo_t *cr, enum chart_marker m, double x, double y, double r)
{
	cairo_new_path(cr); /* no line from the last text or marker */
	switch (m) {
	case MARK_SQUARE:
		cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
		break;
	case MARK_TRIANGLE:
		cairo_move_to(cr, x, y - r * 1.1);
		cairo_line_to(cr, x + r, y + r * 0.7);
		cairo_line_to(cr, x - r, y + r * 0.7);
		cairo_close_path(cr);
		break;
	case MARK_DIAMOND:
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r * 1.2);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	case MARK_DASH:
		cairo_rectangle(cr, x - r * 2.2, y - 0.9, r * 4.4, 1.8);
		break;
	default:
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
	}
}

static void line_style(cairo_t *cr, const struct xy_series *s)
{
	cairo_set_line_cap(cr, s->style & CS_DOTTED ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
	if (s->style & CS_THIN) {
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		cairo_set_line_width(cr, 1.1);
	} else {
		set_color(cr, s->color, 1);
		cairo_set_line_width(cr, 1.7);
	}
	if (s->style & CS_DOTTED) {
		double d[] = {0.1, 3.2};
		cairo_set_dash(cr, d, 2, 0);
	} else if (s->style & CS_DASHED) {
		double d[] = {5, 3};
		cairo_set_dash(cr, d, 2, 0);
	} else
		cairo_set_dash(cr, NULL, 0, 0);
}

static void draw_band(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	if (!s->lo || !s->hi)
		return;
	size_t k = 0;
	while (k < s->n) { /* one polygon per run of finite intervals */
		while (k < s->n && !(is_num(s->lo[k]) && is_num(s->hi[k])))
			k++;
		size_t a = k;
		while (k < s->n && is_num(s->lo[k]) && is_num(s->hi[k]))
			k++;
		if (k - a < 2)
			continue;
		cairo_new_path(cr);
		for (size_t j = a; j < k; j++)
			cairo_line_to(cr, map_x(c, s->x[j]), map_y(c, s->hi[j]));
		for (size_t j = k; j-- > a;)
			cairo_line_to(cr, map_x(c, s->x[j]), map_y(c, s->lo[j]));
		cairo_close_path(cr);
		set_color(cr, s->color, 0.18);
		cairo_fill(cr);
	}
}

static void draw_series(struct chart *c, cairo_t *cr, const struct xy_series *s)
{
	if (s->style & CS_LINE) {
		line_style(cr, s);
		int pen = 0;
		for (size_t k = 0; k < s->n; k++) {
			if (!is_num(s->y[k])) {
				pen = 0;
				continue;
			}
			double x = map_x(c, s->x[k]), y = map_y(c, s->y[k]);
			if (pen)
				cairo_line_to(cr, x, y);
			else
				cairo_move_to(cr, x, y);
			pen = 1;
		}
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	if ((s->style & CS_ERRBARS) && s->lo && s->hi) {
		set_color(cr, s->color, 1);
		cairo_set_line_width(cr, 1.2);
		for (size_t k = 0; k < s->n; k++) {
			if (!is_num(s->lo[k]) || !is_num(s->hi[k]) || !is_num(s->y[k]))
				continue;
			double x = map_x(c, s->x[k]) + jitter(s, k);
			double a = map_y(c, s->lo[k]), b = map_y(c, s->hi[k]);
			cairo_move_to(cr, x, a);
			cairo_line_to(cr, x, b);
			cairo_move_to(cr, x - 3.5, a);
			cairo_line_to(cr, x + 3.5, a);
			cairo_move_to(cr, x - 3.5, b);
			cairo_line_to(cr, x + 3.5, b);
		}
		cairo_stroke(cr);
	}
	if (s->style & CS_POINTS) {
		int hollow = (s->style & CS_JITTER) != 0;
		for (size_t k = 0; k < s->n; k++) {
			if (!is_num(s->y[k]))
				continue;
			double x = map_x(c, s->x[k]) + jitter(s, k), y = map_y(c, s->y[k]);
			marker(cr, s->marker, x, y, hollow ? 2.6 : 3.3);
			if (hollow) {
				set_color(cr, s->color, 0.35);
				cairo_fill_preserve(cr);
				set_color(cr, s->color, 1);
				cairo_set_line_width(cr, 0.9);
				cairo_stroke(cr);
			} else {
				set_color(cr, s->color, 1);
				cairo_fill_preserve(cr);
				cairo_set_source_rgb(cr, 1, 1, 1);
				cairo_set_line_width(cr, 0.8);
				cairo_stroke(cr);
			}
		}
	}
}

static void hatch(cairo_t *cr, const struct rect *r)
{
	cairo_save(cr);
	cairo_rectangle(cr, r->x0, r->y0, r->x1 - r->x0, r->y1 - r->y0);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
	cairo_set_line_width(cr, 0.7);
	double h = r->y1 - r->y0;
	for (double x = r->x0 - h; x < r->x1; x += 5) {
		cairo_move_to(cr, x, r->y1);
		cairo_line_to(cr, x + h, r->y0);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
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
		if (c->b[i].hi && is_num(c->b[i].hi[g]))
			xe = fmax(xe, map_v(c, c->b[i].hi[g]) + 3);
		text(cr, xe, (r->y0 + r->y1) / 2, buf, 0, 0.5);
		return;
	}
	int inside = c->stacked && r->y1 - r->y0 > FS_VALUE * 1.8 && r->x1 - r->x0 > tw + 2;
	if (inside) {
		cairo_set_source_rgb(cr, 1, 1, 1);
		text(cr, (r->x0 + r->x1) / 2, (r->y0 + r->y1) / 2, buf, 0.5, 0.5);
	} else if (!c->stacked) {
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		double top = r->y0;
		if (c->b[i].hi && is_num(c->b[i].hi[g]))
			top = fmin(top, map_v(c, c->b[i].hi[g]));
		text(cr, (r->x0 + r->x1) / 2, top - 2.5, buf, 0.5, 1);
	}
}

/* Stacked bars: the total of the coloured segments above each stack. */
static void stack_totals(struct chart *c, cairo_t *cr)
{
	for (size_t g = 0; g < c->ng; g++) {
		double total = 0;
		int any = 0, hatched = 0;
		for (size_t i = 0; i < c->nb; i++) {
			hatched |= c->b[i].hatched;
			if (!c->b[i].hatched && is_num(c->b[i].v[g])) {
				total += c->b[i].v[g];
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
		text(cr, (a + b) / 2, map_v(c, total) - 2.5, buf, 0.5, 1);
	}
}

static void draw_bars(struct chart *c, cairo_t *cr)
{
	struct rect r;
	for (size_t g = 0; g < c->ng; g++)
		for (size_t i = 0; i < c->nb; i++) {
			if (!bar_rect(c, g, i, &r))
				continue;
			if (c->has_base && c->kind == CHART_HBARS && r.x1 - r.x0 < 2) {
				double m = (r.x0 + r.x1) / 2; /* no length: a 2 pt mark at the value */
				r.x0 = m - 1;
				r.x1 = m + 1;
			}
			if (c->b[i].hatched)
				hatch(cr, &r);
			else {
				cairo_rectangle(cr, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
				set_color(cr, c->b[i].color, 1);
				cairo_fill(cr);
			}
			if (!c->stacked && c->b[i].lo && c->b[i].hi && is_num(c->b[i].lo[g]) &&
			    is_num(c->b[i].hi[g])) {
				double a = map_v(c, c->b[i].lo[g]), b = map_v(c, c->b[i].hi[g]);
				double m = c->kind == CHART_HBARS ? (r.y0 + r.y1) / 2 : (r.x0 + r.x1) / 2;
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
			if (c->value_fmt && !c->b[i].hatched)
				bar_value_label(c, cr, g, i, &r);
		}
	if (c->stacked && c->value_fmt && c->kind == CHART_BARS)
		stack_totals(c, cr);
}

static void draw_value_axis(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	char buf[64];
	chart_font(cr, FS_TICK, 0);
	for (size_t i = 0; i < c->nvticks; i++) {
		double p = map_v(c, c->vticks[i]);
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
		fmt_tick(buf, sizeof buf, c->vticks[i], c->vstep, c->ysuffix);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		if (c->kind == CHART_HBARS)
			text(cr, p, f->y1 + 4, buf, 0.5, 0);
		else
			text(cr, f->x0 - 5, p, buf, 1, 0.5);
	}
}

static void draw_x_axis(struct chart *c, cairo_t *cr)
{
	const struct chart_frame *f = &c->f;
	char buf[64];
	chart_font(cr, FS_TICK, 0);
	for (size_t i = 0; i < c->nxticks; i++) {
		double x = map_x(c, c->xticks[i]);
		if (x < f->x0 - 0.5 || x > f->x1 + 0.5)
			continue;
		cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
		cairo_set_line_width(cr, 0.6);
		cairo_move_to(cr, x, f->y0);
		cairo_line_to(cr, x, f->y1);
		cairo_stroke(cr);
		if (c->xscale == CHART_LOG2)
			snprintf(buf, sizeof buf, "%g", c->xticks[i]);
		else
			fmt_tick(buf, sizeof buf, c->xticks[i], c->xstep, "");
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		text(cr, x, f->y1 + 4, buf, 0.5, 0);
	}
}

/* s shortened in the middle ("head…tail", cut on UTF-8 character
 * boundaries) to fit room points. */
static void fit_label(cairo_t *cr, const char *s, double room, char *buf, size_t n)
{
	snprintf(buf, n, "%s", s);
	size_t len = strlen(s);
	if (chart_text_width(cr, buf) <= room || n < 16)
		return;
	for (size_t keep = len; keep > 4; keep--) {
		size_t head = keep * 2 / 3, tail = keep - head;
		while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
			head--;
		size_t from = len - tail;
		while (from < len && ((unsigned char)s[from] & 0xC0) == 0x80)
			from++;
		if (head + 3 + (len - from) + 1 > n)
			continue;
		snprintf(buf, n, "%.*s…%s", (int)head, s, s + from);
		if (chart_text_width(cr, buf) <= room)
			return;
	}
}

static void draw_groups(struct chart *c, cairo_t *cr)
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
			fit_label(cr, c->g[g].label, f->x0 - PAD - 4, buf, sizeof buf);
			text(cr, f->x0 - 4, m, buf, 1, 0.5);
		} else
			text(cr, m, f->y1 + 4, c->g[g].label, 0.5, 0);
	}
	if (horiz || !has_super(c))
		return;
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
			text(cr, (x0 + x1) / 2, y + 3, c->g[a].super, 0.5, 0);
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

/* The shaded span of the value axis, under the data. */
static void draw_band_span(struct chart *c, cairo_t *cr)
{
	if (!is_num(c->band_lo) || !is_num(c->band_hi))
		return;
	const struct chart_frame *f = &c->f;
	double a = map_v(c, c->band_lo), b = map_v(c, c->band_hi);
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
		double p = map_v(c, c->refs[i].v);
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
				text(cr, p + 3, f->y0 + 2, c->refs[i].label, 0, 0);
			else
				text(cr, f->x1 - 2, p - 3, c->refs[i].label, 1, 1);
		}
	}
}

static void draw_notes(struct chart *c, cairo_t *cr)
{
	chart_font(cr, FS_VALUE + 0.5, 0);
	cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
	for (size_t i = 0; i < c->nnotes; i++)
		text(cr, map_x(c, c->notes[i].x) - 3, map_y(c, c->notes[i].y) - 3, c->notes[i].text,
		     1, 1);
}

static void legend_swatch(const struct chart *c, cairo_t *cr, size_t i, double x, double y)
{
	if (c->kind != CHART_XY) {
		struct rect r = {x, y - 4.5, x + 14, y + 4.5};
		if (c->b[i].hatched) {
			hatch(cr, &r);
			return;
		}
		cairo_rectangle(cr, r.x0, r.y0, 14, 9);
		set_color(cr, c->b[i].color, 1);
		cairo_fill(cr);
		return;
	}
	const struct xy_series *s = &c->s[i];
	if (s->style & CS_BAND && !(s->style & CS_LINE)) {
		cairo_rectangle(cr, x, y - 4, 16, 8);
		set_color(cr, s->color, 0.18);
		cairo_fill(cr);
	}
	if (s->style & CS_LINE) {
		line_style(cr, s);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + 16, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	if (s->style & CS_POINTS) {
		marker(cr, s->marker, x + 8, y, 3);
		set_color(cr, s->color, 1);
		cairo_fill(cr);
	}
}

static void draw_legend(struct chart *c, cairo_t *cr, const struct legend *L)
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
		chart_font(cr, FS_LEGEND, 0);
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		text(cr, x + 21, y, name, 0, 0.5);
		k++;
	}
}

static void draw_titles(struct chart *c, cairo_t *cr, double w, double h)
{
	const struct chart_frame *f = &c->f;
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	chart_font(cr, FS_TITLE, 1);
	char fit[1024]; /* titles wider than the chart lose their middle, not their end */
	if (c->title) {
		fit_label(cr, c->title, w - 2 * PAD, fit, sizeof fit);
		text(cr, PAD, PAD, fit, 0, 0);
	}
	if (c->subtitle) {
		chart_font(cr, FS_SUB, 0);
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		fit_label(cr, c->subtitle, w - 2 * PAD, fit, sizeof fit);
		text(cr, PAD, PAD + FS_TITLE * 1.3 + 2, fit, 0, 0);
	}
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	chart_font(cr, FS_LABEL, 0);
	/* HBARS: the value axis runs along the bottom; its rows need no label */
	const char *xl = c->kind == CHART_HBARS ? c->ylabel : c->xlabel;
	const char *yl = c->kind == CHART_HBARS ? NULL : c->ylabel;
	if (xl)
		text(cr, (f->x0 + f->x1) / 2, h - PAD, xl, 0.5, 1);
	if (yl) {
		cairo_save(cr);
		cairo_translate(cr, PAD, (f->y0 + f->y1) / 2);
		cairo_rotate(cr, -M_PI / 2);
		text(cr, 0, 0, yl, 0.5, 0);
		cairo_restore(cr);
	}
	(void)w;
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

/* ---- icicle ---- */

#define ICICLE_ROW 15.0

static void icicle_label(cairo_t *cr, const struct cell *cl, double x, double y, double w,
			 double rowh)
{
	if (!cl->label || w < chart_text_width(cr, "abc") + 4)
		return;
	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, rowh);
	cairo_clip(cr);
	double rgb[3];
	chart_color(cl->color, rgb);
	double lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
	if (lum < 0.5)
		cairo_set_source_rgb(cr, 1, 1, 1);
	else
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text(cr, x + 2, y + rowh / 2, cl->label, 0, 0.5);
	cairo_restore(cr);
}

/* Cells from the left edge of their parent (roots: of the plot), one
 * row per depth; a thin white line parts neighbours. */
static void draw_icicle(struct chart *c, cairo_t *cr)
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
	/* next[i]: where cell i's next child goes; left[i]: cell i's left edge */
	double *next = calloc(2 * c->ncells + 1, sizeof *next), *left = next + c->ncells;
	if (!next || !(sum > 0)) {
		free(next);
		return;
	}
	double rowh = fmin(ICICLE_ROW, (f->y1 - f->y0) / (maxd + 1)), k = (f->x1 - f->x0) / sum;
	double root_x = f->x0;
	chart_font(cr, FS_TICK, 0);
	for (size_t i = 0; i < c->ncells; i++) {
		const struct cell *cl = &c->cells[i];
		double *cursor = cl->parent < 0 ? &root_x : &next[cl->parent];
		double x = *cursor, wd = cl->value * k, y = f->y0 + cl->depth * rowh;
		*cursor += wd;
		next[i] = left[i] = x;
		cairo_rectangle(cr, x, y, wd, rowh);
		set_color(cr, cl->color, 1);
		cairo_fill(cr);
		/* parted from the row above and from a left neighbour, inside the
		 * cell, so the right edge stays where the value puts it */
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, x, y, wd, fmin(0.6, rowh / 4));
		if (x > (cl->parent < 0 ? f->x0 : left[cl->parent]) + 0.01)
			cairo_rectangle(cr, x, y, fmin(0.6, wd / 4), rowh);
		cairo_fill(cr);
		icicle_label(cr, cl, x, y, wd, rowh);
	}
	free(next);
}

static void chart_draw_icicle(struct chart *c, cairo_t *cr, double w, double h)
{
	layout(c, cr, w, h, 0);
	c->f.x0 = PAD;
	c->f.x1 = w - PAD;
	c->f.xmin = c->f.ymin = 0;
	c->f.xmax = c->f.ymax = 0;
	for (size_t i = 0; i < c->ncells; i++)
		if (c->cells[i].parent < 0)
			c->f.xmax += c->cells[i].value;
	draw_icicle(c, cr);
	draw_titles(c, cr, w, h);
}

void chart_draw(struct chart *c, cairo_t *cr, double w, double h)
{
	cairo_save(cr);
	cairo_rectangle(cr, 0, 0, w, h);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill(cr);
	if (c->kind == CHART_ICICLE) {
		chart_draw_icicle(c, cr, w, h);
		cairo_restore(cr);
		return;
	}
	value_axis(c);
	x_axis(c);
	struct legend L = legend_size(c, cr);
	layout(c, cr, w, h, 0);
	c->f.legend_x0 = c->f.legend_x1 = c->f.legend_y0 = c->f.legend_y1 = 0;
	if (L.n) {
		collect_obstacles(c);
		if (!place_legend_inside(c, &L)) {
			layout(c, cr, w, h, L.w);
			c->f.legend_x0 = c->f.x1 + 10;
			c->f.legend_y0 = c->f.y0;
			c->f.legend_x1 = c->f.legend_x0 + L.w;
			c->f.legend_y1 = c->f.legend_y0 + L.h;
		}
	}
	if (c->kind == CHART_XY)
		draw_x_axis(c, cr);
	draw_band_span(c, cr);
	draw_value_axis(c, cr);
	if (c->kind != CHART_XY)
		draw_groups(c, cr);
	cairo_save(cr);
	for (size_t i = 0; i < c->ns; i++)
		if (c->s[i].style & CS_BAND)
			draw_band(c, cr, &c->s[i]);
	for (size_t i = 0; i < c->ns; i++)
		draw_series(c, cr, &c->s[i]);
	cairo_restore(cr);
	if (c->kind != CHART_XY)
		draw_bars(c, cr);
	draw_refs(c, cr);
	draw_notes(c, cr);
	draw_frame(c, cr);
	draw_titles(c, cr, w, h);
	if (L.n)
		draw_legend(c, cr, &L);
	cairo_restore(cr);
}

void chart_get_frame(const struct chart *c, struct chart_frame *f)
{
	*f = c->f;
}

/* ---- files ---- */

static int finish(cairo_surface_t *s, cairo_t *cr, const char *path, struct amd_err *err)
{
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS)
		return amd_fail(err, "%s: %s", path, cairo_status_to_string(st));
	return 0;
}

int chart_write_png(struct chart *c, const char *path, double w, double h, double dpi,
		    struct amd_err *err)
{
	double k = dpi / 72.0;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * k),
							(int)ceil(h * k));
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_scale(cr, k, k);
	chart_draw(c, cr, w, h);
	cairo_surface_flush(s);
	cairo_status_t st = cairo_surface_write_to_png(s, path);
	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		cairo_surface_destroy(s);
		return amd_fail(err, "%s: cannot write PNG: %s", path, cairo_status_to_string(st));
	}
	return finish(s, cr, path, err);
}

int chart_write_svg(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err)
{
	cairo_surface_t *s = cairo_svg_surface_create(path, w, h);
	cairo_t *cr = cairo_create(s);
	chart_draw(c, cr, w, h);
	return finish(s, cr, path, err);
}

int chart_write_pdf(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err)
{
	cairo_surface_t *s = cairo_pdf_surface_create(path, w, h);
	cairo_t *cr = cairo_create(s);
	chart_draw(c, cr, w, h);
	cairo_show_page(cr);
	return finish(s, cr, path, err);
}
