/* chart_scale.c — ranges, nice ticks and the data-to-drawing mapping
 * (see chart_scale.h). */
#include "chart_scale.h"

#include <stdio.h>

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

void chart_fmt_tick(char *buf, size_t n, double v, double step, const char *suffix)
{
	if (step == 0 && fabs(v) < 1) /* log axis below 1: 2^-9 reads 0.001953, not 0.00195312 */
		snprintf(buf, n, "%.4g%s", v, suffix);
	else if (step == 0) /* log axis: powers of two, whole up to 1e6 */
		snprintf(buf, n, "%g%s", v, suffix);
	else if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-4))
		snprintf(buf, n, "%.3g%s", v, suffix);
	else
		snprintf(buf, n, "%.*f%s", decimals_for(step), v, suffix);
}

/* ---- ranges ---- */

struct range {
	double lo, hi;
	int pos_only; /* log axis: only positive values count */
};

static void widen(struct range *r, double v)
{
	if (!amd_num_ok(v) || (r->pos_only && v <= 0))
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

/* The extent of the data along the value axis: XY values and their
 * intervals, or bars (stacked: their running sums, the positive values
 * stacked up from 0 and the negative ones down). */
static void data_range(const struct chart *c, struct range *r)
{
	if (c->kind == CHART_XY) {
		for (size_t i = 0; i < c->ns; i++)
			for (size_t k = 0; k < c->s[i].n; k++) {
				if (!amd_num_ok(c->s[i].y[k]))
					continue;
				widen(r, c->s[i].y[k]);
				if (c->s[i].lo)
					widen(r, c->s[i].lo[k]);
				if (c->s[i].hi)
					widen(r, c->s[i].hi[k]);
			}
		return;
	}
	for (size_t g = 0; g < c->ng; g++) {
		double up = 0, down = 0; /* stacked: the positive and negative running sums */
		for (size_t i = 0; i < c->nb; i++) {
			double v = c->b[i].v[g];
			if (!amd_num_ok(v))
				continue;
			double *sum = v < 0 ? &down : &up;
			*sum += v;
			widen(r, c->stacked ? *sum : v);
			if (!c->stacked && c->b[i].hi)
				widen(r, c->b[i].hi[g]);
			if (!c->stacked && c->b[i].lo)
				widen(r, c->b[i].lo[g]);
		}
	}
}

static struct range value_range(const struct chart *c)
{
	struct range r = {INFINITY, -INFINITY, c->yscale == CHART_LOG2};
	data_range(c, &r);
	for (size_t i = 0; i < c->nrefs; i++)
		widen(&r, c->refs[i].v);
	if (amd_num_ok(c->band_lo) && amd_num_ok(c->band_hi)) {
		widen(&r, c->band_lo);
		widen(&r, c->band_hi);
	}
	if (c->has_base && c->kind != CHART_XY)
		widen(&r, c->bar_base);
	else if (c->y_zero && c->yscale != CHART_LOG2)
		widen(&r, 0);
	if (amd_num_ok(c->ylo))
		r.lo = c->ylo;
	if (amd_num_ok(c->yhi))
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

void chart_value_axis(struct chart *c)
{
	c->f.yscale = c->yscale;
	if (c->yscale == CHART_LOG2) {
		log_value_axis(c);
		return;
	}
	struct range r = value_range(c);
	double st = nice_step(r.hi - r.lo, 5);
	double lo = amd_num_ok(c->ylo) ? c->ylo : floor(r.lo / st + 1e-9) * st;
	double hi = amd_num_ok(c->yhi) ? c->yhi : ceil(r.hi / st - 1e-9) * st;
	if (!amd_num_ok(c->yhi) && hi - r.hi < 0.03 * (hi - lo) && c->kind != CHART_XY)
		hi += st; /* room for value labels above the tallest bar */
	c->nvticks = chart_nice_ticks(lo, hi, 5, c->vticks, 64, &c->vstep);
	c->f.ymin = lo;
	c->f.ymax = hi;
}

static void log2_x_axis(struct chart *c, struct range r)
{
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
}

/* 1 when every x of the data is a whole number (a count: workers, GPUs,
 * batch size), whose axis has no tick between two counts. */
static int x_whole(const struct chart *c)
{
	for (size_t i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++)
			if (amd_num_ok(c->s[i].x[k]) && c->s[i].x[k] != floor(c->s[i].x[k]))
				return 0;
	return 1;
}

/* Ticks at the whole numbers in [lo, hi] (a narrow axis of counts, where
 * nice ticks would fall between them: 0.6, 0.8, … around one n = 1). */
static void whole_x_ticks(struct chart *c, double lo, double hi)
{
	c->nxticks = 0;
	for (double v = ceil(lo); v <= hi && c->nxticks < 64; v++)
		c->xticks[c->nxticks++] = v;
	c->xstep = 1;
}

void chart_x_axis(struct chart *c)
{
	c->f.xscale = c->xscale;
	if (c->kind != CHART_XY) {
		c->f.xmin = 0;
		c->f.xmax = (double)(c->ng ? c->ng : 1);
		return;
	}
	struct range r = xy_xrange(c);
	if (c->xscale == CHART_LOG2) {
		log2_x_axis(c, r);
		return;
	}
	double pad = (r.hi - r.lo) * 0.05;
	if (pad <= 0)
		pad = fabs(r.lo) > 0 ? fabs(r.lo) * 0.5 : 1;
	c->nxticks = chart_nice_ticks(r.lo - pad, r.hi + pad, 6, c->xticks, 64, &c->xstep);
	if (c->xstep < 1 && x_whole(c))
		whole_x_ticks(c, r.lo - pad, r.hi + pad);
	c->f.xmin = r.lo - pad;
	c->f.xmax = r.hi + pad;
}

/* ---- mapping ---- */

double chart_map_x(const struct chart *c, double x)
{
	const struct chart_frame *f = &c->f;
	double t = c->xscale == CHART_LOG2 && c->kind == CHART_XY
			   ? (log2(x) - log2(f->xmin)) / (log2(f->xmax) - log2(f->xmin))
			   : (x - f->xmin) / (f->xmax - f->xmin);
	return f->x0 + t * (f->x1 - f->x0);
}

double chart_map_y(const struct chart *c, double y)
{
	const struct chart_frame *f = &c->f;
	if (c->yscale == CHART_LOG2)
		return f->y1 - (log2(y) - log2(f->ymin)) / (log2(f->ymax) - log2(f->ymin)) *
				       (f->y1 - f->y0);
	return f->y1 - (y - f->ymin) / (f->ymax - f->ymin) * (f->y1 - f->y0);
}

double chart_map_v(const struct chart *c, double v)
{
	if (c->kind != CHART_HBARS)
		return chart_map_y(c, v);
	const struct chart_frame *f = &c->f;
	return f->x0 + (v - f->ymin) / (f->ymax - f->ymin) * (f->x1 - f->x0);
}
