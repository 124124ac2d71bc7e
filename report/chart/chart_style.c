/* chart_style.c — the palette (Okabe–Ito), the font, and text placed
 * at an anchor or fitted to a width; see chart_style.h. */
#include "chart_style.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "text_safe.h"

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

void chart_set_color(cairo_t *cr, int i, double alpha)
{
	double rgb[3];
	chart_color(i, rgb);
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}

void chart_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* s, or a valid UTF-8 copy of it in *copy (Cairo refuses invalid
 * UTF-8 and fails the whole surface); NULL when out of memory. */
static const char *valid_text(const char *s, char **copy)
{
	*copy = NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x80)
			return (*copy = amd_utf8_valid_dup(s));
	return s;
}

double chart_text_width(cairo_t *cr, const char *s)
{
	char *copy;
	const char *t = valid_text(s, &copy);
	cairo_text_extents_t e = {0};
	if (t)
		cairo_text_extents(cr, t, &e);
	free(copy);
	return e.x_advance;
}

/* The key under which chart_svg.c hangs its text recorder on a cairo_t. */
const cairo_user_data_key_t chart_text_rec_key;

void chart_show_text(cairo_t *cr, const char *s)
{
	char *copy;
	const char *t = valid_text(s, &copy);
	struct chart_text_rec *rec = cairo_get_user_data(cr, &chart_text_rec_key);
	if (t && rec)
		rec->text(rec, cr, t); /* the SVG for HTML: real text, not glyph outlines */
	else if (t)
		cairo_show_text(cr, t);
	free(copy);
}

void chart_text(cairo_t *cr, double x, double y, const char *s, double ha, double va)
{
	cairo_font_extents_t fe;
	cairo_font_extents(cr, &fe);
	double cap = fe.ascent * 0.78;
	cairo_move_to(cr, x - chart_text_width(cr, s) * ha, y + cap * (1 - va));
	chart_show_text(cr, s);
}

/* The longest prefix of s shorter than n bytes that ends on a UTF-8
 * character boundary, into buf. */
static void utf8_prefix(const char *s, size_t len, char *buf, size_t n)
{
	size_t k = len < n ? len : n - 1;
	while (k > 0 && k < len && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	memcpy(buf, s, k);
	buf[k] = '\0';
}

void chart_fit_label(cairo_t *cr, const char *s, double room, char *buf, size_t n)
{
	if (n == 0)
		return;
	size_t len = strlen(s);
	utf8_prefix(s, len, buf, n);
	if ((len < n && chart_text_width(cr, buf) <= room) || n < 16)
		return;
	/* at most n tries: the kept bytes never exceed the buffer */
	for (size_t keep = len < n - 4 ? len : n - 4; keep > 4; keep--) {
		size_t head = keep * 2 / 3, tail = keep - head;
		while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
			head--;
		size_t from = len - tail;
		while (from < len && ((unsigned char)s[from] & 0xC0) == 0x80)
			from++;
		snprintf(buf, n, "%.*s…%s", (int)head, s, s + from);
		if (chart_text_width(cr, buf) <= room)
			return;
	}
}
