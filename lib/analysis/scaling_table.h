/* scaling_table.h — a strategy's scaling model (scaling.h) as tables and
 * sentences, for `amdahl scaling` and the report's page "What limits
 * scaling": the ranked regions, the whole extrapolated, the findings
 * ("at n = 32, gloo:all_reduce is predicted to take 61% [48, 70] of
 * the step, up from 23% at n = 8"), what to measure next, and a
 * region's fitted curve with its prediction band for the chart. */
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
/* The findings in sentences, one per line, into buf: the top regions
 * (top 0: all), the whole at the first extrapolated n and whether the
 * fits agree, what to measure next; -1 when buf is too small. The
 * three parts alone: region i's sentence, the whole's, the advice
 * (buf "" when there is nothing to say). */
int amd_scaling_findings(const struct amd_scaling_strategy *s, size_t top, char *buf, size_t n);
int amd_scaling_region_finding(const struct amd_scaling_strategy *s, size_t i, char *buf,
				size_t n);
int amd_scaling_whole_finding(const struct amd_scaling_strategy *s, char *buf, size_t n);
int amd_scaling_advice_finding(const struct amd_scaling_strategy *s, char *buf, size_t n);

/* Region r's model sampled at m points evenly spaced in log n from
 * `from` to `to`: x, the value y and the prediction interval lo..hi at
 * level (seconds per step; NAN where the model is not positive, so a
 * log axis breaks the line there). -1 when out of memory. */
int amd_scaling_curve(const struct amd_region_model *r, double from, double to, double level,
		      double *x, double *y, double *lo, double *hi, size_t m);

#endif
