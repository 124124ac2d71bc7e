/* history_page.h — `report build --history METRIC --by KEY`: the metric's
 * history over groups of runs (lib/compare/history.h) with its change
 * points, as a finding, a PDF page (chart and tables), a summaries'
 * section and report.json's "history" object. */
#ifndef AMD_REPORT_HISTORY_PAGE_H
#define AMD_REPORT_HISTORY_PAGE_H

#include <cjson/cJSON.h>

#include "report_ctx.h"

/* Computes the history (when the report asks for one), builds its chart
 * and adds its sentences to the findings. */
int report_history(struct report_ctx *c, struct amd_err *err);
struct pdf;
void report_history_page(struct pdf *d, struct report_ctx *c);
struct tpl;
void report_history_model(struct tpl *t, const struct report_ctx *c);
/* report.json's "history": `amdahl history --json`'s object with the
 * chart's files and the sentences; NULL when out of memory. */
cJSON *report_history_json(const struct report_ctx *c);
/* Frees what report_history made. */
void report_history_free(struct report_ctx *c);

#endif
