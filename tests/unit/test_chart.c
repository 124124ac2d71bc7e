/* test_chart.c — the chart engine draws where the numbers say: render
 * known data to PNG, read the pixels back and check the ideal line and
 * a bar at the pixel computed from the axis mapping (plot rectangle and
 * data range, mapped here independently: log2 for x, linear for y);
 * and a chart that ran out of memory is neither drawn nor written. */
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

#include "buf.h"
#include "chart.h"
#include "chart_scale.h"
#include "report.h"

#define DPI 150.0
#define K (DPI / 72.0)

struct img {
	cairo_surface_t *s;
	unsigned char *data;
	int w, h, stride;
};

static struct img load(const char *path)
{
	struct img im;
	im.s = cairo_image_surface_create_from_png(path);
	assert_int_equal(cairo_surface_status(im.s), CAIRO_STATUS_SUCCESS);
	im.data = cairo_image_surface_get_data(im.s);
	im.w = cairo_image_surface_get_width(im.s);
	im.h = cairo_image_surface_get_height(im.s);
	im.stride = cairo_image_surface_get_stride(im.s);
	return im;
}

/* Pixel at drawing coordinates (points), as 0..255 r, g, b. */
static void px(const struct img *im, double x, double y, int rgb[3])
{
	int ix = (int)floor(x * K), iy = (int)floor(y * K);
	assert_true(ix >= 0 && ix < im->w && iy >= 0 && iy < im->h);
	uint32_t v = *(uint32_t *)(im->data + (size_t)iy * (size_t)im->stride + (size_t)ix * 4);
	rgb[0] = (int)(v >> 16 & 255);
	rgb[1] = (int)(v >> 8 & 255);
	rgb[2] = (int)(v & 255);
}

static int is_white(const int c[3])
{
	return c[0] > 245 && c[1] > 245 && c[2] > 245;
}

static int near_color(const int c[3], int idx, int tol)
{
	double want[3];
	chart_color(idx, want);
	for (int i = 0; i < 3; i++)
		if (abs(c[i] - (int)lround(want[i] * 255)) > tol)
			return 0;
	return 1;
}

static double expect_x_log2(const struct chart_frame *f, double x)
{
	return f->x0 + (log2(x) - log2(f->xmin)) / (log2(f->xmax) - log2(f->xmin)) * (f->x1 - f->x0);
}

static double expect_y(const struct chart_frame *f, double y)
{
	return f->y1 - (y - f->ymin) / (f->ymax - f->ymin) * (f->y1 - f->y0);
}

/* A grey pixel of the ideal line within 1.5 pt above or below (x, y). */
static int grey_near(const struct img *im, double x, double y)
{
	for (double dy = -1.5; dy <= 1.5; dy += 0.25) {
		int c[3];
		px(im, x, y + dy, c);
		if (abs(c[0] - c[1]) < 12 && abs(c[1] - c[2]) < 12 && c[0] < 200)
			return 1;
	}
	return 0;
}

static void ideal_line_where_numbers_put_it(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8, 16}, ix[41], ideal[41];
	for (int i = 0; i <= 40; i++) /* the ideal S = n, sampled densely on the log axis */
		ix[i] = ideal[i] = pow(2, i / 10.0);
	double sp[] = {1, 1.8, 3.1, 4.9, 6.0}, lo[] = {1, 1.7, 2.9, 4.5, 5.5},
	       hi[] = {1, 1.9, 3.3, 5.3, 6.4};
	struct chart *c = chart_new(CHART_XY, "Speedup", "GPUs (n)", "speedup (×)");
	chart_xscale(c, CHART_LOG2);
	chart_yrange(c, NAN, NAN, 1);
	chart_series(c, "ideal", CHART_GREY, CS_LINE | CS_THIN, MARK_CIRCLE, 41, ix, ideal, NULL, NULL);
	chart_series(c, "ddp", 0, CS_LINE | CS_POINTS | CS_ERRBARS, MARK_CIRCLE, 5, n, sp, lo, hi);
	char path[] = "/tmp/test_chart_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 480, 300, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	struct img im = load(path);
	assert_int_equal(im.w, (int)ceil(480 * K));
	/* the y axis starts at 0 and covers the ideal 16 */
	assert_true(f.ymin == 0 && f.ymax >= 16);
	/* along the ideal line, between points (not only on markers) */
	double probes[] = {2.8, 5, 6, 12};
	for (size_t i = 0; i < 4; i++) {
		double x = expect_x_log2(&f, probes[i]);
		double y = expect_y(&f, probes[i]);
		assert_true(grey_near(&im, x, y));
		/* 8 pt below the line (a lower speedup) is not the line */
		int cbelow[3];
		px(&im, x, y + 12, cbelow);
		assert_false(abs(cbelow[0] - cbelow[1]) < 12 && cbelow[0] < 200 &&
			     abs(cbelow[1] - cbelow[2]) < 12);
	}
	/* the measured point n=8, S=4.9 is drawn in the first palette colour */
	int cp[3];
	px(&im, expect_x_log2(&f, 8) + 1.2, expect_y(&f, 4.9) + 1.2, cp);
	assert_true(near_color(cp, 0, 40));
	/* and the legend hides no data: none of the points lies inside it */
	for (size_t i = 0; i < 5; i++) {
		double x = expect_x_log2(&f, n[i]), y = expect_y(&f, sp[i]);
		assert_false(x >= f.legend_x0 && x <= f.legend_x1 && y >= f.legend_y0 &&
			     y <= f.legend_y1);
	}
	cairo_surface_destroy(im.s);
	chart_free(c);
	if (!getenv("CHART_TEST_KEEP"))
		unlink(path);
}

