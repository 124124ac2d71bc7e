/* chart_svg.c — a chart as SVG markup for an HTML page (chart.h,
 * chart_svg_markup): the one chart_draw on Cairo's SVG surface, drawn
 * in layers (the base, then each series in a group of its own that a
 * page can hide), with every string as a real <text> element at the
 * place, size, colour and width Pango measured for every output instead of glyph
 * outlines, and over the data a transparent target per point or bar
 * (its values and what is behind it in data- attributes and a <title>) and per legend entry. */
#include "chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>
#include <glib.h>

#include "buf.h"
#include "chart_bars.h"
#include "chart_scale.h"
#include "chart_style.h"
#include "chart_xy.h"

/* Appends s escaped for XML text or an attribute; 0 or -1. */
static int put_escaped(struct amd_buf *b, const char *s)
{
	char *e = g_markup_escape_text(s, -1);
	int rc = e ? amd_buf_append(b, e, strlen(e)) : -1;
	g_free(e);
	return rc;
}

struct text_rec {
	struct chart_text_rec rec;
	struct amd_buf *out;
	int failed;
};

static int rgb255(double v)
{
	return (int)lround(fmax(0, fmin(1, v)) * 255);
}

/* One string where Cairo would have drawn its glyphs. */
static void record_text(struct chart_text_rec *r, cairo_t *cr, const char *s)
{
	struct text_rec *t = (struct text_rec *)r;
	double x = 0, y = 0, red = 0, green = 0, blue = 0, alpha = 1;
	cairo_get_current_point(cr, &x, &y);
	cairo_user_to_device(cr, &x, &y);
	cairo_matrix_t m, fm;
	cairo_get_matrix(cr, &m);
	cairo_get_font_matrix(cr, &fm);
	double scale = hypot(m.xx, m.yx), angle = atan2(m.yx, m.xx) * 180 / M_PI;
	double advance = chart_text_width(cr, s); /* Pango's, as in PNG and PDF */
	cairo_pattern_get_rgba(cairo_get_source(cr), &red, &green, &blue, &alpha);
	cairo_font_face_t *ff = cairo_get_font_face(cr);
	int bold = cairo_font_face_get_type(ff) == CAIRO_FONT_TYPE_TOY &&
		   cairo_toy_font_face_get_weight(ff) == CAIRO_FONT_WEIGHT_BOLD;
	struct amd_buf *b = t->out;
	int rc = amd_buf_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\" "
				   "fill=\"#%02x%02x%02x\" textLength=\"%.2f\"%s",
				x, y, fm.xx * scale, rgb255(red), rgb255(green), rgb255(blue),
				advance * scale, bold ? " font-weight=\"bold\"" : "");
	if (rc == 0 && fabs(angle) > 0.01)
		rc = amd_buf_printf(b, " transform=\"rotate(%.2f %.2f %.2f)\"", angle, x, y);
	if (rc == 0)
		rc = amd_buf_printf(b, ">");
	if (rc == 0)
		rc = put_escaped(b, s);
	if (rc == 0)
		rc = amd_buf_printf(b, "</text>\n");
	t->failed |= rc < 0;
	cairo_rel_move_to(cr, advance, 0); /* as chart_show_text leaves it */
}

/* Appends with every id and reference to one prefixed by pre, so that
 * many Cairo documents share one HTML page. */
static int put_prefixed(struct amd_buf *b, const char *s, size_t n, const char *pre)
{
	static const char *const refs[] = {"id=\"", "url(#", "href=\"#"};
	size_t done = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			size_t len = strlen(refs[k]);
			if (i + len <= n && memcmp(s + i, refs[k], len) == 0) {
				if (amd_buf_append(b, s + done, i + len - done) < 0 ||
				    amd_buf_printf(b, "%s", pre) < 0)
					return -1;
				done = i + len;
				i += len - 1;
				break;
			}
		}
	return amd_buf_append(b, s + done, n - done);
}

/* The body of Cairo's document (inside its <svg> element). */
static int put_body(struct amd_buf *b, const struct amd_buf *doc, const char *pre)
{
	if (amd_buf_append((struct amd_buf *)doc, "", 1) < 0)
		return -1;
	const char *open = strstr(doc->data, "<svg");
	const char *start = open ? strchr(open, '>') : NULL;
	const char *end = start ? strstr(start, "</svg>") : NULL;
	if (!end)
		return -1;
	return put_prefixed(b, start + 1, (size_t)(end - start - 1), pre);
}

