/* report.h — `report build`: from the store to a directory holding
 * report.pdf, charts/NAME.png and .svg, summary.md, summary.html and
 * report.json (docs/design.md, "Report"). */
#ifndef AMD_REPORT_H
#define AMD_REPORT_H

#include <stddef.h>

#include "analysis.h"
#include "compare.h"
#include "err.h"
#include "history.h"
#include "store.h"

struct report_opts {
	struct amd_analysis_opts analysis; /* sweep, axis, rules */
	const char *outdir;
	const char *version; /* printed in the footer */
	/* A comparison page with a baseline (NULL: none); its cand_sweep NULL
	 * means the reported sweep, axis and metric default to the analysis'. */
	const struct amd_compare_opts *compare;
	struct amd_store *base_store; /* the baseline's store; NULL: st */
	/* A history page (NULL: none); its select NULL means the reported
	 * sweep's runs, its metric NULL the analysis' metric. */
	const struct amd_history_opts *history;
};

struct report_result {
	int pages;
	size_t charts, missing;
	char sweep[256];
	char gate[16]; /* "pass", "regression", "insufficient"; "" without a baseline */
	const char *gate_json; /* the same in JSON (amd_gate_result_json); NULL without one */
};

int report_build(struct amd_store *st, const struct report_opts *o, struct report_result *res,
		 struct amd_err *err);

/* Frees Pango's fonts (once no drawing is left), so that leak checkers
 * see a clean exit (chart_text_release). */
void report_release_fonts(void);

#endif
