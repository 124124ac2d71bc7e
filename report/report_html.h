/* report_html.h — report.html, the report as one self-contained
 * interactive page (report_html.c). */
#ifndef AMD_REPORT_HTML_H
#define AMD_REPORT_HTML_H

#include "report_ctx.h"

/* Writes the page as name inside the output directory (atomically). */
int report_write_html(struct report_ctx *c, const char *name, struct amd_err *err);

#endif