static cairo_status_t to_buf(void *closure, const unsigned char *data, unsigned int n)
{
	return amd_buf_append(closure, data, n) < 0 ? CAIRO_STATUS_NO_MEMORY
						     : CAIRO_STATUS_SUCCESS;
}

/* Draws layer (chart_model.h) as <g class="cls" ...>: Cairo's shapes,
 * then the text; -1 out of memory or a failed drawing. */
static int put_layer(struct chart *c, int layer, double w, double h, const char *pre,
		     struct amd_buf *b)
{
	struct amd_buf doc = {0}, text = {0};
	struct text_rec rec = {{record_text}, &text, 0};
	cairo_surface_t *s = cairo_svg_surface_create_for_stream(to_buf, &doc, w, h);
	cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_USER);
	cairo_t *cr = cairo_create(s);
	cairo_set_user_data(cr, &chart_text_rec_key, &rec, NULL);
	c->layer = layer;
	int rc = chart_draw(c, cr, w, h);
	c->layer = LAYER_ALL;
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = -1;
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		rc = -1;
	cairo_surface_destroy(s);
	if (rc == 0 && !rec.failed)
		rc = put_body(b, &doc, pre);
	else
		rc = -1;
	if (rc == 0)
		rc = amd_buf_append(b, text.data ? text.data : "", text.len);
	amd_buf_free(&doc);
	amd_buf_free(&text);
	return rc;
}

/* A number for a data- attribute ("" when not finite). */
static void num(char *buf, size_t n, double v)
{
	if (isfinite(v))
		snprintf(buf, n, "%.17g", v);
	else
		buf[0] = '\0';
}

/* A value as a person reads it. */
static void shown(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.6g", v);
}

/* data-name, data-x (or data-group), data-v, data-lo, data-hi and a
 * <title> saying the same, closing the target's element tag. */
static int put_values(struct amd_buf *b, const char *series, const char *xname, double x,
		      const char *group, double v, double lo, double hi, const char *info,
		      const char *tag)
{
	char xs[40], vs[40], los[40], his[40], sv[40], slo[40], shi[40], sx[40];
	num(xs, sizeof xs, x);
	num(vs, sizeof vs, v);
	num(los, sizeof los, lo);
	num(his, sizeof his, hi);
	shown(sv, sizeof sv, v);
	shown(slo, sizeof slo, lo);
	shown(shi, sizeof shi, hi);
	shown(sx, sizeof sx, x);
	int rc = amd_buf_printf(b, " data-v=\"%s\" data-lo=\"%s\" data-hi=\"%s\"", vs, los, his);
	if (rc == 0 && !group)
		rc = amd_buf_printf(b, " data-x=\"%s\"", xs);
	if (rc == 0 && group && (rc = amd_buf_printf(b, " data-group=\"")) == 0 &&
	    (rc = put_escaped(b, group)) == 0)
		rc = amd_buf_printf(b, "\"");
	if (rc == 0 && info && (rc = amd_buf_printf(b, " data-info=\"")) == 0 &&
	    (rc = put_escaped(b, info)) == 0)
		rc = amd_buf_printf(b, "\"");
	if (rc == 0 && (rc = amd_buf_printf(b, " data-name=\"")) == 0 &&
	    (rc = put_escaped(b, series ? series : "")) == 0)
		rc = amd_buf_printf(b, "\"><title>");
	if (rc == 0 && series && *series && (rc = put_escaped(b, series)) == 0)
		rc = amd_buf_printf(b, "\n");
	if (rc == 0 && (rc = put_escaped(b, group ? group : xname ? xname : "x")) == 0)
		rc = group ? 0 : amd_buf_printf(b, " %s", sx);
	if (rc == 0)
		rc = amd_buf_printf(b, "\nvalue %s", sv);
	if (rc == 0 && isfinite(lo) && isfinite(hi))
		rc = amd_buf_printf(b, "\ninterval %s – %s", slo, shi);
	if (rc == 0 && info && (rc = amd_buf_printf(b, "\n")) == 0)
		rc = put_escaped(b, info);
	if (rc == 0)
		rc = amd_buf_printf(b, "</title></%s>\n", tag);
	return rc;
}

/* XY series k's name, else that of the first named series of its colour
 * (a band or the measured points of a model drawn as a line). */
static const char *series_name(const struct chart *c, size_t k)
{
	if (c->s[k].name && *c->s[k].name)
		return c->s[k].name;
	for (size_t q = 0; q < c->ns; q++)
		if (c->s[q].color == c->s[k].color && c->s[q].name && *c->s[q].name)
			return c->s[q].name;
	return NULL;
}

