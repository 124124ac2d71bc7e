/* history_gate.h — the gate against a history (`gate --history N`), with
 * its error held across nights. A nightly check that holds its level
 * alone fails CI on noise: at 5% noise 95% of 40-night histories without
 * a change got a false FAIL when each night was tested at 0.05 by itself.
 * So a change must be confirmed by the nights after it: the candidate and
 * the two groups before it (the window, AMD_HISTORY_WINDOW groups) are
 * tested together against the N groups before the window, at alpha / 10
 * a night (AMD_HISTORY_SPEND). The test is an exact permutation test of
 * the window's sum: p = the share of all C(N+3, 3) ways to pick 3 of the
 * N+3 group medians whose sum is at least as bad as the window's
 * (one-sided: only a worse window can regress). Under no change the N+3
 * medians are exchangeable, so p holds its level whatever the noise's
 * shape. The gate fails when p <= alpha/10 and the window's median is
 * worse than the median of the N group medians by more than the
 * threshold; it is insufficient when 1/C(N+3, 3) > alpha/10 (8 groups of
 * history or fewer at 0.05). Measured false-FAIL rates per 10/20/40
 * nights and the delay of a real step: docs/methods.md,
 * tests/eval/history_eval.c; for the history at hand:
 * history_gate_rates.h. */
#ifndef AMD_HISTORY_GATE_H
#define AMD_HISTORY_GATE_H

#include "history.h"
#include "verdict.h"

#define AMD_HISTORY_WINDOW 3  /* the candidate and the groups confirming it */
#define AMD_HISTORY_SPEND 10  /* each night is tested at alpha / this */

struct amd_history_verdict {
	size_t cand;           /* the candidate group's index in the history */
	size_t win;            /* the window's first group (cand - 2) */
	size_t first;          /* the first history group used (before the window) */
	size_t n;              /* history groups used (N, fewer if the history is short) */
	double base_median;    /* median of their medians */
	double cand_median;
	double win_median;     /* median of the window's group medians */
	double ratio;          /* win_median / base_median */
	double q, p;           /* the window's divergence from the history, its exact p */
	double p_min;          /* 1 / C(n + 3, 3) */
	double alpha, alpha_night, threshold;
	enum amd_gate_result result;
	int exit_code;
	const char *word;      /* "PASS", "FAIL", "INSUFFICIENT DATA" */
	char sentence[1024];
};

/* The verdict on group cand of h (with the 2 groups before it) against
 * the up to n groups before them; higher_is_better from h. Fails (err)
 * when cand has fewer than 3 groups before it. */
int amd_history_gate(const struct amd_history *h, size_t cand, size_t n, double alpha,
		     double threshold, struct amd_history_verdict *v, struct amd_err *err);

#endif
