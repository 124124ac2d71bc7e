/* chart_output.c — a chart as a file (chart.h): PNG at a given dpi,
 * SVG and PDF, each the one chart_draw on another Cairo surface. A
 * chart that failed (out of memory) writes no file. */
#include "chart.h"

#include <math.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

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

static int refused(const char *path, struct amd_err *err)
{
	return amd_fail(err, "%s: out of memory", path);
}

/* A vector file the surface wrote while the drawing failed goes. */
static int unwritten(const char *path, struct amd_err *err)
{
	unlink(path);
	return refused(path, err);
}

int chart_write_png(struct chart *c, const char *path, double w, double h, double dpi,
		    struct amd_err *err)
{
	if (chart_failed(c))
		return refused(path, err);
	double k = dpi / 72.0;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * k),
							(int)ceil(h * k));
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_scale(cr, k, k);
	if (chart_draw(c, cr, w, h) < 0) {
		cairo_destroy(cr);
		cairo_surface_destroy(s);
		return refused(path, err);
	}
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
	if (chart_failed(c))
		return refused(path, err);
	cairo_surface_t *s = cairo_svg_surface_create(path, w, h);
	cairo_t *cr = cairo_create(s);
	int drawn = chart_draw(c, cr, w, h);
	int rc = finish(s, cr, path, err);
	return drawn < 0 ? unwritten(path, err) : rc;
}

int chart_write_pdf(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err)
{
	if (chart_failed(c))
		return refused(path, err);
	cairo_surface_t *s = cairo_pdf_surface_create(path, w, h);
	cairo_t *cr = cairo_create(s);
	int drawn = chart_draw(c, cr, w, h);
	cairo_show_page(cr);
	int rc = finish(s, cr, path, err);
	return drawn < 0 ? unwritten(path, err) : rc;
}
