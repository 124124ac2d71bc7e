/* history_gate.c — the candidate and the two groups before it against the
 * last N groups of a history, one exact permutation test a night at
 * alpha / 10 (history_gate.h). */
#include "history_gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

#define MAX_HISTORY 5000 /* C(N+3, 3) sums are counted in O(N² log N) */

/* Sum of |a_i - b_j| over i < na, j < nb (same array: each pair twice). */
static double cross(const double *a, size_t na, const double *b, size_t nb)
{
	double s = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			s += fabs(a[i] - b[j]);
	return s;
}

/* E-Divisive's Q of the window w[0..k) against the history x[0..m),
 * negative when the window's mean lies on the good side of theirs. */
static double window_q(const double *x, size_t m, const double *w, size_t k, int higher)
{
	double mx = 0, mw = 0, dm = (double)m, dk = (double)k;
	for (size_t i = 0; i < m; i++)
		mx += x[i] / dm;
	for (size_t i = 0; i < k; i++)
		mw += w[i] / dk;
	int bad = higher ? mw < mx : mw > mx;
	double e = 2 * cross(x, m, w, k) / (dm * dk);
	if (m > 1)
		e -= cross(x, m, x, m) / (dm * (dm - 1));
	if (k > 1)
		e -= cross(w, k, w, k) / (dk * (dk - 1));
	return (bad ? 1 : -1) * dm * dk / (dm + dk) * e;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* How many 3-subsets of the sorted z[0..m) sum to at least s. */
static double triples_at_least(const double *z, size_t m, double s)
{
	double count = 0;
	for (size_t i = 0; i + 2 < m; i++)
		for (size_t j = i + 1; j + 1 < m; j++) {
			double need = s - z[i] - z[j];
			size_t lo = j + 1, hi = m; /* first k > j with z[k] >= need */
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (z[mid] < need)
					lo = mid + 1;
				else
					hi = mid;
			}
			count += (double)(m - lo);
		}
	return count;
}

/* The exact one-sided p of the window (the last 3 of x[0..m)): the share
 * of the C(m, 3) triples of values, signed so that larger is worse, whose
 * sum is at least the window's. Sorts x's signed copy in z. */
static double window_p(const double *x, size_t m, int higher, double *z)
{
	double sign = higher ? -1 : 1, obs = 0, scale = 0;
	for (size_t i = 0; i < m; i++)
		z[i] = sign * x[i];
	for (size_t i = m - AMD_HISTORY_WINDOW; i < m; i++)
		obs += z[i], scale += fabs(z[i]);
	qsort(z, m, sizeof *z, by_value);
	double dm = (double)m, all = dm * (dm - 1) * (dm - 2) / 6;
	return triples_at_least(z, m, obs - 1e-12 * scale) / all;
}

static void decide(struct amd_history_verdict *v, int higher)
{
	double rel = v->ratio - 1;
	int worse = higher ? rel < -v->threshold : rel > v->threshold;
	if (v->p_min > v->alpha_night) {
		v->result = AMD_GATE_INSUFFICIENT;
		v->exit_code = AMD_GATE_EXIT_INSUFFICIENT;
		v->word = "INSUFFICIENT DATA";
	} else if (v->p <= v->alpha_night && worse) {
		v->result = AMD_GATE_REGRESSION;
		v->exit_code = AMD_GATE_EXIT_REGRESSION;
		v->word = "FAIL";
	} else {
		v->result = AMD_GATE_PASS;
		v->exit_code = AMD_GATE_EXIT_PASS;
		v->word = "PASS";
	}
}

/* The fewest history groups whose smallest p reaches alpha_night. */
static size_t groups_needed(double alpha_night)
{
	size_t n = 1;
	while (n < MAX_HISTORY) {
		double m = (double)(n + AMD_HISTORY_WINDOW);
		if (6 / (m * (m - 1) * (m - 2)) <= alpha_night)
			break;
		n++;
	}
	return n;
}

static void write_sentence(const struct amd_history *h, struct amd_history_verdict *v)
{
	const struct amd_history_group *g = h->groups;
	int k = snprintf(v->sentence, sizeof v->sentence,
			 "gate: %s: %s=%s with the 2 groups before it (%s..%s: median %.4g) "
			 "against the %zu groups before them (%s..%s): median %.4g (median of their "
			 "medians), ratio %.3f, p %.3g at the per-night level %.3g (alpha %g / %d: "
			 "a change must hold for 3 groups)",
			 v->word, h->by, g[v->cand].label, g[v->win].label, g[v->cand].label,
			 v->win_median, v->n, g[v->first].label, g[v->win - 1].label, v->base_median,
			 v->ratio, v->p, v->alpha_night, v->alpha, AMD_HISTORY_SPEND);
	if (k > 0 && (size_t)k < sizeof v->sentence && v->result == AMD_GATE_INSUFFICIENT)
		k += snprintf(v->sentence + k, sizeof v->sentence - (size_t)k,
			      "; %zu groups of history cannot reach it (smallest p %.3g): %zu would",
			      v->n, v->p_min, groups_needed(v->alpha_night));
}

/* The window's and the history's medians, ratio, divergence and p from
 * x[0..n+3) (history first, the window last). */
static int measure(const struct amd_history *h, struct amd_history_verdict *v, double *x,
		   struct amd_err *err)
{
	size_t m = v->n + AMD_HISTORY_WINDOW;
	double *z = malloc(m * sizeof *z);
	if (!z)
		return amd_fail(err, "out of memory");
	v->base_median = amd_median(x, v->n);
	v->win_median = amd_median(x + v->n, AMD_HISTORY_WINDOW);
	v->ratio = v->win_median / v->base_median;
	v->q = window_q(x, v->n, x + v->n, AMD_HISTORY_WINDOW, h->higher_is_better);
	v->p = window_p(x, m, h->higher_is_better, z);
	double dm = (double)m;
	v->p_min = 6 / (dm * (dm - 1) * (dm - 2));
	free(z);
	return 0;
}

int amd_history_gate(const struct amd_history *h, size_t cand, size_t n, double alpha,
		     double threshold, struct amd_history_verdict *v, struct amd_err *err)
{
	if (cand >= h->ngroups || cand < AMD_HISTORY_WINDOW)
		return amd_fail(err, "gate --history: the candidate group needs 3 groups before "
				"it (2 to confirm a change with it, at least 1 of history)");
	*v = (struct amd_history_verdict){.cand = cand, .alpha = alpha, .threshold = threshold};
	v->alpha_night = alpha / AMD_HISTORY_SPEND;
	v->win = cand + 1 - AMD_HISTORY_WINDOW;
	v->n = n < v->win ? n : v->win;
	v->n = v->n < MAX_HISTORY ? v->n : MAX_HISTORY;
	v->first = v->win - v->n;
	size_t m = v->n + AMD_HISTORY_WINDOW;
	double *x = malloc(m * sizeof *x);
	if (!x)
		return amd_fail(err, "out of memory");
	for (size_t i = 0; i < m; i++)
		x[i] = h->groups[v->first + i].median;
	v->cand_median = x[m - 1];
	int rc = measure(h, v, x, err);
	free(x);
	if (rc < 0)
		return rc;
	decide(v, h->higher_is_better);
	write_sentence(h, v);
	return 0;
}
