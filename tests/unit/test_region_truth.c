/* test_region_truth.c — the ground truth of the region model search
 * (lib/analysis/region_fit.h), Extra-P style: a generator builds
 * synthetic sweeps whose regions follow known functions t(n) = 1 + c1 ·
 * n^i · log2(n)^j (every form of the hypothesis set, and the constant),
 * measured at n = 2, 4, 8, 16, 32 with 5 repeats each under
 * multiplicative Gaussian noise (sd 1%, 5%, 10%). Two designs: c1
 * makes the term reach 100 (the term dominates, as in Extra-P's
 * synthetic evaluations) or only 4 (a term as big as a few times the
 * constant) at its largest over the measured n. Checks: with the
 * dominating term, the right term (i and j, or constant) is chosen for
 * at least 95% of regions at 1% noise and 80% at 5%; in both designs a
 * new measurement at 4 × the largest n falls inside its 95% prediction
 * interval 90–100% of the time. The evaluation table is printed (README
 * "Scaling model" quotes it). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

#include "region_fit.h"
#include "stats.h"

static const double EXP_I[] = { -1, -0.5, 0, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1,
				1.25, 4.0 / 3, 1.5, 2, 3 };
#define N_I (sizeof EXP_I / sizeof EXP_I[0])
#define NPTS 5
#define REPS 5
#define SWEEPS 12 /* generated sweeps per form and noise level */

static const double NS[NPTS] = { 2, 4, 8, 16, 32 };

struct form {
	double i;
	int j, constant;
	double c1;
};

static double truth(const struct form *f, double n)
{
	return 1 + (f->constant ? 0 : f->c1 * amd_rfit_basis(n, f->i, f->j));
}

static struct form make_form(double i, int j, int constant, double span)
{
	struct form f = { i, j, constant, 0 };
	double mx = 0;
	for (int k = 0; k < NPTS; k++)
		mx = fmax(mx, fabs(amd_rfit_basis(NS[k], i, j)));
	f.c1 = constant ? 0 : span / mx;
	return f;
}

/* One generated sweep of form f at noise sd; right and covered counted. */
static void one_sweep(gsl_rng *r, const struct form *f, double sd, unsigned long seed,
		      int *right, int *covered)
{
	double n[NPTS * REPS], y[NPTS * REPS];
	for (int k = 0; k < NPTS * REPS; k++) {
		n[k] = NS[k / REPS];
		y[k] = truth(f, n[k]) * (1 + sd * gsl_ran_gaussian(r, 1));
	}
	struct amd_rfit_opts o = { 1000, seed, 0.95, 0.05, 0, 0 };
	struct amd_rfit fit;
	assert_int_equal(amd_rfit_search(n, y, NPTS * REPS, &o, &fit), 0);
	*right = f->constant ? fit.nterms == 0
		: fit.nterms == 1 && fit.term[0].i == f->i && fit.term[0].j == f->j;
	double x = 4 * NS[NPTS - 1], lo, hi;
	assert_int_equal(amd_rfit_interval(&fit, x, 0.95, &lo, &hi), 0);
	double fresh = truth(f, x) * (1 + sd * gsl_ran_gaussian(r, 1));
	*covered = fresh >= lo && fresh <= hi;
	amd_rfit_free(&fit);
}

/* One design (term span) at every noise level; table rows printed. */
static void evaluate(gsl_rng *r, double span, int check_terms)
{
	static const double noise[] = { 0.01, 0.05, 0.10 };
	for (size_t s = 0; s < 3; s++) {
		int total = 0, right = 0, covered = 0;
		for (size_t h = 0; h <= N_I * 3; h++) {
			if (h < N_I * 3 && EXP_I[h / 3] == 0 && h % 3 == 0)
				continue; /* i = 0, j = 0 is the constant below */
			struct form f = h == N_I * 3 ? make_form(0, 0, 1, span)
				: make_form(EXP_I[h / 3], (int)(h % 3), 0, span);
			for (int k = 0; k < SWEEPS; k++) {
				int ok, cov;
				one_sweep(r, &f, noise[s], 1000 + (unsigned long)k, &ok, &cov);
				total++;
				right += ok;
				covered += cov;
			}
		}
		double pr = 100.0 * right / total, pc = 100.0 * covered / total;
		print_message("| %5.0f | %4.0f%% | %7d | %9.1f%% | %9.1f%% |\n", span, noise[s] * 100,
			      total, pr, pc);
		if (check_terms && s == 0)
			assert_true(pr >= 95);
		if (check_terms && s == 1)
			assert_true(pr >= 80);
		assert_true(pc >= 90 && pc <= 100);
	}
}

