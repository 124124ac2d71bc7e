/* chart_text.c — every string of the charts and the PDF, through Pango
 * (pangocairo): the font chosen on a cairo_t, the width a string takes,
 * the string drawn (with fontconfig's fallback, so CJK and other scripts
 * are glyphs, not boxes), placed at an anchor, or shortened in the middle
 * at word (else character) boundaries, with the shortened names told to
 * whoever watches (the PDF's footnotes). Text is laid out once in a
 * context of its own — identity matrix, no hinting, unrounded glyph
 * positions — so PNG, PDF and SVG share the same metrics; see chart.h and
 * chart_style.h. */
#include "chart_style.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <pango/pangocairo.h>

#include "chart.h"
#include "text_safe.h"

/* The layout that measures and draws a cairo_t's text, hung on it. */
struct text_layout {
	PangoLayout *layout;
	double size; /* the font set on layout: size and weight */
	int bold;
	double ascent;
	/* the text layout_width last set on layout and its width (NULL: none
	 * known): a cell of the PDF's tables is measured, fitted and drawn —
	 * three layouts of one string, a tenth of a big sweep's report */
	char *text;
	double width;
};

/* The layout's text is no longer the one remembered. */
static void forget_text(struct text_layout *t)
{
	free(t->text);
	t->text = NULL;
}

static const cairo_user_data_key_t layout_key;

static void text_layout_free(void *p)
{
	struct text_layout *t = p;
	g_object_unref(t->layout);
	forget_text(t);
	free(t);
}

/* A context whose metrics do not depend on the surface or its scale. */
static PangoContext *output_free_context(void)
{
	PangoContext *ctx = pango_font_map_create_context(pango_cairo_font_map_get_default());
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	pango_cairo_context_set_font_options(ctx, fo);
	cairo_font_options_destroy(fo);
	pango_context_set_round_glyph_positions(ctx, FALSE);
	return ctx;
}

static struct text_layout *layout_of(cairo_t *cr)
{
	struct text_layout *t = cairo_get_user_data(cr, &layout_key);
	if (t)
		return t;
	t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	PangoContext *ctx = output_free_context();
	t->layout = pango_layout_new(ctx);
	g_object_unref(ctx);
	pango_layout_set_single_paragraph_mode(t->layout, TRUE);
	if (cairo_set_user_data(cr, &layout_key, t, text_layout_free) != CAIRO_STATUS_SUCCESS) {
		text_layout_free(t);
		return NULL;
	}
	return t;
}

/* cr's layout set to the font chart_font chose on cr (kept in cr's own
 * font state, so cairo_save/cairo_restore restore it too). */
static struct text_layout *font_layout(cairo_t *cr)
{
	struct text_layout *t = layout_of(cr);
	if (!t)
		return NULL;
	cairo_matrix_t fm;
	cairo_get_font_matrix(cr, &fm);
	cairo_font_face_t *ff = cairo_get_font_face(cr);
	int bold = cairo_font_face_get_type(ff) == CAIRO_FONT_TYPE_TOY &&
		   cairo_toy_font_face_get_weight(ff) == CAIRO_FONT_WEIGHT_BOLD;
	if (t->size == fm.yy && t->bold == bold)
		return t;
	PangoFontDescription *d = pango_font_description_from_string(CHART_FONT);
	pango_font_description_set_absolute_size(d, fm.yy * PANGO_SCALE);
	pango_font_description_set_weight(d, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_layout_set_font_description(t->layout, d);
	forget_text(t);
	PangoFontMetrics *m = pango_context_get_metrics(pango_layout_get_context(t->layout), d, NULL);
	t->ascent = pango_font_metrics_get_ascent(m) / (double)PANGO_SCALE;
	pango_font_metrics_unref(m);
	pango_font_description_free(d);
	t->size = fm.yy;
	t->bold = bold;
	return t;
}

void chart_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* s, or a valid UTF-8 copy of it in *copy (Pango and Cairo refuse
 * invalid UTF-8); NULL when out of memory. */
static const char *valid_text(const char *s, char **copy)
{
	*copy = NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x80)
			return (*copy = amd_utf8_valid_dup(s));
	return s;
}

