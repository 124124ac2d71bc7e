/* scaling_json.h — the scaling model of a sweep (scaling.h) as JSON, the
 * shape `amdahl scaling --json` prints: {"sweep", "criterion", …,
 * "regions": [{"name", "kind", "strategy", "terms": [{"i", "j", "coef",
 * "coef_ci"}], "c0", "c0_ci", "criterion", "growth", "share_at_max_n",
 * "share": [{"n", "value", "ci"}] (of the step at 2×, 4× the largest n
 * and the target: each n once, increasing), "predictions": [{"n",
 * "value", "ci"}], …}] (every strategy's,
 * ranked within each), "strategies": [{"strategy", "n", "target",
 * "step": [the step's model], "whole": […], "advice": […]}]} — the
 * constant model has no terms; seconds per step; NaN as null; every
 * interval {"lo", "hi", "level"} or null (the contract, analysis_json.h;
 * docs/schema/scaling.schema.json). */
#ifndef AMD_SCALING_JSON_H
#define AMD_SCALING_JSON_H

#include <cjson/cJSON.h>

#include "scaling.h"

/* The whole tree; NULL out of memory. */
cJSON *amd_scaling_json(const struct amd_scaling *s);

#endif
