/* test_mt_draw.c — lib/analysis/mt_draw.h gives GSL's gsl_rng_mt19937
 * numbers exactly: for several seeds (0 included, GSL's 4357, one above
 * 32 bits), three million 32-bit outputs and uniform doubles equal to
 * gsl_rng_get's and gsl_rng_uniform's, across many twists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <gsl/gsl_rng.h>

#include "mt_draw.h"

static const unsigned long seeds[] = { 0, 1, 42, 4357, 20240101, 0xffffffffUL,
				       0x123456789abUL };

static void same_words(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
		gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
		assert_non_null(r);
		gsl_rng_set(r, seeds[s]);
		struct amd_mt m;
		amd_mt_seed(&m, seeds[s]);
		for (int i = 0; i < 1000000; i++)
			assert_int_equal(amd_mt_get(&m), (uint32_t)gsl_rng_get(r));
		gsl_rng_free(r);
	}
}

static void same_uniforms(void **state)
{
	(void)state;
	for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
		gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
		assert_non_null(r);
		gsl_rng_set(r, seeds[s]);
		struct amd_mt m;
		amd_mt_seed(&m, seeds[s]);
		for (int i = 0; i < 2000000; i++) {
			double a = amd_mt_uniform(&m), b = gsl_rng_uniform(r);
			assert_true(a == b);
		}
		gsl_rng_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_words),
		cmocka_unit_test(same_uniforms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