/* The width of valid UTF-8 t in t's layout (set to it). */
static double layout_width(struct text_layout *l, const char *t)
{
	if (l->text && strcmp(l->text, t) == 0)
		return l->width; /* laid out already, in this font */
	PangoRectangle logical;
	forget_text(l);
	pango_layout_set_text(l->layout, t, -1);
	pango_layout_line_get_extents(pango_layout_get_line_readonly(l->layout, 0), NULL, &logical);
	l->width = logical.width / (double)PANGO_SCALE;
	l->text = strdup(t); /* NULL: not remembered */
	return l->width;
}

double chart_text_width(cairo_t *cr, const char *s)
{
	char *copy;
	const char *t = valid_text(s, &copy);
	struct text_layout *l = t ? font_layout(cr) : NULL;
	double w = l ? layout_width(l, t) : 0;
	free(copy);
	return w;
}

double chart_text_ascent(cairo_t *cr)
{
	struct text_layout *l = font_layout(cr);
	return l ? l->ascent : 0;
}

/* The key under which chart_svg.c hangs its text recorder on a cairo_t. */
const cairo_user_data_key_t chart_text_rec_key;

/* Draws t's glyphs with the baseline's left end at the current point,
 * which then moves to the right end, as cairo_show_text leaves it. */
static void show_glyphs(cairo_t *cr, struct text_layout *l, const char *t)
{
	double x = 0, y = 0, w = layout_width(l, t);
	cairo_get_current_point(cr, &x, &y);
	cairo_save(cr); /* Pango sets its own scaled font on cr */
	pango_cairo_show_layout_line(cr, pango_layout_get_line_readonly(l->layout, 0));
	cairo_restore(cr);
	cairo_move_to(cr, x + w, y);
}

void chart_show_text(cairo_t *cr, const char *s)
{
	char *copy;
	const char *t = valid_text(s, &copy);
	struct chart_text_rec *rec = cairo_get_user_data(cr, &chart_text_rec_key);
	struct text_layout *l = t && !rec ? font_layout(cr) : NULL;
	if (t && rec)
		rec->text(rec, cr, t); /* the SVG for HTML: real text, not glyph outlines */
	else if (l)
		show_glyphs(cr, l, t);
	free(copy);
}

void chart_text(cairo_t *cr, double x, double y, const char *s, double ha, double va)
{
	double cap = chart_text_ascent(cr) * 0.78;
	cairo_move_to(cr, x - chart_text_width(cr, s) * ha, y + cap * (1 - va));
	chart_show_text(cr, s);
}

/* ---- shortening in the middle ---- */

static const cairo_user_data_key_t watch_key;

void chart_shortened_watch(cairo_t *cr, struct chart_shortened *w)
{
	cairo_set_user_data(cr, &watch_key, w, NULL);
}

/* Tells cr's watcher that full was drawn as shown (each name once). */
static void tell_shortened(cairo_t *cr, const char *full, const char *shown)
{
	struct chart_shortened *w = cairo_get_user_data(cr, &watch_key);
	if (!w || strcmp(full, shown) == 0)
		return;
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->full[i], full) == 0)
			return;
	char **f = realloc(w->full, (w->n + 1) * sizeof *f);
	char **s = f ? realloc(w->shown, (w->n + 1) * sizeof *s) : NULL;
	if (f)
		w->full = f;
	if (s)
		w->shown = s;
	char *fc = s ? strdup(full) : NULL, *sc = fc ? strdup(shown) : NULL;
	if (!sc) {
		free(fc);
		w->failed = 1;
		return;
	}
	w->full[w->n] = fc;
	w->shown[w->n++] = sc;
}

void chart_shortened_free(struct chart_shortened *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->full[i]);
		free(w->shown[i]);
	}
	free(w->full);
	free(w->shown);
	memset(w, 0, sizeof *w);
}

/* Marks in cut[from..to] where s[from..to) may be cut, as byte offsets
 * of character starts (from and to on character starts): cut[k] is 2
 * where a word ends or begins (Unicode word boundaries, and around
 * punctuation, spaces, '_' and a lower-to-upper case change), 1 at any
 * other character (grapheme) boundary, 0 inside a character. */
