/* scaling_table.h — a strategy's scaling model (scaling.h) as tables and
 * sentences, for `amdahl scaling` and the report's page "What limits
 * scaling": the ranked regions, the whole extrapolated, the findings
 * ("at n = 32, gloo:all_reduce is predicted to take 61% [48, 70] of
 * the step, up from 23% at n = 8") and what to measure next. */
#ifndef AMD_SCALING_TABLE_H
#define AMD_SCALING_TABLE_H

#include <stddef.h>

#include "scaling.h"
#include "table.h"

/* The top regions (top 0: all): region, kind, model, growth, share at
 * the largest n, at 2× and 4× it with intervals, crossover n. NULL when
 * out of memory. */
struct amd_table *amd_scaling_region_table(const struct amd_scaling_strategy *s, size_t top);
/* The step and epoch time and efficiency at the measured and
 * extrapolated n from the region models, next to Amdahl and USL. */
struct amd_table *amd_scaling_whole_table(const struct amd_scaling_strategy *s);
/* The findings in sentences, one per line, into buf (top regions,
 * disagreement, what to measure next); -1 when it did not fit. */
int amd_scaling_findings(const struct amd_scaling_strategy *s, size_t top, char *buf, size_t n);

#endif
