/* report_pdf.h — report.pdf: the findings page, the charts with their
 * captions, the tables, the comparison page and the appendix. */
#ifndef AMD_REPORT_PDF_PAGES_H
#define AMD_REPORT_PDF_PAGES_H

#include "report_ctx.h"

/* Writes the PDF as name inside the output directory. */
int report_write_pdf(struct report_ctx *c, const char *name, int *pages, struct amd_err *err);

#endif
