/* changepoint.c — E-Divisive means with its permutation test
 * (changepoint.h). A segment's best split is found in O(L²) from 2-D
 * prefix sums of the distance matrix, so R permutations of a history of
 * L groups cost O(R·L²). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* Scratch for one segment of up to cap values. */
struct cp_work {
	size_t cap;
	double *pre;  /* (cap+1)² prefix sums of |x_i - x_j| */
	double *perm; /* a shuffled copy of a segment */
};

/* Sum of |x_i - x_j| over i in [i0,i1), j in [j0,j1). */
static double rect(const struct cp_work *w, size_t i0, size_t i1, size_t j0, size_t j1)
{
	size_t s = w->cap + 1;
	return w->pre[i1 * s + j1] - w->pre[i0 * s + j1] - w->pre[i1 * s + j0] +
	       w->pre[i0 * s + j0];
}

/* Q of left = x[0..t) against right = x[t..k), from the prefix sums. */
static double split_q(const struct cp_work *w, size_t t, size_t k)
{
	double m = (double)t, r = (double)(k - t);
	double e = 2 * rect(w, 0, t, t, k) / (m * r);
	if (t > 1)
		e -= rect(w, 0, t, 0, t) / (m * (m - 1)); /* ordered pairs: 2·Σ / (2·C(m,2)) */
	if (k - t > 1)
		e -= rect(w, t, k, t, k) / (r * (r - 1));
	return m * r / (m + r) * e;
}

/* The weight of a split's divergence: 1 for a right side that reaches the
 * segment's end (x[t..len)), INTERIOR_WEIGHT for a block inside it
 * (x[t..k), k < len). There are O(len²) blocks against O(len) end splits,
 * so at full weight their maximum under no change sets the permutation
 * threshold a new step at the end must beat (median delay of a +10% step
 * at 5% noise: 5 commits; tests/eval/history_eval.c). 0.8 brings it to 3
 * and keeps a reverted regression (a block) at F1 0.98. */
#define INTERIOR_WEIGHT 0.8

/* The best split of x[0..len): its weighted divergence (NAN when len is
 * too short for min values before a split and tail after it) and index.
 * Both boundaries are searched, as Matteson & James do: the left side
 * x[0..t), t >= min, is scored against the right side x[t..len) of at
 * least tail values and against every block x[t..k), k < len, of at least
 * min values — so a block that differs from what precedes it and then
 * returns (a regression later reverted) is scored as itself, not diluted
 * by the values after its end. tail is one less than min: the newest
 * values are where a new change shows first. */
static double best_split(const double *x, size_t len, size_t min, struct cp_work *w,
			 size_t *at)
{
	size_t s = w->cap + 1, tail = min > 2 ? min - 1 : min;
	if (len < min + tail)
		return NAN;
	for (size_t i = 0; i <= len; i++)
		w->pre[i * s] = w->pre[i] = 0;
	for (size_t i = 1; i <= len; i++)
		for (size_t j = 1; j <= len; j++)
			w->pre[i * s + j] = fabs(x[i - 1] - x[j - 1]) + w->pre[(i - 1) * s + j] +
					    w->pre[i * s + j - 1] - w->pre[(i - 1) * s + j - 1];
	double best = -INFINITY;
	for (size_t t = min; t + tail <= len; t++)
		for (size_t k = t + tail; k <= len; k++) {
			if (k < len && k - t < min)
				continue;
			double q = split_q(w, t, k) * (k < len ? INTERIOR_WEIGHT : 1);
			if (q > best) {
				best = q;
				*at = t;
			}
		}
	return best;
}

/* The largest best split over the segments bounds[0..nb] cut x into; its
 * absolute index in *at. NAN when no segment can be split. */
static double best_over(const double *x, const size_t *bounds, size_t nb, size_t min,
			struct cp_work *w, size_t *at)
{
	double best = NAN;
	for (size_t s = 0; s + 1 < nb; s++) {
		size_t t = 0;
		double q = best_split(x + bounds[s], bounds[s + 1] - bounds[s], min, w, &t);
		if (!isnan(q) && (isnan(best) || q > best)) {
			best = q;
			*at = bounds[s] + t;
		}
	}
	return best;
}

/* The permutation p-value of q: x shuffled within each segment, R times. */
static double perm_p(const double *x, size_t n, const size_t *bounds, size_t nb, size_t min,
		     double q, int R, gsl_rng *rng, struct cp_work *w)
{
	size_t hits = 0, at;
	for (int r = 0; r < R; r++) {
		memcpy(w->perm, x, n * sizeof *x);
		for (size_t s = 0; s + 1 < nb; s++)
			gsl_ran_shuffle(rng, w->perm + bounds[s], bounds[s + 1] - bounds[s],
					sizeof *w->perm);
		double qr = best_over(w->perm, bounds, nb, min, w, &at);
		hits += !isnan(qr) && qr >= q * (1 - 1e-12);
	}
	return (double)(hits + 1) / (double)(R + 1);
}

static void add_bound(size_t *bounds, size_t *nb, size_t at)
{
	size_t i = *nb;
	while (i > 0 && bounds[i - 1] > at) {
		bounds[i] = bounds[i - 1];
		i--;
	}
	bounds[i] = at;
	(*nb)++;
}

static void detect(const double *x, size_t n, const struct amd_cp_opts *o, struct cp_work *w,
		  size_t *bounds, gsl_rng *rng, struct amd_change *out, size_t *nout)
{
	size_t nb = 2;
	bounds[0] = 0;
	bounds[1] = n;
	for (;;) {
		size_t at = 0;
		double q = best_over(x, bounds, nb, o->min_size, w, &at);
		if (isnan(q))
			return;
		double p = perm_p(x, n, bounds, nb, o->min_size, q, o->permutations, rng, w);
		if (p > o->alpha)
			return;
		out[(*nout)++] = (struct amd_change){.at = at, .q = q, .p = p};
		add_bound(bounds, &nb, at);
	}
}

static int by_index(const void *a, const void *b)
{
	const struct amd_change *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

int amd_edivisive(const double *x, size_t n, const struct amd_cp_opts *in,
		  struct amd_change **out, size_t *nout, struct amd_err *err)
{
	*out = NULL;
	*nout = 0;
	struct amd_cp_opts o = in ? *in : (struct amd_cp_opts){0};
	o.alpha = o.alpha > 0 && o.alpha < 1 ? o.alpha : 0.05;
	o.permutations = o.permutations > 0 ? o.permutations : 999;
	o.seed = o.seed ? o.seed : 20260101UL;
	o.min_size = o.min_size ? o.min_size : 3;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return amd_fail(err, "change points: value %zu is not a number", i);
	struct cp_work w = {.cap = n};
	w.pre = malloc((n + 1) * (n + 1) * sizeof *w.pre);
	w.perm = malloc((n ? n : 1) * sizeof *w.perm);
	size_t *bounds = malloc((n + 2) * sizeof *bounds);
	struct amd_change *cp = malloc((n ? n : 1) * sizeof *cp);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = w.pre && w.perm && bounds && cp && rng ? 0 : amd_fail(err, "out of memory");
	if (rc == 0) {
		gsl_rng_set(rng, o.seed);
		detect(x, n, &o, &w, bounds, rng, cp, nout);
		qsort(cp, *nout, sizeof *cp, by_index);
		if (*nout)
			*out = cp, cp = NULL;
	}
	free(w.pre);
	free(w.perm);
	free(bounds);
	free(cp);
	if (rng)
		gsl_rng_free(rng);
	return rc;
}