static void cut_span(PangoLayout *layout, const char *s, size_t from, size_t to, char *cut)
{
	pango_layout_set_text(layout, s + from, (int)(to - from));
	gint na = 0;
	const PangoLogAttr *a = pango_layout_get_log_attrs_readonly(layout, &na);
	gunichar prev = 0;
	size_t k = 0;
	for (const char *p = s + from; k < (size_t)na; k++) {
		size_t off = (size_t)(p - s);
		gunichar c = off < to ? g_utf8_get_char(p) : 0;
		int word = a[k].is_word_boundary || (prev && !g_unichar_isalnum(prev)) ||
			   (c && !g_unichar_isalnum(c)) ||
			   (g_unichar_islower(prev) && g_unichar_isupper(c));
		cut[off] = a[k].is_cursor_position ? (char)(1 + word) : 0;
		if (off >= to)
			break;
		prev = c;
		p = g_utf8_next_char(p);
	}
}

/* The start of the character holding s[k]. */
static size_t char_start(const char *s, size_t k)
{
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return k;
}

/* A text longer than this many times the output's bytes is cut only
 * within reach of its ends: what is kept of it never exceeds the output. */
#define LONG_TEXT 4

/* How far from either end of a text of len bytes a cut may be sought
 * when the output holds n bytes: all of it, or (a long text) 2n + 64
 * bytes — no fitting head or tail is longer, short of a run of spaces
 * longer than 64 bytes where it is cut. */
static size_t reach(size_t len, size_t n)
{
	return len > LONG_TEXT * n ? 2 * n + 64 : len;
}

/* Where s may be cut (cut_span), for a long text (reach) only near its
 * ends: so a label of megabytes costs what one of kilobytes does. */
static char *cut_points(PangoLayout *layout, const char *s, size_t len, size_t n)
{
	char *cut = calloc(len + 1, 1);
	if (!cut)
		return NULL;
	size_t r = reach(len, n);
	if (r >= len) {
		cut_span(layout, s, 0, len, cut);
		return cut;
	}
	cut_span(layout, s, 0, char_start(s, r), cut);
	cut[char_start(s, r)] = 0; /* the span's end, not the text's */
	size_t tail = char_start(s, len - r);
	cut_span(layout, s, tail, len, cut);
	cut[tail] = 0; /* the span's start */
	return cut;
}

/* The cut nearest to want within [lo, hi] (byte offsets), preferring
 * word cuts, searching down (dir -1) or up (dir 1) from want; want
 * itself when there is none. */
static size_t snap(const char *cut, size_t want, size_t lo, size_t hi, int dir)
{
	for (int level = 2; level >= 1; level--) {
		size_t far = dir < 0 ? lo : hi;
		for (size_t i = want;; i += (size_t)dir) {
			if (cut[i] >= level)
				return i;
			if (i == far)
				break;
		}
	}
	return want;
}

/* "head…tail": s's first head bytes and its bytes from from on, the
 * spaces and underscores next to the cut dropped, into buf (n bytes); 0, or -1 when it
 * does not fit buf. */
static int join_cut(const char *s, size_t len, size_t head, size_t from, char *buf, size_t n)
{
	while (head > 0 && (s[head - 1] == ' ' || s[head - 1] == '_'))
		head--;
	while (from < len && (s[from] == ' ' || s[from] == '_'))
		from++;
	int w = snprintf(buf, n, "%.*s…%s", (int)head, s, s + from);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* s as "head…tail" keeping about keep bytes, 2/3 of them in front,
 * written to buf (n bytes); 0, or -1 when it does not fit buf. */
static int middle_cut(const char *s, size_t len, const char *cut, size_t keep, char *buf,
		      size_t n)
{
	size_t head_want = keep * 2 / 3, tail_want = len - (keep - head_want);
	size_t head = snap(cut, head_want, head_want / 2, head_want, -1);
	size_t from = snap(cut, tail_want, tail_want, len - (keep - head_want) / 2, 1);
	return join_cut(s, len, head, from, buf, n);
}

/* The most bytes kept by "head…tail" cut on characters that fits room
 * (bisection on the bytes kept), written to buf. */
static size_t char_shorten(struct text_layout *l, const char *s, size_t len, const char *cut,
			   double room, char *buf, size_t n)
{
	size_t lo = 1, hi = reach(len, n) < len ? reach(len, n) : len - 1; /* the answer is in [lo, hi] */
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		if (middle_cut(s, len, cut, mid, buf, n) == 0 && layout_width(l, buf) <= room)
			lo = mid;
		else
			hi = mid - 1;
	}
	while (lo > 1 && middle_cut(s, len, cut, lo, buf, n) < 0)
		lo--;
	middle_cut(s, len, cut, lo, buf, n);
	return lo;
}