static void test_ground_truth(void **state)
{
	(void)state;
	gsl_rng *r = amd_rng_new(7);
	assert_non_null(r);
	print_message("| term span | noise | regions | right term | 95%% PI coverage at 4x max n |\n");
	evaluate(r, 100, 1);
	evaluate(r, 4, 0);
	gsl_rng_free(r);
}

/* Two terms need 6 distinct n: t = 1 + 4/n + 0.05 n at n = 1 … 128 (8 n,
 * 5 repeats, 1% noise) keeps both, the exact exponents, coefficients
 * within 5%; the same data at 5 n keeps one term. */
static void test_two_terms(void **state)
{
	(void)state;
	double n[40], y[40];
	gsl_rng *r = amd_rng_new(3);
	assert_non_null(r);
	for (int k = 0; k < 40; k++) {
		n[k] = 1 << (k / 5);
		y[k] = (1 + 4 / n[k] + 0.05 * n[k]) * (1 + 0.01 * gsl_ran_gaussian(r, 1));
	}
	gsl_rng_free(r);
	struct amd_rfit_opts o = { 200, 1, 0.95, 0.05, 0, 0 };
	struct amd_rfit f;
	assert_int_equal(amd_rfit_search(n, y, 40, &o, &f), 0);
	assert_int_equal(f.distinct_n, 8);
	assert_int_equal(f.nterms, 2);
	double c_inv = NAN, c_lin = NAN;
	for (int t = 0; t < 2; t++) {
		assert_int_equal(f.term[t].j, 0);
		if (f.term[t].i == -1)
			c_inv = f.term[t].coef;
		if (f.term[t].i == 1)
			c_lin = f.term[t].coef;
	}
	assert_true(fabs(c_inv - 4) < 0.2 && fabs(c_lin - 0.05) < 0.0025 && fabs(f.c0 - 1) < 0.05);
	amd_rfit_free(&f);
	assert_int_equal(amd_rfit_search(n + 15, y + 15, 25, &o, &f), 0); /* n = 8 … 128 */
	assert_int_equal(f.distinct_n, 5);
	assert_true(f.nterms <= 1);
	amd_rfit_free(&f);
}

/* No trend: a constant with noise stays constant (no terms), its
 * interval holds the mean; too few n (2) give the constant. */
static void test_constant(void **state)
{
	(void)state;
	double n[25], y[25], two_n[] = { 2, 2, 4, 4 }, two_y[] = { 1, 1.1, 2, 2.1 };
	gsl_rng *r = amd_rng_new(5);
	assert_non_null(r);
	for (int k = 0; k < 25; k++) {
		n[k] = 2 << (k / 5);
		y[k] = 3 * (1 + 0.02 * gsl_ran_gaussian(r, 1));
	}
	gsl_rng_free(r);
	struct amd_rfit_opts o = { 1000, 1, 0.95, 0.05, 0, 0 };
	struct amd_rfit f;
	assert_int_equal(amd_rfit_search(n, y, 25, &o, &f), 0);
	assert_int_equal(f.nterms, 0);
	assert_string_equal(amd_rfit_growth(&f, 32), "constant");
	assert_true(f.c0_lo < 3 && f.c0_hi > 3 && f.c0_hi - f.c0_lo < 0.1);
	amd_rfit_free(&f);
	assert_int_equal(amd_rfit_search(two_n, two_y, 4, &o, &f), 0);
	assert_int_equal(f.nterms, 0);
	amd_rfit_free(&f);
}

/* The constant model's prediction interval is the classical one of a
 * new observation, mean ± t(m-1) · sd · sqrt(1 + 1/m) (references from
 * scipy.stats.t), and the narrowing "what to measure next" uses is the
 * same interval with k more runs: t(m-1+k) · sd · sqrt(1 + 1/(m+k))
 * (issue 33: it was the variance of the mean alone, 0.33 predicted
 * where 0.72 was realised). */
