/* detectable.h — what a comparison's noise let it see: per row the
 * smallest change its run counts and spread could have detected, and the
 * rows too small for the test whose interval still lies wholly past the
 * threshold (asv's fallback: likely regressions, with the runs per side
 * that would confirm them). Filled by amd_compare_stats after the
 * verdicts; the gate fails on likely regressions only with --fallback ci
 * (verdict.h). */
#ifndef AMD_DETECTABLE_H
#define AMD_DETECTABLE_H

#include "buf.h"
#include "compare.h"

/* Power the smallest detectable change is computed for, the simulation's
 * draws and its seed (GSL mt19937). */
#define AMD_DETECT_POWER 0.8
#define AMD_DETECT_DRAWS 4000
#define AMD_DETECT_SEED 20260101

/* Fills every row's detectable and likely, and c->likely_regressions.
 *
 * detectable: the smallest relative change of the median the row's test
 * — Mann–Whitney, as the gate runs it: exact null distribution up to
 * AMD_MWU_EXACT_MAX_MN pairs — would find with 80% power at its level
 * (alpha / the Holm family size for gated rows — Holm's first step — else
 * alpha), by simulation: AMD_DETECT_DRAWS draws of normal noise with each
 * side's sample standard deviation (relative to the baseline median), the
 * candidate shifted, bisection on the shift with common random numbers.
 * (The z-test formula it replaces gave 47–76% real power; issue 33.)
 * INFINITY when the run counts cannot reach that level at all (no change
 * is detectable), NAN when a side has fewer than 2 runs or no median.
 *
 * likely: 1 for an insufficient row whose ratio interval lies wholly past
 * the threshold in the bad direction, -1 in the good one, else 0. */
void amd_cmp_noise(struct amd_comparison *c);

/* The gated rows' range of detectable changes (finite ones) and how many
 * rows can detect none; lo/hi NAN when none is finite. */
void amd_cmp_detectable_range(const struct amd_comparison *c, double *lo, double *hi,
			      size_t *none);

/* What the noise let the comparison see, as lines each starting with
 * prefix ("" for the terminal, "- " for Markdown): the range of
 * detectable changes over the gated rows, and each likely regression with
 * the runs per side that would confirm it. -1 out of memory. */
int amd_cmp_noise_text(const struct amd_comparison *c, const char *prefix, struct amd_buf *b);

/* One row's detectable change as a value: "%.10g" (a fraction of the
 * baseline median), "none" or "unknown" (JUnit's property); returns buf. */
const char *amd_cmp_detectable_value(const struct amd_cmp_row *r, char *buf, size_t n);
/* The same as a sentence: "smallest change these runs could detect (80%
 * power at the test's level, from the runs' spread): 12.3%", or none /
 * unknown with the reason; returns buf. */
const char *amd_cmp_detectable_sentence(const struct amd_cmp_row *r, char *buf, size_t n);

#endif