/* The report's speedup chart is log-log: the ideal S = n is the straight
 * diagonal; check it at the log2-mapped pixel and that y ticks are powers of 2. */
static void ideal_line_on_log_log(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8}, sp[] = {1, 1.9, 3.2, 4.1};
	struct chart *c = chart_new(CHART_XY, "Speedup", "n", "speedup (×)");
	chart_xscale(c, CHART_LOG2);
	chart_yscale(c, CHART_LOG2);
	chart_series(c, "ideal", CHART_GREY, CS_LINE | CS_THIN, MARK_CIRCLE, 4, n, n, NULL, NULL);
	chart_series(c, "ddp", 0, CS_LINE | CS_POINTS, MARK_CIRCLE, 4, n, sp, NULL, NULL);
	char path[] = "/tmp/test_loglog_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 480, 300, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	assert_int_equal(f.yscale, CHART_LOG2);
	assert_true(f.ymin < 1 && f.ymax > 8);
	struct img im = load(path);
	double probes[] = {3, 5, 6.5};
	for (size_t i = 0; i < 3; i++) {
		double x = expect_x_log2(&f, probes[i]);
		double y = f.y1 - (log2(probes[i]) - log2(f.ymin)) / (log2(f.ymax) - log2(f.ymin)) *
					  (f.y1 - f.y0);
		assert_true(grey_near(&im, x, y));
	}
	cairo_surface_destroy(im.s);
	chart_free(c);
	unlink(path);
}

static void bars_where_numbers_put_them(void **state)
{
	(void)state;
	double v[] = {12.5, 30, 7.25};
	struct chart *c = chart_new(CHART_BARS, "Energy", NULL, "energy per epoch (kJ)");
	chart_group(c, "1", "ddp");
	chart_group(c, "2", "ddp");
	chart_group(c, "4", "ddp");
	chart_bars(c, "energy", 2, 0, v, NULL, NULL);
	char path[] = "/tmp/test_bars_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 400, 260, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	struct img im = load(path);
	assert_true(f.ymin == 0 && f.ymax >= 30);
	double gw = (f.x1 - f.x0) / 3;
	for (int g = 0; g < 3; g++) {
		double xm = f.x0 + gw * (g + 0.5);
		double top = expect_y(&f, v[g]);
		int in[3], above[3];
		px(&im, xm, top + 2, in);    /* just inside the top edge */
		px(&im, xm, top - 2, above); /* just above it */
		assert_true(near_color(in, 2, 6));
		assert_true(is_white(above));
		/* the bar stands on zero */
		px(&im, xm, f.y1 - 2, in);
		assert_true(near_color(in, 2, 6));
	}
	cairo_surface_destroy(im.s);
	chart_free(c);
	if (!getenv("CHART_TEST_KEEP"))
		unlink(path);
}

