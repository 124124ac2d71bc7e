/* analysis_json.h — a sweep's statistics (analysis.h) as JSON: every
 * strategy's points (median, CIs, speedup, efficiency, Karp–Flatt, energy,
 * phases, run values), the Amdahl and USL fits, the options and the runs
 * left out. Shared by `amdahl stats --json` and report.json. */
#ifndef AMD_ANALYSIS_JSON_H
#define AMD_ANALYSIS_JSON_H

#include <cjson/cJSON.h>

#include "analysis.h"

/* Adds v under k, or null when v is NaN or infinite; returns the item
 * added, NULL when out of memory (or o NULL). */
cJSON *amd_json_num(cJSON *o, const char *k, double v);
/* {"valid", "lo", "hi"} or {"valid": false, "why"}; NULL out of memory. */
cJSON *amd_ci_json(const struct amd_ci *ci);
/* The whole tree; NULL out of memory (never a tree with parts missing). */
cJSON *amd_sweep_stats_json(const struct amd_sweep_stats *s);

#endif
