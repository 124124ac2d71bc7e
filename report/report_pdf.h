/* report_pdf.h — report.pdf: the findings page, the charts with their
 * captions, the tables, the comparison page and the appendix. */
#ifndef AMD_REPORT_PDF_PAGES_H
#define AMD_REPORT_PDF_PAGES_H

#include "report_ctx.h"

/* Writes the PDF as name inside the output directory. */
int report_write_pdf(struct report_ctx *c, const char *name, int *pages, struct amd_err *err);

/* The tables the PDF and report.html share (NULL or a failed table when
 * out of memory; the caller frees): one row per configuration, and
 * Appendix A's one row per run in the statistics. */
struct amd_table *report_config_table(const struct amd_sweep_stats *s);
struct amd_table *report_runs_table(const struct amd_sweep_stats *s);

#endif
