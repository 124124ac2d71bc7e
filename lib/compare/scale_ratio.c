/* scale_ratio.c — the exact-level interval of a step's factor: order
 * statistics of the pairwise log differences at Mann–Whitney ranks
 * (scale_ratio.h). The k-th smallest of the nb·na differences is found
 * by bisection on its value with a counting pass over the two sorted
 * sides, so no nb·na array is built. */
#include "scale_ratio.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>

#include "significance.h"

struct logs {
	double *b, *a; /* sorted logs of before, after */
	size_t nb, na;
};

/* Pairs (i, j) with a[j] − b[i] ≤ t. */
static size_t count_at_most(const struct logs *s, double t)
{
	size_t c = 0, i = 0; /* i: the first b with b[i] ≥ a[j] − t; only rises with j */
	for (size_t j = 0; j < s->na; j++) {
		while (i < s->nb && s->b[i] < s->a[j] - t)
			i++;
		c += s->nb - i;
	}
	return c;
}

/* The largest difference a[j] − b[i] that is ≤ t. */
static double largest_at_most(const struct logs *s, double t)
{
	double best = -INFINITY;
	size_t i = 0;
	for (size_t j = 0; j < s->na; j++) {
		while (i < s->nb && s->b[i] < s->a[j] - t)
			i++;
		if (i < s->nb && s->a[j] - s->b[i] > best)
			best = s->a[j] - s->b[i];
	}
	return best;
}

/* The k-th smallest (1-based) pairwise difference. */
static double kth_difference(const struct logs *s, size_t k)
{
	double lo = s->a[0] - s->b[s->nb - 1], hi = s->a[s->na - 1] - s->b[0];
	if (count_at_most(s, lo) >= k)
		return lo;
	for (int it = 0; it < 2000; it++) { /* count(lo) < k ≤ count(hi) */
		double mid = lo + (hi - lo) / 2;
		if (!(mid > lo && mid < hi))
			break;
		if (count_at_most(s, mid) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return largest_at_most(s, hi);
}

/* The rank k (1-based from each end) for level, with its own level. */
static int rank_for(size_t nb, size_t na, double level, size_t *k, double *got)
{
	double mn = (double)nb * (double)na;
	double *cdf = amd_mwu_exact_cdf_table(nb, na);
	if (cdf) {
		*k = 1;
		*got = 1 - 2 * cdf[0];
		while (*k < nb * na / 2 && 1 - 2 * cdf[*k] >= level - 1e-12)
			*got = 1 - 2 * cdf[(*k)++];
		free(cdf);
		return 0;
	}
	if (nb * na <= AMD_MWU_EXACT_MAX_MN)
		return -1; /* out of memory */
	double sd = sqrt(mn * ((double)(nb + na) + 1) / 12);
	double kk = floor(mn / 2 - gsl_cdf_ugaussian_Qinv((1 - level) / 2) * sd);
	*k = kk >= 1 ? (size_t)kk : 1;
	*got = 1 - 2 * gsl_cdf_ugaussian_P(((double)*k - 0.5 - mn / 2) / sd);
	return 0;
}

static double *sorted_logs(const double *v, size_t n)
{
	double *x = malloc(n * sizeof *x);
	for (size_t i = 0; x && i < n; i++)
		x[i] = log(v[i]);
	if (x)
		gsl_sort(x, 1, n);
	return x;
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0 && isfinite(v[i])))
			return 0;
	return 1;
}

int amd_scale_ratio_ci(const double *before, size_t nb, const double *after, size_t na,
		       double level, double point, struct amd_ci *ci, struct amd_err *err)
{
	*ci = (struct amd_ci){NAN, NAN, 0, NULL, 0};
	if (nb < 3 || na < 3) {
		ci->why = "fewer than 3 runs on a side: no interval";
		return 0;
	}
	if (!all_positive(before, nb) || !all_positive(after, na)) {
		ci->why = "a value is not > 0: no ratio interval";
		return 0;
	}
	struct logs s = {sorted_logs(before, nb), sorted_logs(after, na), nb, na};
	size_t k;
	double got;
	int rc = s.b && s.a && rank_for(nb, na, level, &k, &got) == 0 ? 0 : -1;
	if (rc == 0) {
		ci->lo = exp(kth_difference(&s, k));
		ci->hi = exp(kth_difference(&s, nb * na + 1 - k));
		if (point < ci->lo)
			ci->lo = point;
		if (point > ci->hi)
			ci->hi = point;
		ci->level = got;
		ci->valid = 1;
	}
	free(s.b);
	free(s.a);
	return rc < 0 ? amd_fail(err, "ratio interval: out of memory") : 0;
}
