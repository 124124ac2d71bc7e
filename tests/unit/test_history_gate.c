/* test_history_gate.c — `gate --history` (lib/compare/history_gate.c):
 * its p against a brute-force count of every triple written here, the
 * short history that cannot reach the per-night level, and its error
 * held across nights: 200 seeded histories of 20 nights of history and
 * 40 nightly checks (each night the median of 3 runs, 5% log-normal
 * noise, alpha 0.05, threshold 5%) — without a change at most 10% get any
 * false FAIL (plus 2 standard errors of 200: 0.142; measured 0.125; each
 * night at 0.05 by itself: 0.885), and a +10% step is caught within 3
 * nights in at least 0.90 less 2 standard errors (0.858; measured 0.92).
 * The full evaluation is tests/eval/history_eval.c (`make eval`). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "history_gate.h"
#include "history_gate_rates.h"

#define WARM 20
#define NIGHTS 40
#define ALL (WARM + NIGHTS)

static char by[] = "night", label[] = "n";

static void set_history(struct amd_history *h, struct amd_history_group *g, const double *x,
			size_t n)
{
	memset(g, 0, n * sizeof *g);
	for (size_t i = 0; i < n; i++)
		g[i].label = label, g[i].median = x[i];
	*h = (struct amd_history){.by = by, .groups = g, .ngroups = n};
}

static void test_p_counts_every_triple(void **state)
{
	(void)state;
	const double x[] = {1.00, 1.03, 0.97, 1.01, 0.99, 1.02, 0.98, 1.04, 1.00, 0.96,
			    1.01, 1.05, 1.08, 1.02};
	size_t n = sizeof x / sizeof x[0];
	struct amd_history_group g[14];
	struct amd_history h;
	set_history(&h, g, x, n);
	double obs = x[n - 3] + x[n - 2] + x[n - 1], hits = 0, all = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			for (size_t k = j + 1; k < n; k++)
				hits += x[i] + x[j] + x[k] >= obs - 1e-12, all++;
	struct amd_history_verdict v;
	struct amd_err err = {{0}};
	assert_int_equal(amd_history_gate(&h, n - 1, 20, 0.05, 0.05, &v, &err), 0);
	assert_int_equal(v.n, 11);
	assert_true(fabs(v.p - hits / all) < 1e-15);
	assert_true(fabs(v.p_min - 1 / all) < 1e-15);
	assert_true(fabs(v.alpha_night - 0.005) < 1e-15);
	assert_true(fabs(v.win_median - 1.05) < 1e-15);
	assert_true(fabs(v.ratio - 1.05 / 1.0) < 1e-12);
	/* 8 groups of history: 1/C(11, 3) = 0.00606 > 0.005 */
	assert_int_equal(amd_history_gate(&h, n - 1, 8, 0.05, 0.05, &v, &err), 0);
	assert_int_equal(v.result, AMD_GATE_INSUFFICIENT);
	assert_non_null(strstr(v.sentence, "9 would"));
	/* the window needs 2 groups before the candidate and 1 of history */
	assert_int_equal(amd_history_gate(&h, 2, 20, 0.05, 0.05, &v, &err), -1);
}

static void nights(gsl_rng *r, double *x, size_t step_at, double step)
{
	for (size_t i = 0; i < ALL; i++) {
		double v[3];
		for (int k = 0; k < 3; k++)
			v[k] = (i >= step_at ? 1 + step : 1.0) * exp(gsl_ran_gaussian(r, 0.05));
		x[i] = fmax(fmin(v[0], v[1]), fmin(fmax(v[0], v[1]), v[2]));
	}
}

static int fails_in(const double *x, size_t from, size_t to)
{
	struct amd_history_group g[ALL];
	struct amd_history h;
	set_history(&h, g, x, ALL);
	for (size_t c = from; c < to; c++) {
		struct amd_history_verdict v;
		struct amd_err err = {{0}};
		assert_int_equal(amd_history_gate(&h, c, WARM, 0.05, 0.05, &v, &err), 0);
		if (v.result == AMD_GATE_REGRESSION)
			return 1;
	}
	return 0;
}

