/* pdf.c — the page writer of pdf.h: layout state (current y, page
 * number), word wrapping by measured text width, and the table renderer. */
#include "pdf.h"

#include <cairo-pdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A4_W 595.0
#define A4_H 842.0
#define BOTTOM 52.0

static void footer(struct pdf *d)
{
	char buf[300];
	chart_font(d->cr, 7.5, 0);
	cairo_set_source_rgb(d->cr, 0.45, 0.45, 0.45);
	cairo_move_to(d->cr, d->margin, d->h - 28);
	cairo_show_text(d->cr, d->footer);
	snprintf(buf, sizeof buf, "page %d", d->page);
	cairo_move_to(d->cr, d->w - d->margin - chart_text_width(d->cr, buf), d->h - 28);
	cairo_show_text(d->cr, buf);
}

int pdf_open(struct pdf *d, const char *path, const char *title, const char *foot,
	     struct amd_err *err)
{
	memset(d, 0, sizeof *d);
	d->w = A4_W;
	d->h = A4_H;
	d->margin = 50;
	d->surface = cairo_pdf_surface_create(path, d->w, d->h);
	if (cairo_surface_status(d->surface) != CAIRO_STATUS_SUCCESS) {
		int rc = amd_fail(err, "%s: %s", path,
				  cairo_status_to_string(cairo_surface_status(d->surface)));
		cairo_surface_destroy(d->surface);
		return rc;
	}
	cairo_pdf_surface_set_metadata(d->surface, CAIRO_PDF_METADATA_TITLE, title);
	cairo_pdf_surface_set_metadata(d->surface, CAIRO_PDF_METADATA_CREATOR, "amdahl");
	d->cr = cairo_create(d->surface);
	snprintf(d->footer, sizeof d->footer, "%s", foot);
	d->page = 1;
	d->y = d->margin;
	return 0;
}

