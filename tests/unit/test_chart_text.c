/* test_chart_text.c — text through Pango (report/chart/chart_text.c):
 * a string measures the same on a PNG (scaled to 150 dpi), a PDF and an
 * SVG surface; a Chinese/Japanese string is drawn with a font that has
 * its glyphs (a PDF holds a CJK font, not DejaVu's boxes); a name too
 * long for its room is shortened in the middle where words end or begin
 * (not inside "Distributed"), on character boundaries for CJK, fits the
 * room, and is told once, with its full form, to the watcher. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib.h>

#include "buf.h"
#include "chart.h"
#include "chart_style.h"

static const char *const samples[] = {
	"DistributedDataParallel_model.fsdp",
	"epoch time (s)",
	"分片训练-n8 完全シャーディング並列",
	"ddp: Amdahl fit",
};

static cairo_status_t discard(void *closure, const unsigned char *data, unsigned int n)
{
	return CAIRO_STATUS_SUCCESS;
}

/* The widths of samples[] on cr at 8.5 pt, regular and bold. */
static void widths(cairo_t *cr, double *w)
{
	size_t k = 0;
	for (int bold = 0; bold < 2; bold++)
		for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
			chart_font(cr, 8.5, bold);
			w[k++] = chart_text_width(cr, samples[i]);
		}
}

static void same_width_in_png_pdf_svg(void **state)
{
	double w[3][8];
	cairo_surface_t *s[3] = {
		cairo_image_surface_create(CAIRO_FORMAT_RGB24, 100, 100),
		cairo_pdf_surface_create_for_stream(discard, NULL, 100, 100),
		cairo_svg_surface_create_for_stream(discard, NULL, 100, 100),
	};
	for (int k = 0; k < 3; k++) {
		cairo_t *cr = cairo_create(s[k]);
		if (k == 0)
			cairo_scale(cr, 150 / 72.0, 150 / 72.0); /* as the PNG charts are drawn */
		widths(cr, w[k]);
		cairo_destroy(cr);
		cairo_surface_destroy(s[k]);
	}
	for (int i = 0; i < 8; i++) {
		assert_true(w[0][i] > 10);
		assert_true(w[0][i] == w[1][i]);
		assert_true(w[0][i] == w[2][i]);
	}
	assert_true(w[0][4] > w[0][0]); /* bold is wider: the weight is used */
}

/* The font names a PDF of s holds (its /BaseFont entries). */
static char *pdf_fonts_of(const char *s)
{
	struct amd_buf out = {0};
	char path[] = "/tmp/test_chart_text_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	cairo_surface_t *surf = cairo_pdf_surface_create(path, 300, 50);
	cairo_t *cr = cairo_create(surf);
	chart_font(cr, 10, 0);
	cairo_move_to(cr, 5, 30);
	chart_show_text(cr, s);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
	gchar *pdf = NULL;
	gsize n = 0;
	assert_true(g_file_get_contents(path, &pdf, &n, NULL));
	for (const char *p = pdf; (p = memmem(p, n - (size_t)(p - pdf), "/BaseFont /", 11));) {
		p += 11;
		size_t k = strcspn(p, " \n/>");
		amd_buf_printf(&out, "%.*s\n", (int)k, p);
	}
	g_free(pdf);
	remove(path);
	return out.data ? out.data : strdup("");
}

static void cjk_is_drawn_with_a_cjk_font(void **state)
{
	char *latin = pdf_fonts_of("ddp-n8");
	char *cjk = pdf_fonts_of("分片训练 シャーディング");
	assert_non_null(strstr(latin, "DejaVuSans"));
	assert_null(strstr(latin, "WenQuanYi"));
	assert_non_null(strstr(cjk, "WenQuanYi")); /* fontconfig's fallback, Makefile DEB_BUILD */
	free(latin);
	free(cjk);
}

/* Draws fit_label of s into room on a fresh image surface; the result and
 * its width. */
static double fit(const char *s, double room, char *buf, size_t n, struct chart_shortened *w)
{
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
	cairo_t *cr = cairo_create(surf);
	chart_font(cr, 8.5, 0);
	chart_shortened_watch(cr, w);
	chart_fit_label(cr, s, room, buf, n);
	double width = chart_text_width(cr, buf);
	chart_shortened_watch(cr, NULL);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
	return width;
}

/* The word cuts of "DistributedDataParallel_model.fsdp". */
static int word_cut(const char *s, size_t at)
{
	static const size_t cuts[] = {0, 11, 15, 23, 24, 29, 30, 34};
	(void)s;
	for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++)
		if (cuts[i] == at)
			return 1;
	return 0;
}

