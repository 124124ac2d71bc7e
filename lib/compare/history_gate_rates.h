/* history_gate_rates.h — what `gate --history`'s rule does on a history
 * like the one at hand: the spread of the history's group medians across
 * groups (nights), then a seeded simulation of the rule (history_gate.h)
 * on log-normal groups with that spread: the share of histories without a
 * change that get any false FAIL within 10, 20 and 40 nightly checks, and
 * the share in which a +10% step fails within 3 nights. With one run a
 * night the within-night spread is unknown, so this is the only measure of
 * the noise the rule faces; it is the rule's error for this noise rather
 * than fixed figures for 5% (docs/ci.md, docs/methods.md). */
#ifndef AMD_HISTORY_GATE_RATES_H
#define AMD_HISTORY_GATE_RATES_H

#include "history_gate.h"

struct amd_history_rates {
	int valid;             /* 0: no spread (every group median equal) */
	double spread;         /* MAD / Φ⁻¹(3/4) of the log group medians of v's history */
	double false_fail[3];  /* any false FAIL within 10, 20, 40 checks, no change */
	double caught3;        /* a +10% step fails within its first 3 checks */
	size_t histories;      /* simulated */
};

/* Rates for the verdict v on h (v->n groups of history, v's alpha and
 * threshold); seeded, deterministic. Appends them to v->sentence. -1 out
 * of memory. */
int amd_history_gate_rates(const struct amd_history *h, struct amd_history_verdict *v,
			   struct amd_history_rates *r, struct amd_err *err);

#endif