/* The interval of series s at x: its own lo/hi, else those of a band of
 * its colour at the same x (a chart draws a series' interval as either;
 * a band of no width there, as speedup's at its base, is no interval). */
static void interval_at(const struct chart *c, const struct xy_series *s, size_t j,
			double *lo, double *hi)
{
	*lo = s->lo ? s->lo[j] : NAN;
	*hi = s->hi ? s->hi[j] : NAN;
	for (size_t b = 0; b < c->ns && !(isfinite(*lo) && isfinite(*hi)); b++) {
		const struct xy_series *band = &c->s[b];
		if (!(band->style & CS_BAND) || (band->style & CS_LINE) || band->color != s->color ||
		    !band->lo || !band->hi)
			continue; /* a line with a band is a model: its interval, not the points' */
		for (size_t i = 0; i < band->n; i++)
			if (band->x[i] == s->x[j] && band->lo[i] < band->hi[i]) { /* none: no width */
				*lo = band->lo[i];
				*hi = band->hi[i];
				break;
			}
	}
}

/* A target per point of XY series k that has markers or error bars. */
static int put_point_targets(struct chart *c, size_t k, struct amd_buf *b)
{
	const struct xy_series *s = &c->s[k];
	if (!(s->style & (CS_POINTS | CS_ERRBARS)))
		return 0;
	for (size_t j = 0; j < s->n; j++) {
		if (!isfinite(s->y[j]))
			continue;
		double px = chart_map_x(c, s->x[j]) + chart_jitter(s, j), py = chart_map_y(c, s->y[j]);
		double lo, hi;
		interval_at(c, s, j, &lo, &hi);
		if (amd_buf_printf(b, "<circle class=\"hit\" tabindex=\"0\" cx=\"%.2f\" cy=\"%.2f\" "
				      "r=\"6\" data-s=\"%zu\" data-i=\"%zu\"", px, py, k, j) < 0 ||
		    put_values(b, series_name(c, k), c->xlabel, s->x[j], NULL, s->y[j], lo, hi,
			       s->info ? s->info[j] : NULL, "circle") < 0)
			return -1;
	}
	return 0;
}

#define BAND_TARGETS 24 /* strips over a band of more samples than this: about this many */

/* The info of band sample j: its own (chart_point_info), else that of a
 * series of its colour at the same x (the runs behind it), else NULL. */
static const char *info_at(const struct chart *c, const struct xy_series *band, size_t j)
{
	double x = band->x[j];
	if (band->info && band->info[j])
		return band->info[j];
	for (size_t k = 0; k < c->ns; k++) {
		const struct xy_series *s = &c->s[k];
		if (s == band || s->color != band->color || !s->info)
			continue;
		for (size_t i = 0; i < s->n; i++)
			if (s->x[i] == x && s->info[i])
				return s->info[i];
	}
	return NULL;
}

/* The sample after j, st on, the last one always included. */
static size_t next_sample(size_t j, size_t st, size_t n)
{
	return j + st < n || j + 1 == n ? j + st : n - 1;
}

/* Band series k (a CI or prediction band): a strip per sample over its
 * interval, from halfway to the sample before to halfway to the one
 * after, saying the value there (the series' own line, else the line of
 * its colour at that x, else the band's middle), the interval and the
 * runs. Drawn before the series after it, so points stay on top. */
static int put_band_targets(struct chart *c, size_t k, struct amd_buf *b)
{
	const struct xy_series *s = &c->s[k];
	if (!(s->style & CS_BAND) || !s->lo || !s->hi)
		return 0;
	size_t st = s->n / BAND_TARGETS + 1; /* a model's curve: a strip per st samples */
	for (size_t j = 0; j < s->n; j = next_sample(j, st, s->n)) {
		if (!isfinite(s->lo[j]) || !isfinite(s->hi[j]) || !(s->lo[j] < s->hi[j]))
			continue;
		size_t before = j >= st ? j - st : 0, after = j + st < s->n ? j + st : s->n - 1;
		double px = chart_map_x(c, s->x[j]);
		double left = j > 0 ? (chart_map_x(c, s->x[before]) + px) / 2 : px - 3;
		double right = j + 1 < s->n ? (chart_map_x(c, s->x[after]) + px) / 2 : px + 3;
		double top = chart_map_y(c, s->hi[j]), bottom = chart_map_y(c, s->lo[j]);
		double v = s->y ? s->y[j] : NAN;
		for (size_t q = 0; q < c->ns && !isfinite(v); q++)
			if (q != k && c->s[q].color == s->color && !(c->s[q].style & CS_BAND))
				for (size_t i = 0; i < c->s[q].n; i++)
					if (c->s[q].x[i] == s->x[j])
						v = c->s[q].y[i];
		if (amd_buf_printf(b, "<rect class=\"hit band\" tabindex=\"0\" x=\"%.2f\" y=\"%.2f\" "
				      "width=\"%.2f\" height=\"%.2f\" data-s=\"%zu\" data-i=\"%zu\"",
				   fmin(left, right - 2), fmin(top, bottom), fmax(right - left, 2),
				   fmax(fabs(bottom - top), 2), k, j) < 0 ||
		    put_values(b, series_name(c, k), c->xlabel, s->x[j], NULL, v, s->lo[j], s->hi[j],
			       info_at(c, s, j), "rect") < 0)
			return -1;
	}
	return 0;
}

