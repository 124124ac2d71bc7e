/* chart.h — the chart engine: a chart is described as data (axes,
 * series, bar groups) and drawn by one Cairo code path onto any cairo_t;
 * PNG (at a given dpi), PDF and SVG files are that same drawing on
 * different surfaces, and the PDF report draws charts into page regions.
 *
 * Style (docs/design.md, "Report"): Okabe–Ito palette, DejaVu Sans, nice 1-2-5 ticks,
 * log2 axes for GPU counts, a legend placed where it hides no data, a
 * title and a subtitle (runs per point).
 *
 * Out of memory: the functions that add to a chart return -1 and mark
 * it failed (chart_failed); a failed chart takes nothing more and is
 * neither drawn nor written, so that no half-built chart is shown. The
 * functions that take a chart accept NULL (what a failed chart_new
 * returns) as a failed chart. */
#ifndef AMD_CHART_H
#define AMD_CHART_H

#include <cairo.h>
#include <stddef.h>

#include "err.h"
#include "outfile.h"

enum chart_kind {
	CHART_XY,    /* lines, points, error bars, bands, reference lines */
	CHART_BARS,  /* vertical bars per group: grouped or stacked */
	CHART_HBARS, /* horizontal bars per row (top functions, ratios) */
	CHART_ICICLE, /* nested cells: width ∝ value, depth downward (flame graph) */
};

enum chart_scale { CHART_LINEAR, CHART_LOG2 };

/* Series style flags (XY charts). */
enum {
	CS_LINE = 1,    /* join the points */
	CS_POINTS = 2,  /* a marker at each point */
	CS_ERRBARS = 4, /* vertical bars lo..hi at each point */
	CS_BAND = 8,    /* a translucent band lo..hi along x */
	CS_DASHED = 16, /* dashed line (fitted models) */
	CS_JITTER = 32, /* spread points sharing an x (per-run strips) */
	CS_THIN = 64,   /* thin grey line (ideal / reference) */
	CS_DOTTED = 128, /* dotted line (a second fitted model) */
};

enum chart_marker { MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND, MARK_DASH };

#define CHART_GREY (-1)
#define CHART_PALETTE_SIZE 7

struct chart;

/* ylabel names the value axis (drawn along the bottom for CHART_HBARS,
 * whose rows carry their own labels). */
struct chart *chart_new(enum chart_kind kind, const char *title, const char *xlabel,
			const char *ylabel);
