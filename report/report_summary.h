/* report_summary.h — summary.md and summary.html (from templates/) and
 * report.json. */
#ifndef AMD_REPORT_SUMMARY_H
#define AMD_REPORT_SUMMARY_H

#include "report_ctx.h"

int report_write_summaries(struct report_ctx *c, struct amd_err *err);
/* Writes report.json as name inside the output directory. */
int report_write_json(struct report_ctx *c, const char *name, struct amd_err *err);

#endif