/* A target per bar of bar series k. */
static int put_bar_targets(struct chart *c, size_t k, struct amd_buf *b)
{
	const struct bar_series *s = &c->b[k];
	for (size_t g = 0; g < c->ng && g < s->ngroups; g++) {
		struct rect r;
		if (!chart_bar_rect(c, g, k, &r))
			continue;
		char group[512];
		snprintf(group, sizeof group, "%s%s%s", c->g[g].label ? c->g[g].label : "",
			 c->g[g].super ? " · " : "", c->g[g].super ? c->g[g].super : "");
		if (amd_buf_printf(b, "<rect class=\"hit\" tabindex=\"0\" x=\"%.2f\" y=\"%.2f\" "
				      "width=\"%.2f\" height=\"%.2f\" data-s=\"%zu\" data-i=\"%zu\"",
				   r.x0, r.y0, fmax(r.x1 - r.x0, 2), fmax(r.y1 - r.y0, 2), k, g) < 0 ||
		    put_values(b, s->name, NULL, NAN, group, s->v[g], s->lo ? s->lo[g] : NAN,
			       s->hi ? s->hi[g] : NAN, NULL, "rect") < 0)
			return -1;
	}
	return 0;
}

/* A button over each legend entry (drawn by the base layer). */
static int put_legend_targets(struct chart *c, size_t n, struct amd_buf *b)
{
	for (size_t k = 0; k < n; k++) {
		const struct rect *r = &c->legend_at[k];
		if (r->x1 <= r->x0)
			continue;
		const char *name = c->kind == CHART_XY ? c->s[k].name : c->b[k].name;
		if (amd_buf_printf(b, "<rect class=\"legend-hit\" role=\"button\" tabindex=\"0\" "
				      "aria-pressed=\"true\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				      "height=\"%.2f\" data-s=\"%zu\" data-name=\"",
				   r->x0, r->y0, r->x1 - r->x0, r->y1 - r->y0, k) < 0 ||
		    put_escaped(b, name ? name : "") < 0 ||
		    amd_buf_printf(b, "\"><title>") < 0 || put_escaped(b, name ? name : "") < 0 ||
		    amd_buf_printf(b, " (click to hide or show)</title></rect>\n") < 0)
			return -1;
	}
	return 0;
}

static int put_series(struct chart *c, size_t k, double w, double h, const char *id,
		      struct amd_buf *b)
{
	char pre[96];
	snprintf(pre, sizeof pre, "%s-s%zu-", id, k);
	const char *name = c->kind == CHART_XY ? c->s[k].name : c->b[k].name;
	if (amd_buf_printf(b, "<g class=\"series\" data-s=\"%zu\" data-name=\"", k) < 0 ||
	    put_escaped(b, name ? name : "") < 0 || amd_buf_printf(b, "\">\n") < 0 ||
	    put_layer(c, LAYER_SERIES(k), w, h, pre, b) < 0)
		return -1;
	int rc = c->kind == CHART_XY ? put_band_targets(c, k, b) : 0;
	if (rc == 0)
		rc = c->kind == CHART_XY ? put_point_targets(c, k, b) : put_bar_targets(c, k, b);
	return rc < 0 ? -1 : amd_buf_printf(b, "</g>\n");
}

/* The <svg> element's opening tag: its title, x label and, for an XY
 * chart, where its plot is and what its x axis spans (a page's zoom
 * maps data to the plot with them as chart_map_x does). */
