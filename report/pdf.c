/* pdf.c — the page writer of pdf.h: layout state (current y, page
 * number), word wrapping by measured text width, and the table renderer. */
#include "pdf.h"
#include "chart_style.h"

#include <cairo-pdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define A4_W 595.0
#define A4_H 842.0
#define BOTTOM 52.0

static void footer(struct pdf *d)
{
	char buf[300];
	chart_font(d->cr, 7.5, 0);
	cairo_set_source_rgb(d->cr, 0.45, 0.45, 0.45);
	cairo_move_to(d->cr, d->margin, d->h - 28);
	chart_show_text(d->cr, d->footer);
	snprintf(buf, sizeof buf, "page %d", d->page);
	cairo_move_to(d->cr, d->w - d->margin - chart_text_width(d->cr, buf), d->h - 28);
	chart_show_text(d->cr, buf);
}

int pdf_open(struct pdf *d, const char *dir, const char *name, const char *title,
	     const char *foot, struct amd_err *err)
{
	memset(d, 0, sizeof *d);
	d->w = A4_W;
	d->h = A4_H;
	d->margin = 50;
	if (amd_out_open(&d->out, dir, name, err) < 0)
		return -1;
	d->surface = cairo_pdf_surface_create_for_stream(chart_stream_write, &d->out, d->w, d->h);
	if (cairo_surface_status(d->surface) != CAIRO_STATUS_SUCCESS) {
		int rc = amd_fail(err, "%s: %s", d->out.shown,
				  cairo_status_to_string(cairo_surface_status(d->surface)));
		cairo_surface_destroy(d->surface);
		amd_out_discard(&d->out);
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

int pdf_close(struct pdf *d, struct amd_err *err)
{
	footer(d);
	cairo_show_page(d->cr);
	cairo_status_t st = cairo_status(d->cr);
	cairo_destroy(d->cr);
	cairo_surface_finish(d->surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(d->surface);
	cairo_surface_destroy(d->surface);
	int rc = 0;
	if (st != CAIRO_STATUS_SUCCESS)
		rc = amd_fail(err, "%s: %s", d->out.shown, chart_stream_error(&d->out, st));
	else if (d->failed)
		rc = amd_fail(err, "%s: out of memory", d->out.shown);
	if (rc < 0) {
		amd_out_discard(&d->out);
		return rc;
	}
	return amd_out_commit(&d->out, err);
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
	chart_show_text(d->cr, text);
	d->y += size * 0.55;
}

/* Draws one line of wrapped text at x0 on a new baseline; a single
 * word wider than maxw is shortened with an ellipsis. */
static void wrapped_line(struct pdf *d, const char *line, double x0, double maxw, double lead)
{
	char fit[1024];
	pdf_need(d, lead);
	d->y += lead;
	cairo_move_to(d->cr, x0, d->y);
	if (chart_text_width(d->cr, line) > maxw) {
		chart_fit_label(d->cr, line, maxw, fit, sizeof fit);
		line = fit;
	}
	chart_show_text(d->cr, line);
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
			wrapped_line(d, line, x0, maxw, lead);
			lines++;
			strcpy(line, word);
		}
	}
	if (*line) {
		wrapped_line(d, line, x0, maxw, lead);
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

/* A footnote giving in full each name shortened to fit above, then
 * forgets them. */
static void shortened_note(struct pdf *d, struct chart_shortened *sh)
{
	chart_shortened_watch(d->cr, NULL);
	struct amd_buf b = {0};
	int rc = sh->failed ? -1 : amd_buf_printf(&b, "Shortened above, in full:");
	for (size_t i = 0; rc == 0 && i < sh->n; i++)
		rc = amd_buf_printf(&b, " \u201c%s\u201d is %s%s", sh->shown[i], sh->full[i],
				    i + 1 < sh->n ? ";" : ".");
	if (rc < 0)
		d->failed = 1;
	else if (sh->n)
		pdf_paragraph(d, b.data, 7.5, 0.3);
	amd_buf_free(&b);
	chart_shortened_free(sh);
}

void pdf_chart(struct pdf *d, struct chart *c, double w, double h, const char *caption)
{
	struct chart_shortened sh = {0};
	pdf_need(d, h + 44);
	cairo_save(d->cr);
	cairo_translate(d->cr, d->margin, d->y);
	chart_shortened_watch(d->cr, &sh);
	if (chart_draw(c, d->cr, w, h) < 0)
		d->failed = 1;
	chart_shortened_watch(d->cr, NULL);
	cairo_restore(d->cr);
	d->y += h;
	if (caption && *caption)
		pdf_paragraph(d, caption, 8.5, 0.25);
	shortened_note(d, &sh);
	d->y += 10;
}

/* ---- tables (lib/core/table.h) ---- */

/* Row r of the drawing: 0 the headers, then the body rows. */
static const char *cell(const struct amd_table *t, size_t r, size_t c)
{
	return r == 0 ? t->head[c] : amd_table_cell(t, r - 1, c);
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
		chart_fit_label(d->cr, cell(t, r, c), w[c] - pad, buf, sizeof buf);
		double tw = chart_text_width(d->cr, buf);
		cairo_move_to(d->cr, t->right[c] ? x + w[c] - pad - tw : x, d->y);
		chart_show_text(d->cr, buf);
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

/* The width cell (r, c) needs at size: its text (the heading, row 0, in
 * bold) and the gap draw_row leaves after it. */
static double cell_width(struct pdf *d, const struct amd_table *t, size_t r, size_t c,
			 double size)
{
	chart_font(d->cr, size, r == 0);
	return chart_text_width(d->cr, cell(t, r, c)) + 5 + 4;
}

/* The widths of the columns' widest cells at size; their sum. */
static double measure(struct pdf *d, const struct amd_table *t, double size, double *w)
{
	double total = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = 0;
		for (size_t r = 0; r <= t->nrows; r++) {
			double cw = cell_width(d, t, r, c, size);
			if (cw > w[c])
				w[c] = cw;
		}
		total += w[c];
	}
	return total;
}

/* Caps the widest columns so that the table fits avail: narrow columns
 * keep their width, the wide ones share what is left (their cells are
 * then shortened with an ellipsis). At most ncols rounds. */
static void cap_columns(double *w, size_t ncols, double avail)
{
	double cap = avail / (double)ncols;
	for (size_t round = 0; round < ncols; round++) {
		double fixed = 0;
		size_t wide = 0;
		for (size_t c = 0; c < ncols; c++)
			if (w[c] <= cap)
				fixed += w[c];
			else
				wide++;
		double next = wide ? (avail - fixed) / (double)wide : cap;
		if (next <= cap)
			break;
		cap = next;
	}
	for (size_t c = 0; c < ncols; c++)
		if (w[c] > cap)
			w[c] = cap;
}

#define TABLE_MIN_SIZE 5.5
#define TABLE_FIT_ROUNDS 8

/* The narrowest an elastic column is made alone: its heading's width,
 * and never under 40 pt. */
static double elastic_min(struct pdf *d, const struct amd_table *t, double size)
{
	double head = cell_width(d, t, 0, (size_t)t->elastic, size);
	return head > 40 ? head : 40;
}

/* Column widths at *size; a table wider than the page shortens its
 * elastic column when it alone can give up the excess and keep its
 * heading's width — else (another column is wider still: a run's long
 * list of flagged epochs) the widest columns share what the narrow ones
 * leave (cap_columns) at this size. A table without an elastic column is
 * set in a smaller font (down to 5.5 pt, in at most TABLE_FIT_ROUNDS
 * steps of at least 0.25 pt), and what is still too wide is capped.
 * Terminates by construction. */
static void column_widths(struct pdf *d, const struct amd_table *t, double *size, double *w)
{
	double avail = d->w - 2 * d->margin + 5;
	for (int round = 0; round < TABLE_FIT_ROUNDS; round++) {
		double total = measure(d, t, *size, w);
		if (total <= avail)
			return;
		if (t->elastic >= 0 && (size_t)t->elastic < t->ncols) {
			double rest = total - w[t->elastic];
			if (avail - rest >= elastic_min(d, t, *size))
				w[t->elastic] = avail - rest;
			break;
		}
		if (*size <= TABLE_MIN_SIZE)
			break;
		double next = fmin(*size * avail / total, *size - 0.25);
		*size = fmax(next, TABLE_MIN_SIZE);
		if (round == TABLE_FIT_ROUNDS - 1)
			measure(d, t, *size, w);
	}
	if (t->ncols)
		cap_columns(w, t->ncols, avail);
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
	struct chart_shortened sh = {0};
	pdf_need(d, lead * 3);
	chart_shortened_watch(d->cr, &sh);
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
	chart_shortened_watch(d->cr, NULL);
	d->y += lead * 0.8;
	free(w);
	for (size_t i = 0; i < t->nnotes; i++)
		pdf_paragraph(d, t->notes[i], 8, 0.3);
	shortened_note(d, &sh);
}