static void test_constant_interval_is_t(void **state)
{
	(void)state;
	double n[] = { 4, 4, 4, 4, 4 }, y[] = { 10, 11, 12, 13, 14 }, lo, hi;
	struct amd_rfit_opts o = { 100, 1, 0.95, 0.05, 0, 0 };
	struct amd_rfit f;
	assert_int_equal(amd_rfit_search(n, y, 5, &o, &f), 0);
	assert_int_equal(f.nterms, 0);
	assert_int_equal(amd_rfit_interval(&f, 4, 0.95, &lo, &hi), 0);
	assert_true(fabs(lo - 7.1910560133714965) < 1e-9 && fabs(hi - 16.808943986628503) < 1e-9);
	assert_true(fabs(amd_rfit_pred_var(&f, 4, 0.95, 0, 0) - (hi - lo) * (hi - lo) / 4) < 1e-9);
	assert_true(fabs(amd_rfit_pred_var(&f, 4, 0.95, 4, 3) - 15.725947073810676) < 1e-7); /* GSL's t quantile */
	amd_rfit_free(&f);
}

/* The quick, seeded version of tests/eval/coverage_eval (make eval):
 * sweeps at n = 1..32 with relative noise, one observation per run. A
 * new run at 4x the largest n inside its 95% interval 90-99% of 200
 * sweeps for t = 0.002 + 0.4/n with one run per n at 5% noise, and for
 * t = 0.002 + 0.4/n + 0.004·log2(n) with 3 runs per n at 1% at least
 * 85% (make eval holds the 93-97% target); with 3 runs per n at 5%
 * the level amd_rfit_interval_level prints beside it is below 93% and
 * the interval covers at least that (within 8 points of binomial error
 * on 100 sweeps; it was labelled 95% and covered 67%); the
 * narrowing 3 more runs at 2x predict (one term, 3 runs per n, 5%)
 * within 15% of the one realised. */
/* coverage_check's narrowings where scaling prints them (amd_rfit_narrowing_holds). */
static int printed_k;
static double printed_p, printed_r;
/* > 0: coverage_check's sweeps have their noise draws rescaled to this
 * sample sd (a noise estimate low by chance); the new runs keep `noise`. */
static double chance_sd;

/* The relative noise draws of m observations, sd `noise`, or exactly
 * chance_sd about their mean when it is set. */
static void noise_draws(gsl_rng *r, double noise, double *e, size_t m)
{
	for (size_t k = 0; k < m; k++)
		e[k] = noise * gsl_ran_gaussian(r, 1);
	if (!(chance_sd > 0))
		return;
	double mean = gsl_stats_mean(e, 1, m), sd = gsl_stats_sd_m(e, 1, m, mean);
	for (size_t k = 0; k < m; k++)
		e[k] = (e[k] - mean) / sd * chance_sd;
}

static void coverage_check(int terms, int runs, double noise, int narrow, int *cov, double *pred,
			   double *real, double *label)
{
	gsl_rng *r = amd_rng_new(11);
	assert_non_null(r);
	double n[6 * 3 + 3], y[6 * 3 + 3], sp = 0, sr = 0, sl = 0;
	int got = 0, k = 0;
	printed_k = 0;
	printed_p = printed_r = 0;
	for (int s = 0; s < 100; s++) {
		size_t m = 0;
		double e[6 * 3];
		noise_draws(r, noise, e, (size_t)(6 * runs));
		for (int p = 0; p < 6; p++)
			for (int u = 0; u < runs; u++, m++) {
				n[m] = 1 << p;
				y[m] = (0.002 + 0.4 / n[m] + (terms == 2 ? 0.004 * log2(n[m]) : 0))
					* (1 + e[m]);
			}
		struct amd_rfit_opts o = { 50, 20260101UL, 0.95, 0.05, 128, 0 };
		struct amd_rfit f, g;
		double lo, hi, t128 = 0.002 + 0.4 / 128 + (terms == 2 ? 0.004 * 7 : 0);
		assert_int_equal(amd_rfit_search(n, y, m, &o, &f), 0);
		assert_int_equal(amd_rfit_interval(&f, 128, 0.95, &lo, &hi), 0);
		double fresh = t128 * (1 + noise * gsl_ran_gaussian(r, 1));
		got += fresh >= lo && fresh <= hi;
		sl += amd_rfit_interval_level(&f, 128, 0.95);
		if (!narrow) {
			amd_rfit_free(&f);
			continue;
		}
		double before = amd_rfit_pred_var(&f, 128, 0.95, 0, 0);
		double after = amd_rfit_pred_var(&f, 128, 0.95, 64, 3);
		for (int u = 0; u < 3; u++, m++) {
			n[m] = 64;
			y[m] = (0.002 + 0.4 / 64 + (terms == 2 ? 0.004 * 6 : 0)) * (1 + noise * gsl_ran_gaussian(r, 1));
		}
		assert_int_equal(amd_rfit_search(n, y, m, &o, &g), 0);
		assert_int_equal(amd_rfit_interval(&g, 128, 0.95, &lo, &hi), 0);
		if (before > 0 && isfinite(after) && isfinite(lo)) {
			sp += sqrt(after / before);
			sr += (hi - lo) / (2 * sqrt(before));
			k++;
			if (amd_rfit_narrowing_holds(&f)) {
				printed_k++;
				printed_p += sqrt(after / before);
				printed_r += (hi - lo) / (2 * sqrt(before));
			}
		}
		amd_rfit_free(&f);
		amd_rfit_free(&g);
	}
	gsl_rng_free(r);
	*cov = got;
	*label = sl / 100;
	*pred = k ? sp / k : NAN;
	*real = k ? sr / k : NAN;
}

