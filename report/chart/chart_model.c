/* chart_model.c — building a chart as data (chart.h): chart_new and
 * chart_free, the setters, series, bar groups, reference lines and
 * icicle cells. Every setter copies what it is given; out of memory
 * marks the chart failed (chart_failed), which every later call and
 * chart_draw then refuse, so that no half-built chart is drawn. */
#include "chart_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int chart_fail(struct chart *c)
{
	if (c)
		c->failed = 1;
	return -1;
}

int chart_failed(const struct chart *c)
{
	return !c || c->failed;
}

/* A copy of s in *out (NULL stays NULL); 0, or -1 when out of memory. */
static int dup_str(const char *s, char **out)
{
	*out = s ? strdup(s) : NULL;
	return s && !*out ? -1 : 0;
}

/* A copy of the n values of a in *out (NULL stays NULL). */
static int dup_arr(const double *a, size_t n, double **out)
{
	*out = NULL;
	if (!a)
		return 0;
	*out = malloc((n ? n : 1) * sizeof **out);
	if (!*out)
		return -1;
	if (n)
		memcpy(*out, a, n * sizeof **out);
	return 0;
}

struct chart *chart_new(enum chart_kind kind, const char *title, const char *xlabel,
			const char *ylabel)
{
	struct chart *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->kind = kind;
	c->ylo = c->yhi = NAN;
	c->band_lo = c->band_hi = NAN;
	c->y_zero = kind != CHART_XY;
	if (dup_str(title, &c->title) < 0 || dup_str(xlabel, &c->xlabel) < 0 ||
	    dup_str(ylabel, &c->ylabel) < 0) {
		chart_free(c);
		return NULL;
	}
	return c;
}

static void free_series(struct chart *c)
{
	for (size_t i = 0; i < c->ns; i++) {
		free(c->s[i].name);
		free(c->s[i].x);
		free(c->s[i].y);
		free(c->s[i].lo);
		free(c->s[i].hi);
		for (size_t k = 0; c->s[i].info && k < c->s[i].n; k++)
			free(c->s[i].info[k]);
		free(c->s[i].info);
	}
	for (size_t i = 0; i < c->nb; i++) {
		free(c->b[i].name);
		free(c->b[i].v);
		free(c->b[i].lo);
		free(c->b[i].hi);
	}
	free(c->s);
	free(c->b);
}