static void stacked_bars_split_at_the_share(void **state)
{
	(void)state;
	double comp[] = {0.6, 0.25}, other[] = {0.4, 0.75};
	struct chart *c = chart_new(CHART_BARS, "Compute vs other", "n", "share of time (%)");
	chart_group(c, "1", NULL);
	chart_group(c, "2", NULL);
	chart_bars(c, "compute", 0, 0, comp, NULL, NULL);
	chart_bars(c, "other", CHART_GREY, 1, other, NULL, NULL);
	chart_stacked(c, 1);
	chart_yrange(c, 0, 1, 1);
	char path[] = "/tmp/test_stack_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 400, 260, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	struct img im = load(path);
	double gw = (f.x1 - f.x0) / 2;
	for (int g = 0; g < 2; g++) {
		double xm = f.x0 + gw * (g + 0.5) + 3;
		double split = expect_y(&f, comp[g]);
		int below[3], above[3];
		px(&im, xm, split + 2, below);
		px(&im, xm, split - 2, above);
		assert_true(near_color(below, 0, 6));
		assert_false(near_color(above, 0, 60));
		assert_false(is_white(above)); /* hatched "other" fills it */
	}
	cairo_surface_destroy(im.s);
	chart_free(c);
	if (!getenv("CHART_TEST_KEEP"))
		unlink(path);
}

/* Horizontal bars (baseline ratios, top functions): bar ends, whiskers
 * and the reference line where the value axis puts them. */
static void horizontal_bars_end_at_their_value(void **state)
{
	(void)state;
	double v[] = {1.25, 0.8}, lo[] = {1.1, 0.7}, hi[] = {1.4, 0.9};
	struct chart *c = chart_new(CHART_HBARS, "Ratio to baseline", NULL, "ratio (×)");
	chart_group(c, "epoch time ddp n=8", NULL);
	chart_group(c, "throughput ddp n=8", NULL);
	chart_bars(c, "ratio", 1, 0, v, lo, hi);
	chart_ref(c, 1, "no change");
	char path[] = "/tmp/test_hbars_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 420, 200, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	struct img im = load(path);
	assert_true(f.ymin == 0 && f.ymax >= 1.4);
	double gh = (f.y1 - f.y0) / 2;
	for (int g = 0; g < 2; g++) {
		double ym = f.y0 + gh * (g + 0.5) + 2; /* off the whisker line */
		double end = f.x0 + (v[g] - f.ymin) / (f.ymax - f.ymin) * (f.x1 - f.x0);
		int in[3], out[3];
		px(&im, end - 2, ym, in);
		assert_true(near_color(in, 1, 6));
		px(&im, f.x0 + 2, ym, in);
		assert_true(near_color(in, 1, 6));
		/* beyond the bar's end and its whisker: background */
		double past = f.x0 + (hi[g] + 0.06 * (f.ymax - f.ymin) - f.ymin) / (f.ymax - f.ymin) *
					    (f.x1 - f.x0);
		px(&im, past, ym, out);
		assert_false(near_color(out, 1, 60));
	}
	cairo_surface_destroy(im.s);
	chart_free(c);
	unlink(path);
}

/* Ratio bars from 1 (chart_bar_base), one per row in the colour of its
 * series (chart_bars_overlap), over a shaded band 0.95..1.05: each bar
 * spans 1..v at the mapped pixels and fills its whole row slot; the band
 * is grey where no bar is; outside both, white. */