static void test_coverage_quick(void **state)
{
	(void)state;
	int cov;
	double pred, real, label;
	coverage_check(1, 1, 0.05, 0, &cov, &pred, &real, &label);
	print_message("one term, 1 run per n, 5%%: %d/100 covered at 4x (level %.0f%%)\n", cov, 100 * label);
	assert_true(cov >= 90 && cov <= 99);
	coverage_check(2, 3, 0.01, 0, &cov, &pred, &real, &label);
	print_message("two terms, 3 runs per n, 1%%: %d/100 covered at 4x (floor 85: make eval)\n", cov);
	assert_true(cov >= 85 && cov <= 99);
	/* shrinking compute + growing communication at 5% noise: no model the
	 * search keeps extrapolates the growth, so the interval says what it
	 * covers (it said 95% and covered 73-80%) */
	coverage_check(2, 3, 0.05, 0, &cov, &pred, &real, &label);
	print_message("two terms, 3 runs per n, 5%%: %d/100 covered at 4x, printed level %.1f%%\n", cov,
		      100 * label);
	assert_true(label < 0.93 && cov >= 100 * label - 8);
	/* at 10% the full evaluation found 67.0% covered under a printed 75%
	 * (make eval, seed 20260101); the table now from 500 sweeps a shape */
	coverage_check(2, 3, 0.10, 0, &cov, &pred, &real, &label);
	print_message("two terms, 3 runs per n, 10%%: %d/100 covered at 4x, printed level %.1f%%\n", cov,
		      100 * label);
	assert_true(label < 0.72 && cov >= 100 * label - 8);
	coverage_check(1, 3, 0.05, 1, &cov, &pred, &real, &label);
	print_message("one term, 3 runs per n, 5%%: %d/100 covered at 4x; narrowing %.3f predicted, %.3f realised\n",
		      cov, pred, real);
	assert_true(cov >= 90 && cov <= 99);
	assert_true(fabs(pred / real - 1) <= 0.15);
}

/* "What to measure next" prints a narrowing only where make eval found
 * it within 10% of the one realised (amd_rfit_narrowing_holds): one
 * term, 3 runs per n, 1% noise, printed for nearly every sweep and
 * within 10%; two terms at 1% (the log term resolved by the new runs:
 * predicted 2.4x the realised narrowing) and at 5% (a hidden second
 * term: 0.2x) never printed — before, every prediction from 2 runs per
 * n was. */
static void test_narrowing_printed(void **state)
{
	(void)state;
	int cov;
	double pred, real, label;
	coverage_check(1, 3, 0.01, 1, &cov, &pred, &real, &label);
	print_message("one term, 3 runs per n, 1%%: narrowing printed %d/100, %.3f predicted, %.3f realised\n",
		      printed_k, printed_p / printed_k, printed_r / printed_k);
	assert_true(printed_k >= 90);
	assert_true(fabs(printed_p / printed_r - 1) <= 0.1);
	coverage_check(2, 3, 0.01, 1, &cov, &pred, &real, &label);
	print_message("two terms, 3 runs per n, 1%%: predicted/realised %.2f over all, printed %d/100\n",
		      pred / real, printed_k);
	assert_true(printed_k == 0 || fabs(printed_p / printed_r - 1) <= 0.1);
	coverage_check(2, 3, 0.05, 1, &cov, &pred, &real, &label);
	print_message("two terms, 3 runs per n, 5%%: predicted/realised %.2f over all, printed %d/100\n",
		      pred / real, printed_k);
	assert_true(printed_k == 0 || fabs(printed_p / printed_r - 1) <= 0.1);
}