void chart_free(struct chart *c)
{
	if (!c)
		return;
	free_series(c);
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

/* Room for element n of one of the chart's arrays (amd_grow). */
static int grow(struct chart *c, void *arrp, size_t n, size_t *cap, size_t elem)
{
	if (amd_grow(arrp, n, cap, elem, 4) < 0)
		return chart_fail(c);
	return 0;
}

long chart_cell(struct chart *c, long parent, double value, const char *label, int color)
{
	if (chart_failed(c))
		return -1;
	if (parent >= (long)c->ncells || !(value >= 0))
		return -1;
	if (grow(c, &c->cells, c->ncells, &c->ccells, sizeof *c->cells) < 0)
		return -1;
	struct cell *v = c->cells;
	v[c->ncells] = (struct cell){parent, parent < 0 ? 0 : v[parent].depth + 1, color, value,
				     NULL};
	if (dup_str(label, &v[c->ncells].label) < 0)
		return chart_fail(c);
	return (long)c->ncells++;
}

int chart_subtitle(struct chart *c, const char *fmt, ...)
{
	if (chart_failed(c))
		return -1;
	va_list ap;
	char buf[512];
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(c->subtitle);
	if (dup_str(buf, &c->subtitle) < 0)
		return chart_fail(c);
	return 0;
}

void chart_xscale(struct chart *c, enum chart_scale s)
{
	if (c)
		c->xscale = s;
}

void chart_yscale(struct chart *c, enum chart_scale s)
{
	if (c)
		c->yscale = c->kind == CHART_XY ? s : CHART_LINEAR;
}

void chart_yrange(struct chart *c, double lo, double hi, int y_zero)
{
	if (!c)
		return;
	c->ylo = lo;
	c->yhi = hi;
	c->y_zero = y_zero || c->kind != CHART_XY;
}

void chart_ysuffix(struct chart *c, const char *suffix)
{
	if (c)
		snprintf(c->ysuffix, sizeof c->ysuffix, "%s", suffix ? suffix : "");
}

int chart_series(struct chart *c, const char *name, int color, unsigned style,
		 enum chart_marker marker, size_t n, const double *x, const double *y,
		 const double *lo, const double *hi)
{
	if (chart_failed(c) || grow(c, &c->s, c->ns, &c->cs, sizeof *c->s) < 0)
		return -1;
	struct xy_series *s = &c->s[c->ns++];
	*s = (struct xy_series){.color = color, .style = style, .marker = marker, .n = n};
	if (dup_str(name, &s->name) < 0 || dup_arr(x, n, &s->x) < 0 || dup_arr(y, n, &s->y) < 0 ||
	    dup_arr(lo, n, &s->lo) < 0 || dup_arr(hi, n, &s->hi) < 0)
		return chart_fail(c);
	return 0;
}

int chart_point_info(struct chart *c, size_t k, const char *text)
{
	if (chart_failed(c) || c->ns == 0 || k >= c->s[c->ns - 1].n)
		return -1;
	struct xy_series *s = &c->s[c->ns - 1];
	if (!s->info && !(s->info = calloc(s->n, sizeof *s->info)))
		return chart_fail(c);
	free(s->info[k]);
	s->info[k] = NULL;
	return dup_str(text, &s->info[k]) < 0 ? chart_fail(c) : 0;
}

int chart_note(struct chart *c, double x, double y, const char *text)
{
	if (chart_failed(c) || grow(c, &c->notes, c->nnotes, &c->cnotes, sizeof *c->notes) < 0)
		return -1;
	c->notes[c->nnotes] = (struct chart_note_at){x, y, NULL};
	if (dup_str(text, &c->notes[c->nnotes].text) < 0)
		return chart_fail(c);
	c->nnotes++;
	return 0;
}

int chart_group(struct chart *c, const char *label, const char *super)
{
	if (chart_failed(c) || grow(c, &c->g, c->ng, &c->cg, sizeof *c->g) < 0)
		return -1;
	struct bar_group *g = &c->g[c->ng++];
	*g = (struct bar_group){NULL, NULL};
	if (dup_str(label, &g->label) < 0 || dup_str(super, &g->super) < 0)
		return chart_fail(c);
	return 0;
}

int chart_bars(struct chart *c, const char *name, int color, int hatched,
	       const double *v, const double *lo, const double *hi)
{
	if (chart_failed(c) || grow(c, &c->b, c->nb, &c->cb, sizeof *c->b) < 0)
		return -1;
	struct bar_series *b = &c->b[c->nb++];
	*b = (struct bar_series){.color = color, .hatched = hatched, .ngroups = c->ng};
	if (dup_str(name, &b->name) < 0 || dup_arr(v, c->ng, &b->v) < 0 ||
	    dup_arr(lo, c->ng, &b->lo) < 0 || dup_arr(hi, c->ng, &b->hi) < 0)
		return chart_fail(c);
	return 0;
}

void chart_stacked(struct chart *c, int stacked)
{
	if (c)
		c->stacked = stacked;
}

int chart_value_labels(struct chart *c, const char *fmt)
{
	if (chart_failed(c))
		return -1;
	free(c->value_fmt);
	if (dup_str(fmt, &c->value_fmt) < 0)
		return chart_fail(c);
	return 0;
}

int chart_ref(struct chart *c, double value, const char *label)
{
	if (chart_failed(c) || grow(c, &c->refs, c->nrefs, &c->crefs, sizeof *c->refs) < 0)
		return -1;
	c->refs[c->nrefs] = (struct chart_refline){value, NULL};
	if (dup_str(label, &c->refs[c->nrefs].label) < 0)
		return chart_fail(c);
	c->nrefs++;
	return 0;
}

void chart_bar_base(struct chart *c, double base)
{
	if (!c)
		return;
	c->has_base = 1;
	c->bar_base = base;
}

void chart_bars_overlap(struct chart *c, int overlap)
{
	if (c)
		c->overlap = overlap;
}

void chart_band(struct chart *c, double lo, double hi)
{
	if (!c)
		return;
	c->band_lo = lo;
	c->band_hi = hi;
}

void chart_get_frame(const struct chart *c, struct chart_frame *f)
{
	*f = c->f;
}
