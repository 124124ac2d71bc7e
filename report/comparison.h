/* comparison.h — the report's comparison with a baseline: running it,
 * the gate's verdict, its chart, page, summary section and JSON. */
#ifndef AMD_REPORT_COMPARISON_H
#define AMD_REPORT_COMPARISON_H

#include <cjson/cJSON.h>

#include "report_ctx.h"

/* The comparison with a baseline (report/comparison.c): runs it, decides
 * the gate's verdict, builds its chart and puts the gate sentence first
 * among the findings. */
int report_comparison(struct report_ctx *c, struct amd_err *err);
/* The comparison page of the PDF, its summary section and report.json's
 * "gate" object. */
struct pdf;
void report_comparison_page(struct pdf *d, struct report_ctx *c);
struct tpl;
void report_comparison_model(struct tpl *t, const struct report_ctx *c);
cJSON *report_gate_json(const struct report_ctx *c);

#endif