/* The best "head…tail" showing both ends that fits room, its tail
 * starting where a word does and its head ending at a cut of level at
 * least head_level (2 where a word ends, 1 any character), scored by the
 * bytes kept plus those of the shorter side; written to buf, the bytes
 * kept returned (0 when none fits). For each tail the longest fitting
 * head is found by bisection (a longer head only widens the text). */
static size_t both_ends(struct text_layout *l, const char *s, size_t len, const char *cut,
			int head_level, double room, char *buf, size_t n)
{
	size_t r = reach(len, n), last = r < len ? r : len;
	size_t *h = malloc((last + 1) * sizeof *h), m = 0;
	if (!h)
		return 0;
	for (size_t i = 1; i < last; i++)
		if (cut[i] >= head_level)
			h[m++] = i;
	size_t best = 0, best_h = 0, best_t = len, best_kept = 0;
	size_t k = m; /* heads h[0..k) end before the tail */
	for (size_t t = len - 1; t > len - r; t--) {
		if (cut[t] < 2)
			continue;
		while (k > 0 && h[k - 1] >= t)
			k--;
		if (k == 0 || join_cut(s, len, h[0], t, buf, n) < 0 || layout_width(l, buf) > room)
			continue;
		size_t lo = 0, hi = k - 1; /* the last fitting head is in [lo, hi] */
		while (lo < hi) {
			size_t mid = (lo + hi + 1) / 2;
			if (join_cut(s, len, h[mid], t, buf, n) == 0 && layout_width(l, buf) <= room)
				lo = mid;
			else
				hi = mid - 1;
		}
		size_t kept = h[lo] + (len - t), shorter = h[lo] < len - t ? h[lo] : len - t;
		if (kept + shorter > best) {
			best = kept + shorter;
			best_h = h[lo];
			best_t = t;
			best_kept = kept;
		}
	}
	free(h);
	if (best)
		join_cut(s, len, best_h, best_t, buf, n);
	return best_kept;
}

/* Shortens valid UTF-8 s (longer than room or buf) into buf, showing
 * both ends: cut where words meet; else the tail from a word's start and
 * the head on any character; else both on characters — each only when it
 * keeps at least half of what cutting on characters keeps. */
static void shorten(struct text_layout *l, const char *s, double room, char *buf, size_t n)
{
	size_t len = strlen(s);
	forget_text(l); /* cut_points sets the layout's text */
	char *cut = cut_points(l->layout, s, len, n);
	char *alt = malloc(n);
	if (!cut || !alt) {
		free(cut);
		free(alt);
		return;
	}
	size_t by_char = char_shorten(l, s, len, cut, room, buf, n);
	for (int level = 2; level >= 1; level--)
		if (both_ends(l, s, len, cut, level, room, alt, n) * 2 >= by_char) {
			memcpy(buf, alt, strlen(alt) + 1);
			break;
		}
	free(alt);
	free(cut);
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
	char *copy;
	const char *t = valid_text(s, &copy);
	struct text_layout *l = t ? font_layout(cr) : NULL;
	size_t len = t ? strlen(t) : 0;
	utf8_prefix(t ? t : "", len, buf, n);
	if (l && n >= 16 && len > 2 && !(len < n && layout_width(l, buf) <= room)) {
		shorten(l, t, room, buf, n);
		tell_shortened(cr, t, buf);
	}
	free(copy);
}

/* The fonts go with the font map; Cairo's and fontconfig's static data
 * stay until exit. Pango 1.50 matches and sorts fonts on GLib worker
 * threads that may still hold fonts and patterns at this point: releasing
 * that data now (cairo_debug_reset_static_data, FcFini) trips their
 * assertions when anything is still held ("_cairo_hash_table_destroy:
 * live_entries == 0", seen once under ASan). What LeakSanitizer then
 * finds of fontconfig's configuration is named in tests/lsan.supp. */
void chart_text_release(void)
{
	pango_cairo_font_map_set_default(NULL);
}
