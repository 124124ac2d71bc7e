/* chart_output.c — a chart as a file (chart.h): PNG at a given dpi,
 * SVG and PDF, each the one chart_draw on another Cairo surface,
 * streamed into an output file that is renamed into place only when
 * complete (outfile.h). A chart that failed (out of memory) writes no
 * file. */
#include "chart.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

cairo_status_t chart_stream_write(void *out, const unsigned char *data, unsigned int n)
{
	struct amd_out *o = out;
	if (fwrite(data, 1, n, o->f) == n)
		return CAIRO_STATUS_SUCCESS;
	if (!o->write_errno)
		o->write_errno = errno ? errno : EIO;
	return CAIRO_STATUS_WRITE_ERROR;
}

const char *chart_stream_error(const struct amd_out *out, cairo_status_t st)
{
	return out->write_errno ? strerror(out->write_errno) : cairo_status_to_string(st);
}

/* Ends the drawing; the file is renamed into place when all went well
 * (drawn is chart_draw's result), else dropped. */
static int finish(cairo_surface_t *s, cairo_t *cr, int drawn, struct amd_out *o,
		  struct amd_err *err)
{
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	int rc = 0;
	if (drawn < 0)
		rc = amd_fail(err, "%s: out of memory", o->shown);
	else if (st != CAIRO_STATUS_SUCCESS)
		rc = amd_fail(err, "%s: %s", o->shown, chart_stream_error(o, st));
	if (rc < 0) {
		amd_out_discard(o);
		return rc;
	}
	return amd_out_commit(o, err);
}

int chart_out_png(struct chart *c, struct amd_out *o, double w, double h, double dpi,
		  struct amd_err *err)
{
	double k = dpi / 72.0;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * k),
							(int)ceil(h * k));
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_scale(cr, k, k);
	int drawn = chart_failed(c) ? -1 : chart_draw(c, cr, w, h);
	if (drawn == 0) {
		cairo_surface_flush(s);
		cairo_status_t st = cairo_surface_write_to_png_stream(s, chart_stream_write, o);
		if (st != CAIRO_STATUS_SUCCESS) {
			cairo_destroy(cr);
			cairo_surface_destroy(s);
			amd_fail(err, "%s: cannot write PNG: %s", o->shown, chart_stream_error(o, st));
			amd_out_discard(o);
			return -1;
		}
	}
	return finish(s, cr, drawn, o, err);
}

int chart_out_svg(struct chart *c, struct amd_out *o, double w, double h, struct amd_err *err)
{
	cairo_surface_t *s = cairo_svg_surface_create_for_stream(chart_stream_write, o, w, h);
	cairo_t *cr = cairo_create(s);
	int drawn = chart_failed(c) ? -1 : chart_draw(c, cr, w, h);
	return finish(s, cr, drawn, o, err);
}

int chart_out_pdf(struct chart *c, struct amd_out *o, double w, double h, struct amd_err *err)
{
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(chart_stream_write, o, w, h);
	cairo_t *cr = cairo_create(s);
	int drawn = chart_failed(c) ? -1 : chart_draw(c, cr, w, h);
	cairo_show_page(cr);
	return finish(s, cr, drawn, o, err);
}

int chart_write_png(struct chart *c, const char *path, double w, double h, double dpi,
		    struct amd_err *err)
{
	struct amd_out o;
	if (amd_out_open_path(&o, path, err) < 0)
		return -1;
	return chart_out_png(c, &o, w, h, dpi, err);
}

int chart_write_svg(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err)
{
	struct amd_out o;
	if (amd_out_open_path(&o, path, err) < 0)
		return -1;
	return chart_out_svg(c, &o, w, h, err);
}

int chart_write_pdf(struct chart *c, const char *path, double w, double h,
		    struct amd_err *err)
{
	struct amd_out o;
	if (amd_out_open_path(&o, path, err) < 0)
		return -1;
	return chart_out_pdf(c, &o, w, h, err);
}