void chart_free(struct chart *c);
int chart_subtitle(struct chart *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void chart_xscale(struct chart *c, enum chart_scale s);
/* A log2 value axis (XY charts only): ticks at powers of two. */
void chart_yscale(struct chart *c, enum chart_scale s);
/* Fixes the value axis range (NAN for automatic ends). y_zero: the
 * automatic range includes 0 (bars always do). */
void chart_yrange(struct chart *c, double lo, double hi, int y_zero);
/* Tick labels on the value axis get this suffix ("%", "×"). */
void chart_ysuffix(struct chart *c, const char *suffix);

/* XY: adds a series (arrays copied; lo/hi may be NULL). name NULL keeps
 * it out of the legend. Points with a NAN y are skipped (lines break). */
int chart_series(struct chart *c, const char *name, int color, unsigned style,
		 enum chart_marker marker, size_t n, const double *x, const double *y,
		 const double *lo, const double *hi);
/* What lies behind point k of the series added last (e.g. its runs):
 * not drawn; an HTML page shows it on hover (chart_svg_markup). */
int chart_point_info(struct chart *c, size_t k, const char *text);
/* A text label at a data position (e.g. "ideal" at the end of a line). */
int chart_note(struct chart *c, double x, double y, const char *text);

/* Bars: groups are the categories along the axis; super labels a second
 * row under them (consecutive equal ones merge, e.g. the strategy). */
int chart_group(struct chart *c, const char *label, const char *super);
/* One value per group (NAN: no bar); lo/hi optional whiskers. */
int chart_bars(struct chart *c, const char *name, int color, int hatched,
	       const double *v, const double *lo, const double *hi);
void chart_stacked(struct chart *c, int stacked);
/* Prints each bar's value (printf format, e.g. "%.0f%%") on or above it. */
int chart_value_labels(struct chart *c, const char *fmt);
/* Bars start at base instead of 0 (e.g. ratios from 1); the value axis
 * then need not include 0. */
void chart_bar_base(struct chart *c, double base);
/* Every group has at most one series with a value: the series share the
 * group's slot (one bar per row, coloured by its series). */
void chart_bars_overlap(struct chart *c, int overlap);
/* Shades the span lo..hi of the value axis (e.g. a threshold band). */
void chart_band(struct chart *c, double lo, double hi);
/* A reference line across the value axis (e.g. ratio 1). */
int chart_ref(struct chart *c, double value, const char *label);

/* Icicle: a cell under parent (-1: a root; a parent is added before its
 * children) worth value. Roots share the plot width by value; children
 * lie left to right under their parent in the order added, width ∝
 * value (children may leave part of the parent bare). Labels are clipped
 * to the cell and left out when it is narrower than three characters.
 * Returns the cell's index (for its children), or -1 (no such parent,
 * a negative value, or out of memory, which marks the chart failed). */
long chart_cell(struct chart *c, long parent, double value, const char *label, int color);

/* Draws into the rectangle (0,0)-(w,h) of cr, in points. -1 when the
 * chart failed, before (nothing drawn) or while drawing (out of memory). */
int chart_draw(struct chart *c, cairo_t *cr, double w, double h);

/* 1 when c is NULL or ran out of memory while built or drawn. */
int chart_failed(const struct chart *c);
/* Marks c failed (a builder out of memory for the data it was about to
 * add) and returns -1. */
int chart_fail(struct chart *c);

/* After chart_draw: the plot area in the drawing's units and the data
 * range it maps (the value axis is ymin..ymax, drawn along x for HBARS). */
struct chart_frame {
	double x0, y0, x1, y1;   /* plot rectangle, y0 top */
	double xmin, xmax, ymin, ymax;
	enum chart_scale xscale, yscale;
	double legend_x0, legend_y0, legend_x1, legend_y1;
};
void chart_get_frame(const struct chart *c, struct chart_frame *f);

/* Files; w/h in points. PNG at dpi (150 in the report). Written to a
 * temporary file renamed into place (outfile.h); a failed chart writes
 * no file: -1 with "PATH: out of memory". */
int chart_write_png(struct chart *c, const char *path, double w, double h, double dpi,
		    struct amd_err *err);
int chart_write_svg(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err);
int chart_write_pdf(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err);
/* The same into an output file opened with amd_out_open, which each
 * commits (or discards on failure). */
int chart_out_png(struct chart *c, struct amd_out *o, double w, double h, double dpi,
		  struct amd_err *err);
int chart_out_svg(struct chart *c, struct amd_out *o, double w, double h, struct amd_err *err);
int chart_out_pdf(struct chart *c, struct amd_out *o, double w, double h, struct amd_err *err);
/* The chart as an <svg> element for an HTML page (chart_svg.c), w × h
 * points, with id as its id and the prefix of every id inside: the
 * same drawing in layers (an XY chart's x axis in class "xaxis", class
 * "base", then a <g class="series" data-s=K> per series), its strings as
 * <text> elements, a transparent target per point, bar or band sample
 * (class "hit", bands' also "band": data-s, data-i, data-x or
 * data-group, data-v, data-lo, data-hi, data-name, data-info (chart_point_info)
 * and a <title>) and
 * per legend entry (class "legend-hit", data-s); an XY chart's <svg>
 * says where its plot is (data-plot "x0 y0 x1 y1"), its x range
 * (data-xrange), value range (data-yrange) and scales (data-xscale,
 * data-yscale). Appended to out; -1
 * when out of memory (the chart is then failed). */
struct amd_buf;
int chart_svg_markup(struct chart *c, double w, double h, const char *id, struct amd_buf *out);
/* The same for an XY chart with a log axis, drawn with linear axes (a
 * page's log/linear switch); 0 and nothing appended for any other chart. */
int chart_svg_markup_linear(struct chart *c, double w, double h, const char *id,
			    struct amd_buf *out);
/* Cairo's write callback into an output file (the closure: its struct
 * amd_out); a failed write's errno is kept in the amd_out. */
cairo_status_t chart_stream_write(void *out, const unsigned char *data, unsigned int n);
/* What a Cairo stream to out failed with: the write's own error (such as
 * "No space left on device") when one failed, else Cairo's status. */
const char *chart_stream_error(const struct amd_out *out, cairo_status_t st);

/* Okabe–Ito colour of palette index i (CHART_GREY: grey). */
void chart_color(int i, double rgb[3]);
/* WCAG 2 contrast ratio of two sRGB colours (1 to 21; AA text: 4.5). */
double chart_contrast(const double a[3], const double b[3]);
/* Text on a fill of palette colour i: white or black, whichever has the
 * higher WCAG contrast against it (every palette colour reaches AA). */
void chart_text_color_on(int i, double rgb[3]);
/* The font every chart and the report use. */
#define CHART_FONT "DejaVu Sans"

/* Selects CHART_FONT (bold or regular) at size points on cr. */
void chart_font(cairo_t *cr, double size, int bold);
/* The width s takes in cr's current font. */
double chart_text_width(cairo_t *cr, const char *s);
/* s made valid UTF-8 drawn through Pango (fonts chosen by fontconfig,
 * falling back per character: the one way text is drawn), its baseline
 * from the current point, which moves to its end. Widths and ascents
 * come from one layout context for every output (no hinting, unrounded
 * positions), so a string takes the same room in PNG, PDF and SVG. */
void chart_show_text(cairo_t *cr, const char *s);

/* The names shortened to fit while drawing on a cairo_t this list
 * watches (chart_shortened_watch; NULL stops): full[i] was drawn as
 * shown[i], each full name once — for a footnote under a PDF chart. */
struct chart_shortened {
	char **full, **shown;
	size_t n;
	int failed; /* out of memory: a name was not kept */
};
void chart_shortened_watch(cairo_t *cr, struct chart_shortened *w);
void chart_shortened_free(struct chart_shortened *w);

/* Pango's fonts freed (at exit, so that LeakSanitizer sees only real
 * leaks; Cairo's and fontconfig's static data stay: chart_text.c says
 * why); no text may be drawn after. */
void chart_text_release(void);

/* Nice 1-2-5 ticks covering [lo, hi]: returns the count written to t
 * (at most max), and the step. */
size_t chart_nice_ticks(double lo, double hi, int target, double *t, size_t max,
			double *step);

#endif