static int put_svg_open(const struct chart *c, double w, double h, const char *id,
			struct amd_buf *b)
{
	int rc = amd_buf_printf(b, "<svg class=\"chart\" id=\"%s\" viewBox=\"0 0 %.0f %.0f\" "
				   "width=\"%.0f\" height=\"%.0f\" role=\"img\" data-kind=\"%d\" "
				   "aria-label=\"", id, w, h, w, h, (int)c->kind);
	if (rc == 0)
		rc = put_escaped(b, c->title ? c->title : "chart");
	if (rc == 0)
		rc = amd_buf_printf(b, "\" data-xlabel=\"");
	if (rc == 0)
		rc = put_escaped(b, c->xlabel ? c->xlabel : "");
	if (rc == 0 && c->kind == CHART_XY)
		rc = amd_buf_printf(b, "\" data-plot=\"%.17g %.17g %.17g %.17g\" data-xrange=\"%.17g %.17g\" "
				       "data-yrange=\"%.17g %.17g\" data-xscale=\"%s\" data-yscale=\"%s",
				    c->f.x0, c->f.y0, c->f.x1, c->f.y1, c->f.xmin, c->f.xmax, c->f.ymin, c->f.ymax,
				    c->xscale == CHART_LOG2 ? "log2" : "linear",
				    c->yscale == CHART_LOG2 ? "log2" : "linear");
	return rc == 0 ? amd_buf_printf(b, "\">\n") : rc;
}

/* The layers: an XY chart's x axis in <g class="xaxis">, the base in
 * <g class="base">, then each series with its targets, then the legend's
 * buttons. */
static int put_layers(struct chart *c, double w, double h, const char *id, struct amd_buf *b)
{
	char pre[96];
	int rc = 0;
	if (c->kind == CHART_XY) {
		snprintf(pre, sizeof pre, "%s-x-", id);
		rc = amd_buf_printf(b, "<g class=\"xaxis\">\n");
		if (rc == 0)
			rc = put_layer(c, LAYER_XAXIS, w, h, pre, b);
		if (rc == 0)
			rc = amd_buf_printf(b, "</g>\n");
	}
	snprintf(pre, sizeof pre, "%s-b-", id);
	if (rc == 0)
		rc = amd_buf_printf(b, "<g class=\"base\">\n");
	if (rc == 0)
		rc = put_layer(c, c->kind == CHART_ICICLE ? LAYER_ALL : LAYER_BASE, w, h, pre, b);
	if (rc == 0)
		rc = amd_buf_printf(b, "</g>\n");
	size_t n = c->kind == CHART_XY ? c->ns : c->kind == CHART_ICICLE ? 0 : c->nb;
	c->frame_kept = 1; /* the series' layers lie in the base layer's frame */
	for (size_t k = 0; rc == 0 && k < n; k++)
		rc = put_series(c, k, w, h, id, b);
	c->frame_kept = 0;
	if (rc == 0)
		rc = put_legend_targets(c, n, b);
	return rc;
}

static int put_chart(struct chart *c, double w, double h, const char *id, struct amd_buf *b)
{
	struct amd_buf body = {0};
	int rc = put_layers(c, w, h, id, &body);
	if (rc == 0)
		rc = put_svg_open(c, w, h, id, b);
	if (rc == 0)
		rc = amd_buf_append(b, body.data ? body.data : "", body.len);
	if (rc == 0)
		rc = amd_buf_printf(b, "</svg>\n");
	amd_buf_free(&body);
	return rc;
}

int chart_svg_markup(struct chart *c, double w, double h, const char *id, struct amd_buf *out)
{
	if (chart_failed(c))
		return -1;
	size_t n = c->kind == CHART_XY ? c->ns : c->nb;
	c->legend_at = calloc(n ? n : 1, sizeof *c->legend_at);
	if (!c->legend_at)
		return chart_fail(c);
	int rc = put_chart(c, w, h, id, out);
	free(c->legend_at);
	c->legend_at = NULL;
	return rc;
}

int chart_svg_markup_linear(struct chart *c, double w, double h, const char *id,
			    struct amd_buf *out)
{
	if (c->kind != CHART_XY || (c->xscale != CHART_LOG2 && c->yscale != CHART_LOG2))
		return 0;
	enum chart_scale xs = c->xscale, ys = c->yscale;
	c->xscale = c->yscale = CHART_LINEAR;
	int rc = chart_svg_markup(c, w, h, id, out);
	c->xscale = xs;
	c->yscale = ys;
	return rc;
}
