/* pdf.h — a small page writer on a Cairo PDF surface: A4 pages with a
 * running footer, headings, wrapped paragraphs and bullets, charts with
 * captions, and tables that continue across pages under a repeated
 * header. Text is DejaVu Sans (embedded by Cairo). */
#ifndef AMD_REPORT_PDF_H
#define AMD_REPORT_PDF_H

#include <cairo.h>
#include <stddef.h>

#include "chart.h"
#include "err.h"

struct pdf {
	cairo_surface_t *surface;
	cairo_t *cr;
	double w, h, margin, y;
	int page;
	char footer[256];
	int failed; /* text or a chart left out: out of memory (pdf_close fails) */
};

int pdf_open(struct pdf *d, const char *path, const char *title, const char *footer,
	     struct amd_err *err);
/* Finishes the file; returns -1 with err when Cairo failed or something
 * was left out for want of memory. */
int pdf_close(struct pdf *d, const char *path, struct amd_err *err);

void pdf_new_page(struct pdf *d);
/* Starts a new page when less than h points are left. */
void pdf_need(struct pdf *d, double h);
void pdf_heading(struct pdf *d, const char *text, int level);
void pdf_paragraph(struct pdf *d, const char *text, double size, double grey);
void pdf_bullet(struct pdf *d, const char *text, double size);
void pdf_space(struct pdf *d, double h);
void pdf_chart(struct pdf *d, struct chart *c, double w, double h, const char *caption);

struct pdf_table;
/* ncols columns; right[c] aligns column c right; elastic: the column
 * shortened (middle ellipsis) when the table is wider than the page, -1
 * for none. NULL when out of memory; a table short of memory (NULL, or
 * a row lost) is not drawn and fails pdf_close. */
struct pdf_table *pdf_table_new(int ncols, const char *const *headers, const int *right,
				int elastic, double font_size);
void pdf_table_row(struct pdf_table *t, const char *const *cells);
void pdf_table_draw(struct pdf *d, struct pdf_table *t);
void pdf_table_free(struct pdf_table *t);

#endif