static void shortened_at_word_boundaries(void **state)
{
	const char *s = "DistributedDataParallel_model.fsdp";
	char buf[128];
	/* from the room "Distributed…fsdp" takes (77 pt at 8.5 pt): below it
	 * no word cut keeps half of each side, and characters are cut */
	for (double room = 77; room < 140; room += 5) {
		double w = fit(s, room, buf, sizeof buf, NULL);
		const char *dots = strstr(buf, "…");
		assert_non_null(dots);
		assert_true(w <= room);
		size_t head = (size_t)(dots - buf);
		const char *tail = dots + strlen("…");
		assert_memory_equal(buf, s, head);
		assert_true(word_cut(s, head));
		assert_true(word_cut(s, strlen(s) - strlen(tail)));
		assert_string_equal(s + strlen(s) - strlen(tail), tail);
	}
}

static void cjk_shortened_on_characters_and_told(void **state)
{
	const char *s = "完全シャーディング並列データ並列ラッパー";
	char buf[128];
	struct chart_shortened w = {0};
	double width = fit(s, 60, buf, sizeof buf, &w);
	assert_true(width <= 60);
	assert_true(g_utf8_validate(buf, -1, NULL));
	assert_non_null(strstr(buf, "…"));
	assert_true(strncmp(buf, "完全", strlen("完全")) == 0);
	fit(s, 60, buf, sizeof buf, &w); /* told once */
	fit("ddp", 60, buf, sizeof buf, &w); /* fits: not told */
	assert_string_equal(buf, "ddp");
	assert_int_equal(w.n, 1);
	assert_string_equal(w.full[0], s);
	assert_true(strcmp(w.shown[0], s) != 0);
	chart_shortened_free(&w);
}

/* "epoch 2 (3.41304, modified z 79.6), epoch 5 (…)" as a report's
 * appendix listed outliers, count entries from first, with every
 * middle entry's value replaced by mid (NULL: its own). */
static char *epoch_list(size_t first, size_t count, const char *mid)
{
	struct amd_buf b = {0};
	for (size_t i = first; i < first + count; i++) {
		int end = i < first + 40 || i + 40 >= first + count;
		char v[32];
		snprintf(v, sizeof v, "%.6g", 3.41304 + (double)(i % 7) / 100);
		assert_int_equal(amd_buf_printf(&b, "%sepoch %zu (%s, modified z 79.6)",
						i > first ? ", " : "", 3 * i + 2,
						end || !mid ? v : mid),
				 0);
	}
	return b.data;
}

/* A label of megabytes (a run's 100,000 flagged epochs once reached a
 * table cell): shortened in a bounded time — the search over every pair
 * of cuts took more than 13 minutes on 2.7 MB; SIGALRM ends the test
 * long before that — to the same form as any long label, and only its
 * ends decide what is shown: two texts that differ only in the middle
 * are shown alike. */
static void megabyte_label_shortened_by_its_ends(void **state)
{
	char *big = epoch_list(0, 30000, NULL), *other = epoch_list(0, 30000, "7.5");
	assert_true(strlen(big) > 1000000);
	assert_true(strcmp(big, other) != 0); /* their middles differ */
	char buf[1024], buf2[1024];
	alarm(60);
	double w = fit(big, 234.3, buf, sizeof buf, NULL);
	fit(other, 234.3, buf2, sizeof buf2, NULL);
	alarm(0);
	assert_true(w <= 234.3);
	assert_string_equal(buf, buf2);
	const char *dots = strstr(buf, "…");
	assert_non_null(dots);
	size_t head = (size_t)(dots - buf), tail = strlen(dots + strlen("…"));
	assert_true(head > 0 && tail > 0);
	assert_memory_equal(buf, big, head);
	assert_string_equal(dots + strlen("…"), big + strlen(big) - tail);
	free(big);
	free(other);
}

/* Text drawn on any palette fill (or grey) meets WCAG AA (4.5:1). */
static void text_on_fills_meets_wcag_aa(void **state)
{
	for (int i = -1; i < CHART_PALETTE_SIZE; i++) {
		double bg[3], ink[3];
		chart_color(i, bg);
		chart_text_color_on(i, ink);
		assert_true(chart_contrast(ink, bg) >= 4.5);
	}
	static const double white[3] = {1, 1, 1}, orange[3] = {0xE6 / 255.0, 0x9F / 255.0, 0};
	assert_true(chart_contrast(white, orange) < 4.5); /* what white on orange gave */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_width_in_png_pdf_svg),
		cmocka_unit_test(cjk_is_drawn_with_a_cjk_font),
		cmocka_unit_test(shortened_at_word_boundaries),
		cmocka_unit_test(cjk_shortened_on_characters_and_told),
		cmocka_unit_test(megabyte_label_shortened_by_its_ends),
		cmocka_unit_test(text_on_fills_meets_wcag_aa),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	chart_text_release();
	return rc;
}