static void ratio_bars_from_one_over_a_band(void **state)
{
	(void)state;
	double worse[] = {1.6, NAN, NAN}, better[] = {NAN, 0.7, NAN}, same[] = {NAN, NAN, 1.02};
	struct chart *c = chart_new(CHART_HBARS, "Candidate against baseline", NULL, "ratio (×)");
	chart_group(c, "epoch_time_s n=8", NULL);
	chart_group(c, "throughput n=8", NULL);
	chart_group(c, "speedup n=8", NULL);
	chart_bars(c, "regression", 3, 0, worse, NULL, NULL);
	chart_bars(c, "improvement", 2, 0, better, NULL, NULL);
	chart_bars(c, "no change", 0, 0, same, NULL, NULL);
	chart_bars_overlap(c, 1);
	chart_bar_base(c, 1);
	chart_band(c, 0.95, 1.05);
	chart_ref(c, 1, NULL);
	char path[] = "/tmp/test_ratio_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 420, 220, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	struct img im = load(path);
	/* the axis need not reach 0: it covers 0.7..1.6 */
	assert_true(f.ymin > 0 && f.ymin <= 0.7 && f.ymax >= 1.6);
	double gh = (f.y1 - f.y0) / 3;
#define VX(v) (f.x0 + ((v) - f.ymin) / (f.ymax - f.ymin) * (f.x1 - f.x0))
	const double val[] = {1.6, 0.7, 1.02};
	const int col[] = {3, 2, 0};
	for (int g = 0; g < 3; g++) {
		double ym = f.y0 + gh * (g + 0.5);
		int in[3], out[3];
		double a = fmin(VX(1), VX(val[g])), b = fmax(VX(1), VX(val[g]));
		px(&im, a + (b - a) * 0.3 + 0.6, ym + 3, in); /* inside, off the ref line */
		assert_true(near_color(in, col[g], 6));
		px(&im, val[g] > 1 ? b + 2 : a - 2, ym + 3, out); /* just past the end */
		assert_false(near_color(out, col[g], 60));
	}
	/* one slot per row: the bar is centred on its row (the series share it) */
	int top[3];
	px(&im, VX(1.3), f.y0 + gh * 0.5 - gh * 0.25, top);
	assert_true(near_color(top, 3, 6));
	/* the band is shaded where no bar covers it (above the first bar's top
	 * edge, inside its row), white beyond it */
	int band[3], white[3];
	px(&im, VX(0.97), f.y0 + 1.5, band);
	assert_true(band[0] < 240 && band[0] > 200 && band[0] == band[1] && band[1] == band[2]);
	px(&im, VX(0.9), f.y0 + 1.5, white);
	assert_true(is_white(white));
#undef VX
	cairo_surface_destroy(im.s);
	chart_free(c);
	unlink(path);
}

/* The pixel columns of row y (points) whose colour is palette idx: the
 * first and one past the last, in pixels (-1, -1: none). */
static void color_run(const struct img *im, double y, int idx, int *first, int *end)
{
	*first = *end = -1;
	for (int ix = 0; ix < im->w; ix++) {
		int c[3];
		px(im, (ix + 0.5) / K, y, c);
		if (!near_color(c, idx, 12))
			continue;
		if (*first < 0)
			*first = ix;
		*end = ix + 1;
	}
}

/* Icicle: the root spans the plot; a child is as wide as its share of
 * the root's value, starts at the root's left edge, its sibling right
 * after it, and the part no child covers stays white. */
static void icicle_widths_follow_the_values(void **state)
{
	(void)state;
	struct chart *c = chart_new(CHART_ICICLE, "calls", "width: thread-seconds", NULL);
	long root = chart_cell(c, -1, 100, "all", CHART_GREY);
	long a = chart_cell(c, root, 60, "train", 0);
	assert_true(chart_cell(c, root, 30, "load", 1) > a);
	assert_true(chart_cell(c, a, 20, "forward", 2) > a);
	assert_int_equal(chart_cell(c, 7, 1, "no such parent", 0), -1);
	char path[] = "/tmp/test_icicle_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	struct amd_err err = {{0}};
	assert_int_equal(chart_write_png(c, path, 500, 260, DPI, &err), 0);
	struct chart_frame f;
	chart_get_frame(c, &f);
	struct img im = load(path);
	int r0, r1;
	color_run(&im, f.y0 + 1.5, CHART_GREY, &r0, &r1);
	assert_true(abs(r0 - (int)lround(f.x0 * K)) <= 2);
	assert_true(abs(r1 - (int)lround(f.x1 * K)) <= 2);
	/* the first child's row: the first row down whose left edge is colour 0 */
	double y = f.y0 + 1.5;
	int cc[3];
	for (px(&im, f.x0 + 1, y, cc); !near_color(cc, 0, 12) && y < f.y1; px(&im, f.x0 + 1, y, cc))
		y += 0.5;
	assert_true(y < f.y1);
	y += 1.5; /* above the label */
	int a0, a1, b0, b1;
	color_run(&im, y, 0, &a0, &a1);
	color_run(&im, y, 1, &b0, &b1);
	double plot = (f.x1 - f.x0) * K;
	assert_true(abs(a0 - r0) <= 2);
	assert_true(fabs((a1 - a0) - 0.6 * plot) <= 2);
	assert_true(abs(b0 - a1) <= 2);
	assert_true(fabs((b1 - b0) - 0.3 * plot) <= 2);
	int bare[3];
	px(&im, f.x0 + (f.x1 - f.x0) * 0.95, y, bare);
	assert_true(is_white(bare));
	cairo_surface_destroy(im.s);
	chart_free(c);
	unlink(path);
}

