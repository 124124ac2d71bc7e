/* chart_style.h — the look every chart shares, private to the engine:
 * padding and font sizes, the palette as a Cairo source (chart_style.c),
 * and text drawn at an anchor or shortened in the middle to fit
 * (chart_text.c, through Pango). The public parts (chart_color,
 * chart_font, chart_text_width, chart_shortened_watch) are in chart.h. */
#ifndef AMD_CHART_STYLE_H
#define AMD_CHART_STYLE_H

#include <cairo.h>
#include <stddef.h>

#define PAD 8.0
#define FS_TITLE 11.5
#define FS_SUB 8.5
#define FS_LABEL 9.5
#define FS_TICK 8.5
#define FS_LEGEND 8.5
#define FS_VALUE 7.5

/* Text drawn while a recorder hangs on the cairo_t (chart_svg.c): each
 * string goes to rec->text at cr's current point, font and source
 * instead of being drawn as glyphs. */
struct chart_text_rec {
	void (*text)(struct chart_text_rec *rec, cairo_t *cr, const char *s);
};
extern const cairo_user_data_key_t chart_text_rec_key;

/* Palette colour i (CHART_GREY: grey) at alpha as cr's source. */
void chart_set_color(cairo_t *cr, int i, double alpha);

/* Draws s with its anchor at (x, y): ha 0 left, .5 centre, 1 right; va 0
 * top, .5 middle, 1 bottom of the font's cap height. */
void chart_text(cairo_t *cr, double x, double y, const char *s, double ha, double va);

/* The ascent of cr's current font (chart_font), as Pango measures it. */
double chart_text_ascent(cairo_t *cr);

/* s shortened in the middle ("head…tail") to fit room points, cut where
 * a word ends or begins when that keeps at least half of each side, on a
 * character (grapheme) boundary otherwise; a name shortened is told to
 * the watcher hung on cr (chart_shortened_watch). */
void chart_fit_label(cairo_t *cr, const char *s, double room, char *buf, size_t n);

#endif
