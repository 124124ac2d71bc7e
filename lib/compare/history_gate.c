/* history_gate.c — the candidate against the last N groups of a history
 * (history_gate.h). */
#include "history_gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

/* E-Divisive's Q of x[0..m] split into the m others and x[j] alone:
 * m/(m+1) · (2/m Σ|x_i − x_j| − Σ_{i<k}|x_i − x_k| / C(m,2)), signed: negative
 * when x[j] lies on the good side of the others' mean (a one-sided test:
 * only a group worse than the others can be a regression). */
static double odd_one_q(const double *x, size_t m1, size_t j, int higher)
{
	double mean = 0;
	for (size_t i = 0; i < m1; i++)
		if (i != j)
			mean += x[i] / (double)(m1 - 1);
	int bad = higher ? x[j] < mean : x[j] > mean;
	double m = (double)(m1 - 1), cross = 0, within = 0;
	for (size_t i = 0; i < m1; i++)
		if (i != j)
			cross += fabs(x[i] - x[j]);
	for (size_t i = 0; i < m1; i++)
		for (size_t k = i + 1; k < m1; k++)
			if (i != j && k != j)
				within += fabs(x[i] - x[k]);
	double e = 2 * cross / m - (m > 1 ? within / (m * (m - 1) / 2) : 0);
	return (bad ? 1 : -1) * m / (m + 1) * e;
}

static void decide(struct amd_history_verdict *v, int higher)
{
	double rel = v->ratio - 1;
	int worse = higher ? rel < -v->threshold : rel > v->threshold;
	if (v->p_min > v->alpha) {
		v->result = AMD_GATE_INSUFFICIENT;
		v->exit_code = AMD_GATE_EXIT_INSUFFICIENT;
		v->word = "INSUFFICIENT DATA";
	} else if (v->p <= v->alpha && worse) {
		v->result = AMD_GATE_REGRESSION;
		v->exit_code = AMD_GATE_EXIT_REGRESSION;
		v->word = "FAIL";
	} else {
		v->result = AMD_GATE_PASS;
		v->exit_code = AMD_GATE_EXIT_PASS;
		v->word = "PASS";
	}
}

int amd_history_gate(const struct amd_history *h, size_t cand, size_t n, double alpha,
		     double threshold, struct amd_history_verdict *v, struct amd_err *err)
{
	if (cand >= h->ngroups || cand == 0)
		return amd_fail(err, "gate --history: the candidate group has no group before it");
	*v = (struct amd_history_verdict){.cand = cand, .alpha = alpha, .threshold = threshold};
	v->n = n < cand ? n : cand;
	v->first = cand - v->n;
	double *x = malloc((v->n + 1) * sizeof *x);
	if (!x)
		return amd_fail(err, "out of memory");
	for (size_t i = 0; i <= v->n; i++)
		x[i] = h->groups[v->first + i].median;
	v->cand_median = x[v->n];
	v->base_median = amd_median(x, v->n);
	v->ratio = v->cand_median / v->base_median;
	int higher = h->higher_is_better;
	v->q = odd_one_q(x, v->n + 1, v->n, higher);
	size_t hits = 0;
	for (size_t j = 0; j <= v->n; j++)
		hits += odd_one_q(x, v->n + 1, j, higher) >= v->q - 1e-12 * fabs(v->q);
	free(x);
	v->p = (double)hits / (double)(v->n + 1);
	v->p_min = 1.0 / (double)(v->n + 1);
	decide(v, h->higher_is_better);
	const struct amd_history_group *c = &h->groups[cand];
	int k = snprintf(v->sentence, sizeof v->sentence,
			 "gate: %s: %s=%s against the %zu groups before it (%s..%s): median %.4g vs "
			 "%.4g (median of their medians), ratio %.3f, change-point p %.3g",
			 v->word, h->by, c->label, v->n, h->groups[v->first].label,
			 h->groups[cand - 1].label, v->cand_median, v->base_median, v->ratio, v->p);
	if (k > 0 && (size_t)k < sizeof v->sentence && v->result == AMD_GATE_INSUFFICIENT)
		snprintf(v->sentence + k, sizeof v->sentence - (size_t)k,
			 "; %zu groups cannot reach alpha %g (smallest p %.3g): %d groups of history"
			 " would", v->n + 1, alpha, v->p_min, (int)ceil(1 / alpha - 1e-9) - 1);
	return 0;
}
