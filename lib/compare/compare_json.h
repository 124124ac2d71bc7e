/* compare_json.h — a comparison row (lib/compare.h) as a JSON object:
 * metric, strategies, n, gated, direction, threshold, alpha, both sides'
 * runs, medians and values, ratio and CI, U, p, method, Holm p, verdict. */
#ifndef AMD_COMPARE_JSON_H
#define AMD_COMPARE_JSON_H

#include <cjson/cJSON.h>

#include "compare.h"

cJSON *amd_compare_row_json(const struct amd_cmp_row *r);

#endif
