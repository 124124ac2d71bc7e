/* report_int.h — what the parts of `report build` share: the sweep's
 * statistics, its charts, the findings and data gaps, its sources, and
 * the comparison with a baseline; with the labels and number formats
 * every part prints (labels.h, numfmt.h). */
#ifndef AMD_REPORT_INT_H
#define AMD_REPORT_INT_H

#include <cjson/cJSON.h>

#include "charts.h"
#include "findings.h"
#include "labels.h"
#include "numfmt.h"
#include "report.h"
#include "sentences.h"
#include "sources.h"
#include "verdict.h"

struct report_ctx {
	struct amd_store *st;
	const struct report_opts *o;
	struct amd_sweep_stats *s;
	struct report_charts charts;
	struct report_text findings, gaps; /* gaps: left-out data and missing charts */
	struct amd_source_row *src;
	size_t nsrc;
	char generated[64]; /* UTC time of the build */
	struct amd_comparison *cmp; /* with --baseline, else NULL */
	struct amd_gate_verdict gate; /* the gate's verdict on cmp */
	struct report_chart cmp_chart; /* the ratio chart (chart NULL: none) */
	double cmp_chart_h;
};

int report_write_pdf(struct report_ctx *c, const char *path, int *pages, struct amd_err *err);
int report_write_summaries(struct report_ctx *c, struct amd_err *err);
int report_write_json(struct report_ctx *c, const char *path, struct amd_err *err);

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
