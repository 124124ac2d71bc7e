/* report_int.h — what the parts of `report build` share: the sweep's
 * statistics, its charts, the findings and data gaps, its sources. */
#ifndef AMD_REPORT_INT_H
#define AMD_REPORT_INT_H

#include "charts.h"
#include "findings.h"
#include "report.h"
#include "store_report.h"

struct report_ctx {
	struct amd_store *st;
	const struct report_opts *o;
	struct amd_sweep_stats *s;
	struct report_charts charts;
	struct report_text findings, gaps; /* gaps: left-out data and missing charts */
	struct amd_source_row *src;
	size_t nsrc;
	char generated[64]; /* UTC time of the build */
};

int report_write_pdf(struct report_ctx *c, const char *path, int *pages, struct amd_err *err);
int report_write_summaries(struct report_ctx *c, struct amd_err *err);
int report_write_json(struct report_ctx *c, const char *path, struct amd_err *err);

/* Table cells shared by the PDF and the summaries. */
const char *report_axis_name(const struct amd_sweep_stats *s); /* "n" or the param */

#endif
