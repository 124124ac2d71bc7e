/* explain_json.h — where the efficiency went (explain.h) as JSON, the
 * shape `amdahl explain --json` prints: {"schema_version", "sweep",
 * "level", "alpha", "runs_partial", "strategies": [{"strategy", "base_n",
 * "points": [{"n", "runs", "step_s", "efficiency": {"traces",
 * "traces_ci", "epoch"}, "components": [{"name", "share", "share_ci",
 * "seconds"}], "collectives": {…}, "clock": {…}, "stragglers": [the
 * named ranks], "ranks": [every rank]}]}]} — shares as fractions of 1
 * that add up to 1 − efficiency.traces; NaN as null; intervals
 * {"lo", "hi", "level"} or null (docs/schema/explain.schema.json). */
#ifndef AMD_EXPLAIN_JSON_H
#define AMD_EXPLAIN_JSON_H

#include <cjson/cJSON.h>

#include "explain.h"

/* The whole tree; NULL out of memory. */
cJSON *amd_explain_json(const struct amd_explain *e);

#endif
