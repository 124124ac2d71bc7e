/* pdf.c — the page writer of pdf.h: layout state (current y, page
 * number), word wrapping by measured text width, and tables. */
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

/* ---- tables ---- */

struct pdf_table {
	int ncols, elastic;
	int *right;
	char **cells; /* rows * ncols; row 0 is the header */
	size_t rows, cap;
	double size;
	int failed; /* a row was lost: out of memory (the table is not drawn) */
};

struct pdf_table *pdf_table_new(int ncols, const char *const *headers, const int *right,
				int elastic, double font_size)
{
	struct pdf_table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->ncols = ncols;
	t->elastic = elastic;
	t->size = font_size;
	t->right = calloc((size_t)ncols, sizeof *t->right);
	if (!t->right) {
		free(t);
		return NULL;
	}
	if (right)
		memcpy(t->right, right, (size_t)ncols * sizeof *right);
	pdf_table_row(t, headers);
	return t;
}

void pdf_table_row(struct pdf_table *t, const char *const *cells)
{
	if (!t || t->failed)
		return;
	if (t->rows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char **v = realloc(t->cells, cap * (size_t)t->ncols * sizeof *t->cells);
		if (!v) {
			t->failed = 1;
			return;
		}
		t->cells = v;
		t->cap = cap;
	}
	for (int c = 0; c < t->ncols; c++) {
		char *cell = strdup(cells[c] ? cells[c] : "");
		t->failed |= !cell;
		t->cells[t->rows * (size_t)t->ncols + (size_t)c] = cell;
	}
	t->rows++;
}

void pdf_table_free(struct pdf_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->right);
	free(t);
}

static const char *cell(const struct pdf_table *t, size_t r, int c)
{
	return t->cells[r * (size_t)t->ncols + (size_t)c];
}

/* Shortens s in the middle ("abc…xyz") to fit maxw; writes into buf. */
static void ellipsize(cairo_t *cr, const char *s, double maxw, char *buf, size_t n)
{
	snprintf(buf, n, "%s", s);
	size_t len = strlen(s);
	if (chart_text_width(cr, buf) <= maxw || len < 8)
		return;
	for (size_t keep = len - 1; keep > 6; keep--) {
		size_t head = keep / 3, tail = keep - head;
		snprintf(buf, n, "%.*s…%s", (int)head, s, s + len - tail);
		if (chart_text_width(cr, buf) <= maxw)
			return;
	}
}

static void draw_row(struct pdf *d, const struct pdf_table *t, size_t r, const double *w,
		     double lead)
{
	double x = d->margin, pad = 5;
	d->y += lead;
	chart_font(d->cr, t->size, r == 0);
	cairo_set_source_rgb(d->cr, 0.1, 0.1, 0.1);
	for (int c = 0; c < t->ncols; c++) {
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

static void column_widths(struct pdf *d, struct pdf_table *t, double *w)
{
	double pad = 5, total = 0, avail = d->w - 2 * d->margin + pad;
	for (int c = 0; c < t->ncols; c++) {
		w[c] = 0;
		for (size_t r = 0; r < t->rows; r++) {
			chart_font(d->cr, t->size, r == 0);
			double cw = chart_text_width(d->cr, cell(t, r, c)) + pad + 4;
			if (cw > w[c])
				w[c] = cw;
		}
		total += w[c];
	}
	if (total > avail && t->elastic >= 0) {
		double rest = total - w[t->elastic];
		w[t->elastic] = avail - rest > 40 ? avail - rest : 40;
	} else if (total > avail && t->size > 5.6) { /* too wide: a smaller font */
		t->size = t->size * avail / total > 5.5 ? t->size * avail / total : 5.5;
		column_widths(d, t, w);
	}
}

void pdf_table_draw(struct pdf *d, struct pdf_table *t)
{
	if (!t || t->failed) { /* a table missing rows is not drawn */
		d->failed = 1;
		return;
	}
	double *w = calloc((size_t)t->ncols, sizeof *w), lead = t->size * 1.45;
	if (!w) {
		d->failed = 1;
		return;
	}
	column_widths(d, t, w);
	pdf_need(d, lead * 3);
	draw_row(d, t, 0, w, lead);
	for (size_t r = 1; r < t->rows; r++) {
		if (d->y + lead > d->h - BOTTOM) {
			pdf_new_page(d);
			draw_row(d, t, 0, w, lead);
		}
		if (r % 2 == 0) { /* a faint band on every other row */
			double total = 0;
			for (int c = 0; c < t->ncols; c++)
				total += w[c];
			cairo_rectangle(d->cr, d->margin - 2, d->y + lead * 0.28, total - 3, lead);
			cairo_set_source_rgb(d->cr, 0.955, 0.955, 0.955);
			cairo_fill(d->cr);
		}
		draw_row(d, t, r, w, lead);
	}
	d->y += lead * 0.8;
	free(w);
}
