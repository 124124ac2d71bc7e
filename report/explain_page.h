/* explain_page.h — the report's page "Where the efficiency went" (issue
 * 34): per strategy, the budget of `amdahl explain` (lib/analysis/
 * explain.h) as stacked bars per n, its table and the stragglers; and a
 * finding per strategy naming the largest share at its largest n. A
 * sweep without a run whose every rank is traced has no page. */
#ifndef AMD_REPORT_EXPLAIN_PAGE_H
#define AMD_REPORT_EXPLAIN_PAGE_H

#include "report_ctx.h"

/* Computes the budget of the reported sweep and appends its findings
 * (a store that cannot answer: a data gap saying why, and no page). */
int report_explain(struct report_ctx *c, struct amd_err *err);
struct pdf;
void report_explain_page(struct pdf *d, struct report_ctx *c);
void report_explain_free(struct report_ctx *c);

#endif