static void test_error_held_across_nights(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 20260101);
	size_t aa = 0, caught = 0, histories = 200, s = WARM + NIGHTS / 2;
	double x[ALL];
	for (size_t k = 0; k < histories; k++) {
		nights(r, x, ALL, 0);
		aa += fails_in(x, WARM, ALL);
		nights(r, x, s, 0.10);
		caught += fails_in(x, s, s + 3);
	}
	double se = sqrt(0.1 * 0.9 / (double)histories);
	print_message("40-night A/A histories with a false FAIL: %zu of %zu; +10%% step caught "
		      "within 3 nights: %zu\n", aa, histories, caught);
	assert_true((double)aa / (double)histories <= 0.10 + 2 * se);
	assert_true((double)caught / (double)histories >= 0.90 - 2 * se);
	gsl_rng_free(r);
}

/* The rates at the history's own spread: 20 groups of history whose log
 * medians are ±m (MAD / Φ⁻¹(3/4) = 0.05 exactly) and a window; the
 * simulation at that spread (400 histories) against the full evaluation's
 * 1-run-a-night figures at 5% noise (tests/eval/history_eval.c, 2000
 * histories: 14.6% false FAIL within 40 nights, 56.4% caught within 3),
 * within 3 standard errors of the two; and they are in the sentence. */
static void test_rates_at_the_history_spread(void **state)
{
	(void)state;
	double x[WARM + 3], m = 0.05 * gsl_cdf_ugaussian_Pinv(0.75);
	for (size_t i = 0; i < WARM; i++)
		x[i] = exp(i % 2 ? m : -m);
	x[WARM] = x[WARM + 1] = x[WARM + 2] = 1.0;
	struct amd_history_group g[WARM + 3];
	struct amd_history h;
	set_history(&h, g, x, WARM + 3);
	struct amd_history_verdict v;
	struct amd_history_rates r;
	struct amd_err err = {{0}};
	assert_int_equal(amd_history_gate(&h, WARM + 2, WARM, 0.05, 0.05, &v, &err), 0);
	assert_int_equal(amd_history_gate_rates(&h, &v, &r, &err), 0);
	print_message("spread %.4f: false FAIL 10/20/40 %.3f/%.3f/%.3f, caught3 %.3f\n", r.spread,
		      r.false_fail[0], r.false_fail[1], r.false_fail[2], r.caught3);
	assert_true(r.valid);
	assert_true(fabs(r.spread - 0.05) < 1e-9);
	double se40 = sqrt(0.146 * 0.854 * (1 / 400.0 + 1 / 2000.0)),
	       se3 = sqrt(0.564 * 0.436 * (1 / 400.0 + 1 / 2000.0));
	assert_true(fabs(r.false_fail[2] - 0.146) < 3 * se40);
	assert_true(fabs(r.caught3 - 0.564) < 3 * se3);
	assert_true(r.false_fail[0] <= r.false_fail[1] && r.false_fail[1] <= r.false_fail[2]);
	char want[160];
	snprintf(want, sizeof want, "at this history's spread across groups (5.0%%), the rule gives "
		 "a false FAIL within 10/20/40 checks without a change in %.1f/%.1f/%.1f%%",
		 100 * r.false_fail[0], 100 * r.false_fail[1], 100 * r.false_fail[2]);
	assert_non_null(strstr(v.sentence, want));
	/* no spread: nothing to simulate, and it says so */
	for (size_t i = 0; i < WARM; i++)
		g[i].median = 1.0;
	assert_int_equal(amd_history_gate(&h, WARM + 2, WARM, 0.05, 0.05, &v, &err), 0);
	assert_int_equal(amd_history_gate_rates(&h, &v, &r, &err), 0);
	assert_false(r.valid);
	assert_non_null(strstr(v.sentence, "do not vary"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p_counts_every_triple),
		cmocka_unit_test(test_error_held_across_nights),
		cmocka_unit_test(test_rates_at_the_history_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