static void nice_ticks_are_1_2_5(void **state)
{
	(void)state;
	double t[32], step;
	size_t n = chart_nice_ticks(0, 7.3, 5, t, 32, &step);
	assert_true(step == 2);
	assert_int_equal(n, 4);
	assert_true(t[0] == 0 && t[3] == 6);
	n = chart_nice_ticks(0.12, 0.93, 5, t, 32, &step);
	assert_true(fabs(step - 0.2) < 1e-12);
	assert_true(fabs(t[0] - 0.2) < 1e-12);
	n = chart_nice_ticks(0, 4500, 5, t, 32, &step);
	assert_true(step == 1000);
	assert_int_equal(n, 5);
}

/* Log-axis labels (step 0: powers of two): at most four significant
 * digits below 1, so 2^-9 reads "0.001953", not "0.00195312"; whole
 * numbers above 1 as they are. */
static void log_axis_labels_are_short(void **state)
{
	(void)state;
	char buf[32];
	chart_fmt_tick(buf, sizeof buf, ldexp(1, -9), 0, "");
	assert_string_equal(buf, "0.001953");
	chart_fmt_tick(buf, sizeof buf, ldexp(1, -5), 0, " s");
	assert_string_equal(buf, "0.03125 s");
	chart_fmt_tick(buf, sizeof buf, 0.5, 0, "");
	assert_string_equal(buf, "0.5");
	chart_fmt_tick(buf, sizeof buf, 131072, 0, "");
	assert_string_equal(buf, "131072");
	for (int e = -20; e < 0; e++) {
		chart_fmt_tick(buf, sizeof buf, ldexp(1, e), 0, "");
		assert_true(strlen(buf) <= 10);
		assert_true(fabs(strtod(buf, NULL) / ldexp(1, e) - 1) < 1e-3);
	}
}

/* A chart that ran out of memory (chart_fail, as a builder or a setter
 * marks it) takes nothing more, is not drawn and writes no file; the
 * functions accept the NULL a failed chart_new returns. */
static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* The page's SVG: one group per series, every string a <text> (escaped,
 * no glyph outlines), a target per point holding its exact value and
 * its interval, a legend button per named series, ids prefixed. */
static void svg_markup_has_text_layers_and_targets(void **state)
{
	(void)state;
	struct chart *c = chart_new(CHART_XY, "Epoch <time>", "workers", "time (s)");
	double x[] = {1, 2, 4}, y[] = {5.75, 2.9, 1.4}, lo[] = {5.5, 2.8, 1.3}, hi[] = {6, 3, 1.5};
	assert_int_equal(chart_series(c, "a<b & c", 0, CS_LINE | CS_POINTS | CS_ERRBARS,
				      MARK_CIRCLE, 3, x, y, lo, hi), 0);
	assert_int_equal(chart_point_info(c, 1, "runs: r1 (abc)"), 0);
	assert_int_equal(chart_series(c, "d", 1, CS_LINE | CS_POINTS, MARK_SQUARE, 3, x, x, NULL,
				      NULL), 0);
	struct amd_buf b = {0};
	assert_int_equal(chart_svg_markup(c, 495, 290, "chart-t", &b), 0);
	assert_int_equal(amd_buf_append(&b, "", 1), 0);
	const char *s = b.data;
	assert_int_equal(count(s, "<g class=\"series\""), 2);
	assert_int_equal(count(s, "class=\"hit\""), 6);
	assert_int_equal(count(s, "class=\"legend-hit\""), 2);
	assert_non_null(strstr(s, ">Epoch &lt;time&gt;</text>"));
	assert_non_null(strstr(s, ">a&lt;b &amp; c</text>"));
	assert_non_null(strstr(s, ">workers</text>"));
	assert_non_null(strstr(s, "data-v=\"2.8999999999999999\" data-lo=\"2.7999999999999998\" "
				  "data-hi=\"3\" data-x=\"2\" data-info=\"runs: r1 (abc)\""));
	assert_null(strstr(s, "glyph")); /* no text drawn as outlines */
	assert_null(strstr(s, "id=\"surface")); /* Cairo's ids carry the chart's prefix */
	assert_null(strstr(s, "a<b"));
	amd_buf_free(&b);
	chart_free(c);
}

