/* compare_json.h — a comparison as JSON (cJSON): the one shape that
 * `amdahl compare --json` and `amdahl gate --json` print and report.json
 * holds under "gate", and its one reader.
 *
 *   "baseline": {"sweep", "strategy", "store"} (null: none, not given),
 *   "candidate": {...}, "metric", ["resamples", "seed", "level"],
 *   "rows": [one object per row, amd_compare_row_json],
 *   "summary": {"gated", "holm_family", "regressions", "improvements",
 *               "insufficient", "missing", "likely_regressions"}
 *
 * and, where the gate's verdict was decided (lib/compare/verdict.h),
 * "result" in the one verdict vocabulary ("pass", "regression",
 * "insufficient_data"): `gate --json` with "exit" after "summary",
 * report.json with "sentence" before "baseline". The contract
 * (analysis_json.h) and docs/schema/compare.schema.json, gate.schema.json
 * hold for it; amd_comparison_json_result reads "result" back from either
 * shape (before and after schema_version 1, verdict.h). */
#ifndef AMD_COMPARE_JSON_H
#define AMD_COMPARE_JSON_H

#include <cjson/cJSON.h>

#include "compare.h"

/* A row: metric, strategies, n, gated, direction, threshold, alpha, both
 * sides' runs, medians and values, ratio and its interval at level ("ci",
 * "ci_why"), U, p, method, "p_holm", verdict (amd_verdict_json), note.
 * NULL when out of memory. */
cJSON *amd_compare_row_json(const struct amd_cmp_row *r, double level);

struct amd_cmp_json_opts {
	const char *base_store, *cand_store; /* "store" of each side; NULL: left out */
	int settings;                         /* write resamples, seed and level */
};

/* Adds "baseline", "candidate", "metric" (and the bootstrap settings) to
 * o; -1 when out of memory. */
int amd_comparison_json_head(cJSON *o, const struct amd_comparison *c,
			     const struct amd_cmp_json_opts *w);
/* Adds "rows" and "summary" to o; -1 when out of memory. */
int amd_comparison_json_rows(cJSON *o, const struct amd_comparison *c);
/* The head, then the rows, in a new object; NULL when out of memory. */
cJSON *amd_comparison_json(const struct amd_comparison *c, const struct amd_cmp_json_opts *w);

/* The reader: the gate's verdict ("result") of a comparison object as
 * written above or before schema_version 1 (its text as it is: "pass",
 * "insufficient_data", or an old "INSUFFICIENT DATA"; see
 * amd_gate_result_shown), NULL when o is not a comparison (no "rows"
 * array) or carries no verdict. Points into o. */
const char *amd_comparison_json_result(const cJSON *o);

#endif
