/* pdf.h — a small page writer on a Cairo PDF surface: A4 pages with a
 * running footer, headings, wrapped paragraphs and bullets, charts with
 * captions, and the PDF renderer of tables (lib/core/table.h) that
 * continue across pages under a repeated header; a name shortened to fit
 * a chart or a table is given in full in a footnote under it. Text is
 * DejaVu Sans through Pango, other scripts in fontconfig's fallback
 * (CJK: WenQuanYi Micro Hei), the fonts embedded by Cairo. */
#ifndef AMD_REPORT_PDF_H
#define AMD_REPORT_PDF_H

#include <cairo.h>
#include <stddef.h>

#include "chart.h"
#include "err.h"
#include "table.h"

struct pdf {
	cairo_surface_t *surface;
	cairo_t *cr;
	double w, h, margin, y;
	int page;
	char footer[256];
	int failed; /* out of memory while drawing: pdf_close fails */
	struct amd_out out;
};

/* Opens dir/name (written to a temporary file, outfile.h). */
int pdf_open(struct pdf *d, const char *dir, const char *name, const char *title,
	     const char *footer, struct amd_err *err);
/* Finishes the file and renames it into place; returns -1 with err (and
 * no file) when Cairo failed or memory ran out while drawing. */
int pdf_close(struct pdf *d, struct amd_err *err);

void pdf_new_page(struct pdf *d);
/* Starts a new page when less than h points are left. */
void pdf_need(struct pdf *d, double h);
void pdf_heading(struct pdf *d, const char *text, int level);
void pdf_paragraph(struct pdf *d, const char *text, double size, double grey);
void pdf_bullet(struct pdf *d, const char *text, double size);
void pdf_space(struct pdf *d, double h);
void pdf_chart(struct pdf *d, struct chart *c, double w, double h, const char *caption);

/* Draws t at font_size (smaller when it is too wide and has no elastic
 * column; its elastic column shortened in the middle otherwise): headers
 * in bold under a rule and again on each new page, a faint band on every
 * other row, then its notes as small grey paragraphs. */
void pdf_table_draw(struct pdf *d, const struct amd_table *t, double font_size);

#endif
