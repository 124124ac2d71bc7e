/* history_text.h — a history (history.h) as text and JSON, the one way
 * every output shows it: `amdahl history` (table, change lines, --json)
 * and the report's history page, summaries and report.json
 * (report/history_page.c). */
#ifndef AMD_HISTORY_TEXT_H
#define AMD_HISTORY_TEXT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "history.h"
#include "table.h"

/* " [lo, hi] (90%)": the change's ratio interval with its own level
 * (scale_ratio.h), "" when it has none. */
const char *amd_history_ratio_ci_text(const struct amd_history *h,
				      const struct amd_history_change *c, char *buf, size_t n);

/* "worse" or "better": the change's direction for the metric. */
const char *amd_history_direction(const struct amd_history *h,
				  const struct amd_history_change *c);
/* "at c12 (worse): median 1.222 (36 runs, c00..c11) -> 1.467 (36 runs,
 * c12..c23), ratio 1.200 [1.184, 1.216] (95%), permutation p 0.001 (over
 * every split searched)" into buf; returns buf. */
const char *amd_history_change_text(const struct amd_history *h,
				    const struct amd_history_change *c, char *buf, size_t n);
/* "1 change point (E-Divisive means, permutation test: 999 shuffles,
 * alpha 0.05, at least 3 groups a side)" into buf; returns buf. */
const char *amd_history_method_text(const struct amd_history *h, char *buf, size_t n);
/* Group c's index is a change point's first group after the change. */
int amd_history_is_change(const struct amd_history *h, size_t g);
/* Per group: label, runs, median, 95% CI, "<- change" at a change point.
 * NULL when out of memory. */
struct amd_table *amd_history_table(const struct amd_history *h);
/* {"metric", "by", "order", "method": {...}, "runs_without_key",
 * "groups": [...], "change_points": [{"group": FIRST_GROUP_AFTER, ...}]};
 * NULL when out of memory. */
cJSON *amd_history_json(const struct amd_history *h);

#endif
