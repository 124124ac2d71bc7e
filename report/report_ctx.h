/* report_ctx.h — what the parts of `report build` share: the sweep's
 * statistics, its charts, the findings and data gaps, its sources, and
 * the comparison with a baseline; with the labels and number formats
 * every part prints (labels.h, numfmt.h). The parts: report.c (the
 * build), report_pdf.c, report_summary.c, comparison.c, history_page.c. */
#ifndef AMD_REPORT_CTX_H
#define AMD_REPORT_CTX_H

#include "charts.h"
#include "findings.h"
#include "history.h"
#include "labels.h"
#include "numfmt.h"
#include "report.h"
#include "sentences.h"
#include "sources.h"
#include "run_sources.h"
#include "verdict.h"
#include "explain.h"

struct report_ctx {
	struct amd_store *st;
	const struct report_opts *o;
	struct amd_sweep_stats *s;
	struct report_charts charts;
	struct report_text findings, gaps; /* gaps: left-out data and missing charts */
	struct amd_source_row *src;
	size_t nsrc;
	/* more than AMD_SOURCES_PER_FILE_MAX sources: their rows per run and
	 * each run's sum (Appendix C), else NULL */
	struct amd_run_source *run_src;
	size_t nrun_src;
	struct amd_run_files *run_files;
	size_t nrun_files;
	char generated[64]; /* UTC time of the build */
	struct amd_comparison *cmp; /* with --baseline, else NULL */
	struct amd_gate_verdict gate; /* the gate's verdict on cmp */
	struct report_chart cmp_chart; /* the ratio chart (chart NULL: none) */
	double cmp_chart_h;
	struct amd_history *hist; /* with --history, else NULL */
	struct report_chart hist_chart; /* its chart (chart NULL: none) */
	struct report_text hist_text;   /* its sentences: one per change, or none */
	struct amd_explain *explain; /* where the efficiency went (explain_page.h), or NULL */
	/* the region table's one scan (regions.h), for the region chart, the
	 * limits and explain's region split; NULL when none is read */
	struct amd_region_share *share;
	/* the sweep's collective set (store collectives.h), read once for
	 * the statistics and explain; NULL when each reads its own */
	struct amd_coll_set *colls;
};

#endif
