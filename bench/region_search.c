/* region_search.c — bench harness of the region model search
 * (lib/analysis/region_fit.h): REGIONS synthetic regions (forms of the
 * hypothesis set, 5% multiplicative noise) at n = 2, 4, 8, 16, 32 with 5
 * repeats each. Prints "search_s bootstrap_s reference_s regions" in
 * CPU seconds (the machine may be shared): the model search alone
 * (hypotheses, leave-one-n-out CV, parsimony rule), the search with the
 * bootstrap intervals `amdahl scaling` adds (1000 resamples), and a
 * reference on the same data: one plain weighted least-squares fit
 * (gsl_fit_wlinear) per region and hypothesis, what a search costs
 * with no cross-validation. Target: the search over 10,000 regions in
 * under 2 s. With a second argument B, a fifth figure: the search with
 * the bootstrap and B replicates of the search rerun
 * (amd_rfit_opts.reselect, off in amdahl). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_randist.h>

#include "region_fit.h"
#include "stats.h"

#define NPTS 5
#define REPS 5
#define M (NPTS * REPS)

static const double EXP_I[] = { -1, -0.5, 0, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1,
				1.25, 4.0 / 3, 1.5, 2, 3 };
#define N_I (sizeof EXP_I / sizeof EXP_I[0])

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long regions = argc > 1 ? atol(argv[1]) : 10000;
	double *n = malloc(sizeof(double) * M * (size_t)regions);
	double *y = malloc(sizeof(double) * M * (size_t)regions);
	gsl_rng *r = amd_rng_new(11);
	if (!n || !y || !r || regions <= 0)
		return 2;
	for (long g = 0; g < regions; g++) {
		double i = EXP_I[g % N_I];
		int j = (int)(g / N_I % 3);
		for (int k = 0; k < M; k++) {
			double x = 2 << (k / REPS);
			n[g * M + k] = x;
			y[g * M + k] = (1 + 0.1 * amd_rfit_basis(x, i, j)) * (1 + 0.05 * gsl_ran_gaussian(r, 1));
		}
	}
	int rs = argc > 2 ? atoi(argv[2]) : 0;
	double t[4] = { 0 };
	for (int pass = 0; pass < (rs > 0 ? 3 : 2); pass++) {
		struct amd_rfit_opts o = { pass ? 1000 : 0, 20260101UL, 0.95, 0.05, 0, pass == 2 ? rs : 0 };
		double t0 = now();
		for (long g = 0; g < regions; g++) {
			struct amd_rfit f;
			if (amd_rfit_search(n + g * M, y + g * M, M, &o, &f) < 0)
				return 2;
			amd_rfit_free(&f);
		}
		t[pass == 2 ? 3 : pass] = now() - t0;
	}
	double t1 = now(), sink = 0, w[M], x[M];
	for (int k = 0; k < M; k++)
		w[k] = 1;
	for (long g = 0; g < regions; g++)
		for (size_t h = 0; h < N_I * 3; h++) {
			double c0, c1, c00, c01, c11, rss;
			for (int k = 0; k < M; k++)
				x[k] = amd_rfit_basis(n[g * M + k], EXP_I[h / 3], (int)(h % 3));
			gsl_fit_wlinear(x, 1, w, 1, y + g * M, 1, M, &c0, &c1, &c00, &c01, &c11, &rss);
			sink += c1;
		}
	t[2] = now() - t1;
	printf("%.3f %.3f %.3f %ld%s", t[0], t[1], t[2], regions, isfinite(sink) ? "" : " ");
	if (rs > 0)
		printf(" %.3f", t[3]);
	printf("\n");
	gsl_rng_free(r);
	free(n);
	free(y);
	return 0;
}