/* A band gets a target per sample with the value of the line of its
 * colour, its interval and that line's info; the x axis is a layer of
 * its own; the <svg> says where its plot is; a log chart is drawn again
 * with linear axes, nothing for a linear one. */
static void svg_markup_bands_axis_layer_and_linear(void **state)
{
	(void)state;
	struct chart *c = chart_new(CHART_XY, "Speedup", "n", "S");
	chart_xscale(c, CHART_LOG2);
	double x[] = {1, 2, 4, 8}, y[] = {1, 1.9, 3.5, 6}, lo[] = {1, 1.7, 3.1, 5.2}, hi[] = {1, 2.1, 3.9, 6.6};
	assert_int_equal(chart_series(c, NULL, 0, CS_BAND, MARK_CIRCLE, 4, x, y, lo, hi), 0);
	assert_int_equal(chart_series(c, "ddp", 0, CS_LINE | CS_POINTS, MARK_CIRCLE, 4, x, y, NULL, NULL), 0);
	assert_int_equal(chart_point_info(c, 2, "runs: r4 (abc)"), 0);
	struct amd_buf b = {0};
	assert_int_equal(chart_svg_markup(c, 495, 290, "chart-s", &b), 0);
	assert_int_equal(amd_buf_append(&b, "", 1), 0);
	const char *s = b.data;
	/* n = 1: a band of no width has no target */
	assert_int_equal(count(s, "class=\"hit band\""), 3);
	assert_non_null(strstr(s, "data-v=\"3.5\" data-lo=\"3.1000000000000001\" data-hi=\"3.8999999999999999\" "
				  "data-x=\"4\" data-info=\"runs: r4 (abc)\" data-name=\"ddp\""));
	assert_int_equal(count(s, "<g class=\"xaxis\">"), 1);
	assert_true(strstr(s, "<g class=\"xaxis\">") < strstr(s, "<g class=\"base\">"));
	assert_non_null(strstr(s, "data-xscale=\"log2\" data-yscale=\"linear\""));
	assert_non_null(strstr(s, " data-plot=\""));
	struct amd_buf lin = {0};
	assert_int_equal(chart_svg_markup_linear(c, 495, 290, "chart-s-linear", &lin), 0);
	assert_int_equal(amd_buf_append(&lin, "", 1), 0);
	assert_non_null(strstr(lin.data, "id=\"chart-s-linear\""));
	assert_non_null(strstr(lin.data, "data-xscale=\"linear\" data-yscale=\"linear\""));
	amd_buf_free(&lin);
	chart_xscale(c, CHART_LINEAR); /* no log axis: no second drawing */
	assert_int_equal(chart_svg_markup_linear(c, 495, 290, "chart-s-linear", &lin), 0);
	assert_int_equal(lin.len, 0);
	amd_buf_free(&b);
	chart_free(c);
}

/* A chart of thousands of series is drawn in time linear in them: its
 * series' layers keep the frame the base layer computed (the legend's
 * size and place measured once, not once per series: 3,000 series took
 * minutes). Each layer still draws where the axes say: a series' point
 * targets sit where the plot rectangle and x range in the <svg> tag
 * map them (log2 for x, linear for y, mapped here independently). */
static void svg_markup_of_thousands_of_series_is_linear(void **state)
{
	(void)state;
	enum { S = 3000 };
	struct chart *c = chart_new(CHART_XY, "Epoch time", "workers", "time (s)");
	chart_xscale(c, CHART_LOG2);
	double x[] = {1, 2, 4, 8};
	for (int k = 0; k < S; k++) {
		double y[4];
		for (int j = 0; j < 4; j++)
			y[j] = 10.0 / x[j] + k * 0.001;
		char name[32];
		snprintf(name, sizeof name, "strategy_%d", k);
		assert_int_equal(chart_series(c, name, k % 8, CS_LINE | CS_POINTS, MARK_CIRCLE, 4, x, y,
					      NULL, NULL), 0);
	}
	alarm(60);
	struct amd_buf b = {0};
	assert_int_equal(chart_svg_markup(c, 495, 290, "chart-m", &b), 0);
	alarm(0);
	assert_int_equal(amd_buf_append(&b, "", 1), 0);
	const char *s = b.data;
	assert_int_equal(count(s, "<g class=\"series\""), S);
	assert_int_equal(count(s, "class=\"hit\""), 4 * S);
	double x0, y0, x1, y1, xmin, xmax, ymin, ymax;
	const char *plot = strstr(s, "data-plot=\"");
	assert_non_null(plot);
	assert_int_equal(sscanf(plot, "data-plot=\"%lf %lf %lf %lf\" data-xrange=\"%lf %lf\" data-yrange=\"%lf %lf\"",
				&x0, &y0, &x1, &y1, &xmin, &xmax, &ymin, &ymax), 8);
	const char *last = strstr(s, "data-s=\"2999\" data-i=\"3\"");
	assert_non_null(last);
	while (last > s && strncmp(last, "<circle", 7) != 0)
		last--;
	double cx, cy;
	assert_int_equal(sscanf(last, "<circle class=\"hit\" tabindex=\"0\" cx=\"%lf\" cy=\"%lf\"", &cx, &cy), 2);
	double want_x = x0 + (log2(8) - log2(xmin)) / (log2(xmax) - log2(xmin)) * (x1 - x0);
	double want_y = y1 - (10.0 / 8 + 2999 * 0.001 - ymin) / (ymax - ymin) * (y1 - y0);
	assert_true(fabs(cx - want_x) < 0.01);
	assert_true(fabs(cy - want_y) < 0.01);
	amd_buf_free(&b);
	chart_free(c);
}

