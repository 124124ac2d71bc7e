/* history_gate.h — the gate against a history (`gate --history N`): is
 * the candidate group a change point against the N groups before it? The
 * candidate's divergence from them — E-Divisive's Q (changepoint.h) of the
 * split that puts it alone after the others, negated when it lies on the
 * good side of their mean (one-sided: only a worse group can regress) — is
 * ranked among the same divergence of each of the N+1 groups taken as the
 * odd one out: under no change all N+1 are exchangeable, so p = (groups at
 * least as divergent) / (N+1) is exact. The gate fails when p <= alpha and the candidate's
 * median is worse than the median of the N group medians by more than
 * the threshold; it is insufficient when N+1 groups cannot reach alpha
 * (1/(N+1) > alpha: 19 groups of history at 0.05). */
#ifndef AMD_HISTORY_GATE_H
#define AMD_HISTORY_GATE_H

#include "history.h"
#include "verdict.h"

struct amd_history_verdict {
	size_t cand;           /* the candidate group's index in the history */
	size_t first;          /* the first history group used */
	size_t n;              /* history groups used (N, fewer if the history is short) */
	double base_median;    /* median of their medians */
	double cand_median;
	double ratio;          /* cand_median / base_median */
	double q, p;           /* the divergence and its exact permutation p */
	double p_min;          /* 1 / (n + 1) */
	double alpha, threshold;
	enum amd_gate_result result;
	int exit_code;
	const char *word;      /* "PASS", "FAIL", "INSUFFICIENT DATA" */
	char sentence[640];
};

/* The verdict on group cand of h against the up to n groups before it;
 * higher_is_better from h. Fails (err) when cand has no group before it. */
int amd_history_gate(const struct amd_history *h, size_t cand, size_t n, double alpha,
		     double threshold, struct amd_history_verdict *v, struct amd_err *err);

#endif