int pdf_close(struct pdf *d, const char *path, struct amd_err *err)
{
	footer(d);
	cairo_show_page(d->cr);
	cairo_status_t st = cairo_status(d->cr);
	cairo_destroy(d->cr);
	cairo_surface_finish(d->surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(d->surface);
	cairo_surface_destroy(d->surface);
	if (st != CAIRO_STATUS_SUCCESS)
		return amd_fail(err, "%s: %s", path, cairo_status_to_string(st));
	if (d->failed)
		return amd_fail(err, "%s: out of memory", path);
	return 0;
}

void pdf_new_page(struct pdf *d)
{
	footer(d);
	cairo_show_page(d->cr);
	d->page++;
	d->y = d->margin;
}

void pdf_need(struct pdf *d, double h)
{
	if (d->y + h > d->h - BOTTOM && d->y > d->margin + 1)
		pdf_new_page(d);
}

void pdf_space(struct pdf *d, double h)
{
	d->y += h;
}

void pdf_heading(struct pdf *d, const char *text, int level)
{
	double size = level == 0 ? 18 : level == 1 ? 13 : 10.5;
	pdf_need(d, size * 4);
	if (d->y > d->margin + 1)
		d->y += size * 0.6;
	chart_font(d->cr, size, 1);
	cairo_set_source_rgb(d->cr, 0.08, 0.08, 0.08);
	d->y += size;
	cairo_move_to(d->cr, d->margin, d->y);
	cairo_show_text(d->cr, text);
	d->y += size * 0.55;
}

/* Draws text wrapped to the width from x0; returns the lines drawn. */
static int wrap(struct pdf *d, const char *text, double x0, double size)
{
	double maxw = d->w - d->margin - x0, lead = size * 1.38;
	char *copy = strdup(text), *line = calloc(1, strlen(text) + 2);
	int lines = 0;
	if (!copy || !line) {
		d->failed = 1;
		goto out;
	}
	char *save = NULL;
	for (char *word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		size_t len = strlen(line);
		if (len)
			strcat(line, " ");
		strcat(line, word);
		if (len && chart_text_width(d->cr, line) > maxw) {
			line[len] = '\0';
			pdf_need(d, lead);
			d->y += lead;
			cairo_move_to(d->cr, x0, d->y);
			cairo_show_text(d->cr, line);
			lines++;
			strcpy(line, word);
		}
	}
	if (*line) {
		pdf_need(d, lead);
		d->y += lead;
		cairo_move_to(d->cr, x0, d->y);
		cairo_show_text(d->cr, line);
		lines++;
	}
out:
	free(copy);
	free(line);
	return lines;
}

void pdf_paragraph(struct pdf *d, const char *text, double size, double grey)
{
	chart_font(d->cr, size, 0);
	cairo_set_source_rgb(d->cr, grey, grey, grey);
	wrap(d, text, d->margin, size);
	d->y += size * 0.5;
}

void pdf_bullet(struct pdf *d, const char *text, double size)
{
	chart_font(d->cr, size, 0);
	pdf_need(d, size * 2.8);
	cairo_set_source_rgb(d->cr, 0.1, 0.1, 0.1);
	cairo_new_path(d->cr); /* no line from where the last text ended */
	cairo_arc(d->cr, d->margin + 4, d->y + size * 1.38 - size * 0.33, 1.6, 0, 6.2832);
	cairo_fill(d->cr);
	wrap(d, text, d->margin + 12, size);
	d->y += size * 0.35;
}

void pdf_chart(struct pdf *d, struct chart *c, double w, double h, const char *caption)
{
	pdf_need(d, h + 44);
	cairo_save(d->cr);
	cairo_translate(d->cr, d->margin, d->y);
	if (chart_draw(c, d->cr, w, h) < 0)
		d->failed = 1;
	cairo_restore(d->cr);
	d->y += h;
	if (caption && *caption)
		pdf_paragraph(d, caption, 8.5, 0.25);
	d->y += 10;
}

/* ---- tables (lib/core/table.h) ---- */

/* Row r of the drawing: 0 the headers, then the body rows. */
static const char *cell(const struct amd_table *t, size_t r, size_t c)
{
	return r == 0 ? t->head[c] : amd_table_cell(t, r - 1, c);
}

/* Shortens s in the middle ("abc…xyz") to fit maxw; writes into buf (n
 * bytes, at least 16). The tries start at what buf can hold, so a cell of
 * megabytes (a run's list of 100 k flagged epochs) costs what one of n
 * bytes costs. */
static void ellipsize(cairo_t *cr, const char *s, double maxw, char *buf, size_t n)
{
	snprintf(buf, n, "%s", s);
	size_t len = strlen(s);
	if (chart_text_width(cr, buf) <= maxw || len < 8)
		return;
	size_t top = len - 1 < n - 4 ? len - 1 : n - 4; /* "…" is 3 bytes, then NUL */
	for (size_t keep = top; keep > 6; keep--) {
		size_t head = keep / 3, tail = keep - head;
		snprintf(buf, n, "%.*s…%s", (int)head, s, s + len - tail);
		if (chart_text_width(cr, buf) <= maxw)
			return;
	}
}

static void draw_row(struct pdf *d, const struct amd_table *t, size_t r, const double *w,
		     double size, double lead)
{
	double x = d->margin, pad = 5;
	d->y += lead;
	chart_font(d->cr, size, r == 0);
	cairo_set_source_rgb(d->cr, 0.1, 0.1, 0.1);
	for (size_t c = 0; c < t->ncols; c++) {
		char buf[1024];
		ellipsize(d->cr, cell(t, r, c), w[c] - pad, buf, sizeof buf);
		double tw = chart_text_width(d->cr, buf);
		cairo_move_to(d->cr, t->right[c] ? x + w[c] - pad - tw : x, d->y);
		cairo_show_text(d->cr, buf);
		x += w[c];
	}
	if (r == 0) {
		cairo_set_source_rgb(d->cr, 0.4, 0.4, 0.4);
		cairo_set_line_width(d->cr, 0.6);
		cairo_move_to(d->cr, d->margin, d->y + lead * 0.32);
		cairo_line_to(d->cr, x - pad, d->y + lead * 0.32);
		cairo_stroke(d->cr);
		d->y += lead * 0.3;
	}
}

/* Column widths at *size; a table wider than the page shortens its
 * elastic column, or else is set in a smaller font (down to 5.5 pt). */
static void column_widths(struct pdf *d, const struct amd_table *t, double *size, double *w)
{
	double pad = 5, total = 0, avail = d->w - 2 * d->margin + pad;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = 0;
		for (size_t r = 0; r <= t->nrows; r++) {
			chart_font(d->cr, *size, r == 0);
			double cw = chart_text_width(d->cr, cell(t, r, c)) + pad + 4;
			if (cw > w[c])
				w[c] = cw;
		}
		total += w[c];
	}
	if (total > avail && t->elastic >= 0 && (size_t)t->elastic < t->ncols) {
		double rest = total - w[t->elastic];
		w[t->elastic] = avail - rest > 40 ? avail - rest : 40;
	} else if (total > avail && *size > 5.6) {
		*size = *size * avail / total > 5.5 ? *size * avail / total : 5.5;
		column_widths(d, t, size, w);
	}
}

/* A faint band behind body row r (every other row). */
static void band(struct pdf *d, const struct amd_table *t, const double *w, double lead)
{
	double total = 0;
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c];
	cairo_rectangle(d->cr, d->margin - 2, d->y + lead * 0.28, total - 3, lead);
	cairo_set_source_rgb(d->cr, 0.955, 0.955, 0.955);
	cairo_fill(d->cr);
}

void pdf_table_draw(struct pdf *d, const struct amd_table *t, double font_size)
{
	double *w = amd_table_ok(t) ? calloc(t->ncols ? t->ncols : 1, sizeof *w) : NULL;
	if (!w) {
		d->failed = 1;
		return;
	}
	double size = font_size;
	column_widths(d, t, &size, w);
	double lead = font_size * 1.45; /* the leading of the size asked for */
	pdf_need(d, lead * 3);
	draw_row(d, t, 0, w, size, lead);
	for (size_t r = 1; r <= t->nrows; r++) {
		if (d->y + lead > d->h - BOTTOM) {
			pdf_new_page(d);
			draw_row(d, t, 0, w, size, lead);
		}
		if (r % 2 == 0)
			band(d, t, w, lead);
		draw_row(d, t, r, w, size, lead);
	}
	d->y += lead * 0.8;
	free(w);
	for (size_t i = 0; i < t->nnotes; i++)
		pdf_paragraph(d, t->notes[i], 8, 0.3);
}
