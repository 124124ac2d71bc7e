/* changepoint.h — change points in a sequence (a history's per-group
 * medians) by E-Divisive means (Matteson & James, "A Nonparametric
 * Approach for Multiple Change Point Analysis of Multivariate Data",
 * JASA 2014), the method Apache Otava (formerly Hunter) builds on, with
 * the permutation test of the paper: the best split of every segment by
 * the divergence Q = mk/(m+k) · (2/mk Σ|x−y| − Σ|x−x'|/C(m,2) −
 * Σ|y−y'|/C(k,2)) (alpha = 1) of x = the segment's values before t and
 * y = x[t..κ), scored against both boundaries: every κ from t + min to the
 * segment's end (so a block that returns to its old level, a regression
 * later reverted, is scored as itself), the largest kept when its permutation
 * p-value — the share of R within-segment shuffles whose best split is at
 * least as large, (b+1)/(R+1) — is at most alpha; then again on the new
 * segments, until a test fails.
 *
 * Why this method: its error rate needs no noise model. Under no change
 * the values are exchangeable, so the first test (the only one reached
 * when it fails) rejects with probability at most alpha: a history with
 * no change gets any change point with probability ≤ alpha, whatever the
 * noise's distribution or scale. PELT would need a penalty calibrated to
 * a noise model it must assume. */
#ifndef AMD_CHANGEPOINT_H
#define AMD_CHANGEPOINT_H

#include <stddef.h>

#include "err.h"

struct amd_cp_opts {
	double alpha;         /* default 0.05 */
	int permutations;     /* R, default 999 */
	unsigned long seed;   /* gsl mt19937, default 20260101 */
	size_t min_size;      /* fewest values on each side of a split, default 3 */
};

struct amd_change {
	size_t at;   /* index of the first value after the change */
	double q;    /* the divergence of the split */
	double p;    /* its permutation p-value: the shuffles are searched over
		      * the same splits, so p accounts for the search */
};

/* Change points of x[0..n), ordered by index, in *out (malloc'd; NULL
 * when none). */
int amd_edivisive(const double *x, size_t n, const struct amd_cp_opts *o,
		  struct amd_change **out, size_t *nout, struct amd_err *err);

#endif