/* One term, 3 runs per n, 5% noise whose estimate came out low by
 * chance (the draws rescaled to a 2.3% sample sd): the new runs at 64
 * raise it, so the narrowing predicted with it is overstated (make eval
 * printed 0.76 predicted/realised where the point estimate was below
 * 2.5%); the rule asks the noise's upper 95% bound to be below 2.5%,
 * so none is printed (s < 1.76% at 16 degrees of freedom). Before, 98
 * of the 100 were. */
static void test_narrowing_low_noise_by_chance(void **state)
{
	(void)state;
	int cov;
	double pred, real, label;
	chance_sd = 0.023;
	coverage_check(1, 3, 0.05, 1, &cov, &pred, &real, &label);
	chance_sd = 0;
	print_message("one term, 3 runs per n, 5%% drawn at a 2.3%% sample sd: predicted/realised %.2f,"
		      " printed %d/100\n", pred / real, printed_k);
	assert_true(pred / real < 0.9);
	assert_int_equal(printed_k, 0);
}

/* amd_rfit_opts.reselect (off in amdahl; tests/eval/coverage_eval
 * --reselect): on 30 sweeps of t = 0.002 + 0.4/n + 0.004·log2(n), 3 runs
 * per n at 10% noise, the replicates' models are kept with their counts
 * (at most as many as replicates, each of them a model that stays above
 * 0), the interval at 4x holds the one without them, it is wider in
 * some sweep (the search chose otherwise in some replicate), and it
 * covers a new run at least as often; without reselect no model is kept. */
static void test_reselect(void **state)
{
	(void)state;
	gsl_rng *r = amd_rng_new(5);
	assert_non_null(r);
	int wider = 0, cov0 = 0, cov1 = 0, several = 0;
	for (int s = 0; s < 30; s++) {
		double n[18], y[18];
		for (int m = 0; m < 18; m++) {
			n[m] = 1 << (m / 3);
			y[m] = (0.002 + 0.4 / n[m] + 0.004 * log2(n[m])) * (1 + 0.1 * gsl_ran_gaussian(r, 1));
		}
		struct amd_rfit_opts o0 = { 50, 20260101UL, 0.95, 0.05, 128, 0 };
		struct amd_rfit_opts o1 = { 50, 20260101UL, 0.95, 0.05, 128, 10 };
		struct amd_rfit f, g;
		double lo, hi, lo1, hi1, fresh = (0.002 + 0.4 / 128 + 0.028) * (1 + 0.1 * gsl_ran_gaussian(r, 1));
		assert_int_equal(amd_rfit_search(n, y, 18, &o0, &f), 0);
		assert_int_equal(amd_rfit_search(n, y, 18, &o1, &g), 0);
		assert_int_equal(f.nbag, 0);
		int total = 0;
		for (int k = 0; k < g.nbag; k++) {
			total += g.bag_count[k];
			assert_true(g.bag_count[k] >= 1);
		}
		assert_true(g.nbag >= 1 && total <= 10);
		several += g.nbag >= 2;
		amd_rfit_interval(&f, 128, 0.95, &lo, &hi);
		amd_rfit_interval(&g, 128, 0.95, &lo1, &hi1);
		assert_true(lo1 <= lo && hi1 >= hi);
		wider += hi1 - lo1 > (hi - lo) * 1.01;
		cov0 += fresh >= lo && fresh <= hi;
		cov1 += fresh >= lo1 && fresh <= hi1;
		amd_rfit_free(&f);
		amd_rfit_free(&g);
	}
	gsl_rng_free(r);
	print_message("reselect 10: %d/30 sweeps with 2+ models, %d wider, covered %d -> %d of 30\n",
		      several, wider, cov0, cov1);
	assert_true(several >= 1 && wider >= 1 && cov1 >= cov0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ground_truth),
		cmocka_unit_test(test_two_terms),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_constant_interval_is_t),
		cmocka_unit_test(test_coverage_quick),
		cmocka_unit_test(test_narrowing_printed),
		cmocka_unit_test(test_narrowing_low_noise_by_chance),
		cmocka_unit_test(test_reselect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
