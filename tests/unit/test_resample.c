/* test_resample.c — analysis/resample: a bootstrap resample laid out by
 * counting is, bit for bit, what drawing the values with the same
 * generator and sorting them (GSL, as the bootstrap did) gives: on random
 * vectors with ties, NaN and infinities, sizes 0 to 300; and x holding
 * both zeros is refused (a sort may put -0 and +0 either way). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_double.h>

#include "resample.h"

/* The reference: n draws of x by r, the finite ones sorted into out. */
static size_t drawn_sorted(const gsl_rng *r, const double *x, size_t n, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double v = x[gsl_rng_uniform_int(r, n)];
		if (isfinite(v))
			out[k++] = v;
	}
	gsl_sort(out, 1, k);
	return k;
}

/* A vector of n values: few distinct ones (ties), some NaN and infinite. */
static void fill(gsl_rng *g, double *x, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned long c = gsl_rng_uniform_int(g, 20);
		x[i] = c == 0 ? NAN : c == 1 ? INFINITY : c == 2 ? -INFINITY
		     : c < 8 ? (double)gsl_rng_uniform_int(g, 4) - 1.5
			     : gsl_rng_uniform(g) * 1e3 - 500;
	}
}

static void test_same_as_sorting(void **state)
{
	(void)state;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng *a = gsl_rng_alloc(gsl_rng_mt19937), *b = gsl_rng_alloc(gsl_rng_mt19937);
	double *x = malloc(300 * sizeof *x), *p = malloc(300 * sizeof *p), *q = malloc(300 * sizeof *q);
	assert_non_null(g && a && b && x && p && q);
	size_t checked = 0;
	for (size_t n = 0; n <= 300; n += n < 12 ? 1 : 37) {
		for (unsigned long seed = 1; seed <= 20; seed++) {
			fill(g, x, n);
			struct amd_resample s;
			assert_int_equal(amd_resample_init(&s, x, n), 0);
			gsl_rng_set(a, seed);
			gsl_rng_set(b, seed);
			for (int rep = 0; rep < 50; rep++) {
				size_t k = amd_resample_draw(&s, a, p), want = drawn_sorted(b, x, n, q);
				assert_int_equal(k, want);
				assert_memory_equal(p, q, k * sizeof *p);
				checked++;
			}
			/* the generators stay in step: the next numbers agree */
			assert_int_equal(gsl_rng_get(a), gsl_rng_get(b));
			amd_resample_free(&s);
		}
	}
	assert_true(checked > 10000);
	free(x);
	free(p);
	free(q);
	gsl_rng_free(g);
	gsl_rng_free(a);
	gsl_rng_free(b);
}

static void test_both_zeros_refused(void **state)
{
	(void)state;
	double both[] = {1, -0.0, 2, 0.0}, plus[] = {1, 0.0, 2, 0.0}, minus[] = {-0.0, 3, -0.0};
	struct amd_resample s;
	assert_int_equal(amd_resample_init(&s, both, 4), -1);
	assert_int_equal(amd_resample_init(&s, plus, 4), 0);
	amd_resample_free(&s);
	assert_int_equal(amd_resample_init(&s, minus, 3), 0);
	amd_resample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_sorting),
		cmocka_unit_test(test_both_zeros_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