static void failed_chart_is_neither_drawn_nor_written(void **state)
{
	(void)state;
	double v[] = {1, 2};
	struct amd_err err = {{0}};
	assert_true(chart_failed(NULL));
	assert_int_equal(chart_series(NULL, "a", 0, CS_LINE, MARK_CIRCLE, 2, v, v, NULL, NULL), -1);
	assert_int_equal(chart_group(NULL, "a", NULL), -1);
	assert_int_equal(chart_subtitle(NULL, "x"), -1);
	assert_int_equal(chart_cell(NULL, -1, 1, "all", 0), -1);
	chart_yrange(NULL, 0, 1, 1);
	assert_int_equal(chart_write_png(NULL, "/tmp/never.png", 100, 100, DPI, &err), -1);

	struct chart *c = chart_new(CHART_BARS, "t", NULL, "v");
	assert_false(chart_failed(c));
	assert_int_equal(chart_group(c, "1", NULL), 0);
	assert_int_equal(chart_group(c, "2", NULL), 0);
	assert_int_equal(chart_bars(c, "b", 0, 0, v, NULL, NULL), 0);
	assert_int_equal(chart_fail(c), -1);
	assert_true(chart_failed(c));
	assert_int_equal(chart_bars(c, "more", 1, 0, v, NULL, NULL), -1);

	char png[] = "/tmp/test_chart_XXXXXX.png", svg[] = "/tmp/test_chart_XXXXXX.svg";
	int fd = mkstemps(png, 4);
	assert_true(fd >= 0);
	close(fd);
	unlink(png);
	fd = mkstemps(svg, 4);
	assert_true(fd >= 0);
	close(fd);
	unlink(svg);
	assert_int_equal(chart_write_png(c, png, 200, 150, DPI, &err), -1);
	assert_non_null(strstr(err.msg, "out of memory"));
	assert_int_equal(chart_write_svg(c, svg, 200, 150, &err), -1);
	assert_int_equal(access(png, F_OK), -1);
	assert_int_equal(access(svg, F_OK), -1);

	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
	cairo_t *cr = cairo_create(s);
	assert_int_equal(chart_draw(c, cr, 10, 10), -1);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	chart_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ideal_line_where_numbers_put_it),
		cmocka_unit_test(ideal_line_on_log_log),
		cmocka_unit_test(bars_where_numbers_put_them),
		cmocka_unit_test(stacked_bars_split_at_the_share),
		cmocka_unit_test(horizontal_bars_end_at_their_value),
		cmocka_unit_test(ratio_bars_from_one_over_a_band),
		cmocka_unit_test(icicle_widths_follow_the_values),
		cmocka_unit_test(nice_ticks_are_1_2_5),
		cmocka_unit_test(log_axis_labels_are_short),
		cmocka_unit_test(failed_chart_is_neither_drawn_nor_written),
		cmocka_unit_test(svg_markup_has_text_layers_and_targets),
		cmocka_unit_test(svg_markup_bands_axis_layer_and_linear),
		cmocka_unit_test(svg_markup_of_thousands_of_series_is_linear),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	report_release_fonts(); /* font caches: a clean exit for LeakSanitizer */
	return rc;
}
