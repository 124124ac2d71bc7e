/* test_stats.c — analysis/stats on small vectors whose answers are known by
 * hand (or from the textbook formula), NaN handling, interval refusals
 * below 3 values and the USL refusal below 4 distinct n. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "statistic.h"
#include "stats.h"

/* cmocka 1.1 compares floats only: doubles to a tolerance, with values. */
#define assert_double_equal(a, b, tol) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (tol))) \
		fail_msg("%s = %.17g, wanted %.17g (± %g)", #a, a_, b_, (double)(tol)); \
} while (0)

#define NV(a) (sizeof(a) / sizeof(a)[0])

static const struct amd_boot boot = {4000, 20260101UL, 0.95, AMD_AGG_MEDIAN};

static void test_location(void **state)
{
	(void)state;
	double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
	assert_double_equal(amd_median(odd, 3), 2, 0);
	assert_double_equal(amd_median(even, 4), 2.5, 0);
	/* linear interpolation: (n-1)p = 0.75 between 1 and 2 */
	assert_double_equal(amd_quantile(even, 4, 0.25), 1.75, 1e-15);
	assert_double_equal(amd_quantile(even, 4, 1), 4, 0);
	assert_double_equal(amd_min(even, 4), 1, 0);
	assert_double_equal(amd_max(even, 4), 4, 0);
}

static void test_spread(void **state)
{
	(void)state;
	double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	assert_double_equal(amd_mean(x, NV(x)), 5, 1e-15);
	assert_double_equal(amd_sd(x, NV(x)), sqrt(32.0 / 7), 1e-14);
	assert_double_equal(amd_cv(x, NV(x)), sqrt(32.0 / 7) / 5, 1e-14);
	double m[] = {1, 1, 2, 2, 4, 6, 9}; /* |x - 2| = 1 1 0 0 2 4 7 */
	assert_double_equal(amd_mad(m, NV(m)), 1, 0);
	double one[] = {3};
	assert_true(isnan(amd_sd(one, 1)));
}

static void test_nan(void **state)
{
	(void)state;
	double x[] = {1, NAN, 3, NAN};
	assert_int_equal(amd_finite_count(x, NV(x)), 2);
	assert_double_equal(amd_median(x, NV(x)), 2, 0);
	assert_double_equal(amd_mean(x, NV(x)), 2, 0);
	double none[] = {NAN, NAN};
	assert_true(isnan(amd_median(none, 2)));
	assert_true(isnan(amd_mean(none, 2)));
	assert_true(isnan(amd_quantile(none, 2, 0.5)));
	assert_true(isnan(amd_mad(none, 2)));
	struct amd_interval ci;
	double two_finite[] = {1, NAN, 2, NAN, NAN};
	assert_int_equal(amd_boot_median_ci(two_finite, NV(two_finite), &boot, &ci), -1);
	assert_string_equal(ci.why, "n=2: no CI");
}

static void test_mad_flags(void **state)
{
	(void)state;
	double x[] = {10, 10.1, 9.9, 10, 50};
	int fl[5];
	assert_int_equal(amd_mad_flags(x, 5, 3.5, fl), 1);
	assert_int_equal(fl[4], 1);
	assert_int_equal(fl[0] + fl[1] + fl[2] + fl[3], 0);
	double two[] = {1, 100};
	assert_int_equal(amd_mad_flags(two, 2, 3.5, fl), 0); /* too few to judge */
}

static void test_ci_refused_below_3(void **state)
{
	(void)state;
	struct amd_interval ci;
	double two[] = {1, 2}, three[] = {1, 2, 3};
	assert_int_equal(amd_boot_median_ci(two, 2, &boot, &ci), -1);
	assert_false(ci.valid);
	assert_string_equal(ci.why, "n=2: no CI");
	assert_int_equal(amd_boot_ratio_ci(three, 3, two, 2, &boot, &ci), -1);
	assert_string_equal(ci.why, "n=2: no CI");
	assert_int_equal(amd_t_mean_ci(two, 2, 0.95, &ci), -1);
	assert_string_equal(ci.why, "n=2: no CI");
}

static void test_boot_three(void **state)
{
	(void)state;
	/* Median of a resample of 3 values is the smallest with probability
	 * 7/27 > 2.5%: the 95% percentile interval is [min, max]. */
	double x[] = {5, 1, 3};
	struct amd_interval ci, again;
	assert_int_equal(amd_boot_median_ci(x, 3, &boot, &ci), 0);
	assert_true(ci.valid);
	assert_double_equal(ci.lo, 1, 0);
	assert_double_equal(ci.hi, 5, 0);
	double num[] = {8, 8, 8}, den[] = {2, 4, 4};
	assert_int_equal(amd_boot_ratio_ci(num, 3, den, 3, &boot, &ci), 0);
	assert_double_equal(ci.lo, 2, 0);
	assert_double_equal(ci.hi, 4, 0);
	/* fixed seed: the same interval every time */
	double y[] = {1.1, 0.9, 1.3, 1.0, 1.7, 0.8, 1.2};
	assert_int_equal(amd_boot_median_ci(y, NV(y), &boot, &ci), 0);
	assert_int_equal(amd_boot_median_ci(y, NV(y), &boot, &again), 0);
	assert_memory_equal(&ci.lo, &again.lo, sizeof ci.lo);
	assert_memory_equal(&ci.hi, &again.hi, sizeof ci.hi);
	assert_true(ci.lo <= amd_median(y, NV(y)) && amd_median(y, NV(y)) <= ci.hi);
}

static void test_t_ci(void **state)
{
	(void)state;
	double x[] = {1, 2, 3, 4, 5};
	struct amd_interval ci;
	assert_int_equal(amd_t_mean_ci(x, 5, 0.95, &ci), 0);
	/* t(0.975, 4) = 2.7764451051977987; sd = sqrt(2.5) */
	double h = 2.7764451051977987 * sqrt(2.5) / sqrt(5.0);
	assert_double_equal(ci.lo, 3 - h, 1e-12);
	assert_double_equal(ci.hi, 3 + h, 1e-12);
}

static void test_amdahl(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8}, t[4];
	for (int i = 0; i < 4; i++)
		t[i] = 2 + 8 / n[i];
	struct amd_amdahl f;
	assert_int_equal(amd_amdahl_fit(n, t, 4, &f), 0);
	assert_double_equal(f.a, 2, 1e-12);
	assert_double_equal(f.b, 8, 1e-12);
	assert_double_equal(f.serial, 0.2, 1e-12);
	assert_double_equal(f.r2, 1, 1e-12);
	double same[] = {4, 4};
	assert_int_equal(amd_amdahl_fit(same, t, 2, &f), -1);
	assert_false(f.ok);
	/* bootstrap over runs: refused with 2 runs at a point */
	double g1[] = {10, 10.5, 9.5}, g2[] = {6, 6.2};
	struct amd_group g[] = {{1, g1, 3}, {2, g2, 2}};
	struct amd_interval ci;
	assert_int_equal(amd_amdahl_serial_ci(g, 2, &boot, &ci), -1);
	assert_string_equal(ci.why, "n=2: no CI");
}

static void test_usl(void **state)
{
	(void)state;
	const double al = 0.05, be = 0.002, ga = 100;
	double n[] = {1, 2, 4, 8, 16}, x[5];
	for (int i = 0; i < 5; i++)
		x[i] = ga * n[i] / (1 + al * (n[i] - 1) + be * n[i] * (n[i] - 1));
	struct amd_usl u;
	assert_int_equal(amd_usl_fit(n, x, 5, &u), 0);
	assert_true(u.ok);
	assert_double_equal(u.alpha, al, 1e-9);
	assert_double_equal(u.beta, be, 1e-9);
	assert_double_equal(u.gamma, ga, 1e-7);
	assert_double_equal(u.n_peak, sqrt((1 - al) / be), 1e-6);
}

/* Data from α = −0.05 < 0: the fit is the best one under α, β ≥ 0, here
 * on the face α = 0; the reference is scipy's curve_fit with bounds
 * (trf), polished (tests/oracle/stats_oracle.py usl()). */
static void test_usl_bounded_when_alpha_negative(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8, 16}, x[5];
	for (int i = 0; i < 5; i++) /* 1% noise: sin(i + 1) */
		x[i] = 100 * n[i] / (1 - 0.05 * (n[i] - 1) + 0.004 * n[i] * (n[i] - 1)) *
		       (1 + 0.01 * sin(i + 1));
	struct amd_usl u;
	assert_int_equal(amd_usl_fit(n, x, 5, &u), 0);
	assert_true(u.ok && u.bounded);
	assert_true(u.alpha == 0);
	assert_double_equal(u.beta, 0.00196573105678395, 1e-12);
	assert_double_equal(u.gamma, 121.07385879760497, 1e-7);
	assert_double_equal(u.free_alpha, -0.047091410951810804, 1e-9);
	assert_true(isnan(u.n_peak));
	assert_string_equal(u.peak_why, "not physical unconstrained (α = -0.0471 < 0): no peak predicted");
}

/* α ≥ 1 with β > 0: no peak, and the reason is α, not β. */
static void test_usl_alpha_above_one_says_so(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8, 16}, x[5];
	for (int i = 0; i < 5; i++)
		x[i] = 100 * n[i] / (1 + 1.5 * (n[i] - 1) + 0.01 * n[i] * (n[i] - 1));
	struct amd_usl u;
	assert_int_equal(amd_usl_fit(n, x, 5, &u), 0);
	assert_false(u.bounded);
	assert_double_equal(u.alpha, 1.5, 1e-9);
	assert_true(isnan(u.n_peak));
	assert_string_equal(u.peak_why, "no peak: α = 1.5 ≥ 1, throughput falls with n from n = 1 on");
}

/* Zero noise, perfect scaling X = 100n: the fit is α = β = 0, γ = 100
 * exactly (was: "did not converge: exceeded max number of iterations":
 * the driver never meets its step test at a zero sum of squares). */
static void test_usl_perfect_scaling_converges(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8, 16}, x[5];
	for (int i = 0; i < 5; i++)
		x[i] = 100 * n[i];
	struct amd_usl u;
	assert_int_equal(amd_usl_fit(n, x, 5, &u), 0);
	assert_true(u.ok);
	assert_false(u.bounded);
	assert_true(u.alpha == 0 && u.beta == 0);
	assert_double_equal(u.gamma, 100, 1e-9);
	assert_true(isnan(u.n_peak));
	assert_string_equal(u.peak_why, "no peak (β = 0: throughput rises with n throughout)");
}

/* The same throughput at every n: α = 1, β = 0 exactly (was: no
 * convergence, then α = 0, β = 0.056 on a face: a wrong curve). */
static void test_usl_flat_throughput_is_alpha_one(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 8, 16}, x[] = {2, 2, 2, 2, 2};
	struct amd_usl u;
	assert_int_equal(amd_usl_fit(n, x, 5, &u), 0);
	assert_false(u.bounded);
	assert_double_equal(u.alpha, 1, 1e-9);
	assert_true(u.beta == 0);
	assert_double_equal(u.gamma, 2, 1e-9);
	assert_string_equal(u.peak_why, "no peak: α = 1, β = 0, throughput is the same at every n");
}

/* The median's order-statistic interval: [min, max] at 75% for 3 values;
 * for 10 values [x(2), x(9)] at 1 - 2·11/1024 = 97.85% (x(3), x(8) would
 * cover 89.1%). */
static void test_median_os_ci_levels(void **state)
{
	(void)state;
	double x3[] = {3, 1, 2}, x10[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
	struct amd_interval ci;
	assert_int_equal(amd_median_os_ci(x3, 3, 0.95, &ci), 0);
	assert_true(ci.lo == 1 && ci.hi == 3 && ci.level == 0.75);
	assert_int_equal(amd_median_os_ci(x10, 10, 0.95, &ci), 0);
	assert_true(ci.lo == 2 && ci.hi == 9);
	assert_double_equal(ci.level, 1 - 2 * 11.0 / 1024, 1e-12);
	assert_int_equal(amd_median_os_ci(x3, 2, 0.95, &ci), -1);
	assert_string_equal(ci.why, "n=2: no CI");
}

/* The simulated labels (docs/methods.md "Every printed interval"): a
 * measured cell as measured, between cells the lower, a smaller side
 * between rows the lower row, beyond a row the smaller side's own MLPerf
 * coverage; 95% where the simulation finds 93% or more. */
static void test_interval_level_tables(void **state)
{
	(void)state;
	assert_true(amd_mlperf_ratio_coverage(2, 5) == 0);
	assert_true(amd_mlperf_ratio_coverage(3, 3) == 0.88);
	assert_true(amd_mlperf_ratio_coverage(6, 3) == 0.90);  /* either side smaller */
	assert_true(amd_mlperf_ratio_coverage(3, 7) == 0.89);  /* lower of 3v6 and 3v8 */
	assert_true(amd_mlperf_ratio_coverage(7, 7) == 0.92);  /* row 6: lower of 6v6, 6v12 */
	assert_true(amd_mlperf_ratio_coverage(9, 9) == 0.95);  /* row 8: 93% */
	assert_true(amd_mlperf_ratio_coverage(12, 100) == 0.92); /* beyond 10v30: 92% alone */
	assert_true(amd_mlperf_ratio_coverage(11, 100) == 0.91); /* 91% alone at 11 */
	assert_true(amd_mlperf_boot_coverage(2) == 0);
	assert_true(amd_mlperf_boot_coverage(6) == 0.90);
	assert_true(amd_mlperf_boot_coverage(11) == 0.91);
	assert_true(amd_mlperf_boot_coverage(12) == 0.92);
	assert_true(amd_mlperf_boot_coverage(19) == 0.92);
	assert_true(amd_mlperf_boot_coverage(20) == 0.95); /* 93.7% simulated */
	assert_true(amd_mlperf_boot_coverage(30) == 0.95);
	assert_true(amd_speedup_ratio_coverage(2, 6, 0) == 0);
	assert_true(amd_speedup_ratio_coverage(3, 3, 0) == 0.75);
	assert_true(amd_speedup_ratio_coverage(12, 3, 0) == 0.72); /* lower of 3v10, 3v15 */
	assert_true(amd_speedup_ratio_coverage(3, 1000, 0) == 0.66); /* beyond 3v100: its cell */
	assert_true(amd_speedup_ratio_coverage(7, 7, 0) == 0.85);   /* row 6: lower of 6v6, 6v12 */
	assert_true(amd_speedup_ratio_coverage(6, 6, 1) == 0.81);
	assert_true(amd_speedup_ratio_coverage(100, 100, 1) == 0.84);
	assert_true(amd_mlperf_ratio_coverage(3, 500) == 0.73);
	assert_true(amd_mlperf_ratio_coverage(40, 40) == 0.95);
	assert_true(amd_mlperf_ratio_coverage(15, 1000) == 0.95); /* 15v100: 93% */
	assert_true(amd_amdahl_serial_coverage(2, 4) == 0);
	assert_true(amd_amdahl_serial_coverage(3, 1) == 0);
	assert_true(amd_amdahl_serial_coverage(3, 2) == 0.87);
	assert_true(amd_amdahl_serial_coverage(3, 4) == 0.90);
	assert_true(amd_amdahl_serial_coverage(4, 2) == 0.90);
	assert_true(amd_amdahl_serial_coverage(5, 2) == 0.95);
}

static void test_usl_refused_with_3_n(void **state)
{
	(void)state;
	double n[] = {1, 2, 4, 4}, x[] = {1, 1.8, 3.1, 3.0};
	struct amd_usl u;
	assert_int_equal(amd_usl_fit(n, x, 4, &u), -1);
	assert_false(u.ok);
	assert_non_null(strstr(u.why, "at least 4 distinct n"));
	assert_non_null(strstr(u.why, "have 3"));
	assert_true(isnan(u.n_peak));
}

static void test_karp_flatt(void **state)
{
	(void)state;
	assert_double_equal(amd_karp_flatt(4, 8), (0.25 - 0.125) / 0.875, 1e-15);
	assert_double_equal(amd_karp_flatt(8, 8), 0, 1e-15);
	assert_true(isnan(amd_karp_flatt(1, 1)));
	assert_true(isnan(amd_karp_flatt(NAN, 4)));
}

/* The statistic registry is whole: keys and row names unique, an interval
 * exactly where a rule makes one, a compared statistic readable per run,
 * and a column's cell in its format. */
static void test_statistic_registry(void **state)
{
	(void)state;
	for (size_t i = 0; i < amd_nstatistics; i++) {
		const struct amd_statistic *a = &amd_statistics[i];
		assert_true(a->key || a->row);
		assert_int_equal(a->interval != AMD_INTERVAL_NONE, a->interval_key != NULL);
		assert_int_equal(a->interval_key != NULL, a->point_ci != NULL);
		assert_int_equal(a->gate != AMD_GATE_NOT_COMPARED, a->run != NULL);
		assert_int_equal(a->key != NULL, a->point != NULL);
		assert_non_null(a->unit);
		for (size_t j = 0; j < i; j++) {
			const struct amd_statistic *b = &amd_statistics[j];
			assert_false(a->key && b->key && strcmp(a->key, b->key) == 0);
			assert_false(a->row && b->row && strcmp(a->row, b->row) == 0);
		}
		if (a->key)
			assert_ptr_equal(amd_statistic_by_key(a->key), a);
	}
	assert_null(amd_statistic_by_key("no such statistic"));
	/* a cell: "–" for an unknown value, the column's format otherwise */
	char b[32];
	const struct amd_statistic *cv = amd_statistic_by_key("cv");
	assert_string_equal(amd_statistic_cell(&cv->term, 0.125, b, sizeof b), "12.5%");
	assert_string_equal(amd_statistic_cell(&cv->term, NAN, b, sizeof b), "–");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_location),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_nan),
		cmocka_unit_test(test_mad_flags),
		cmocka_unit_test(test_ci_refused_below_3),
		cmocka_unit_test(test_boot_three),
		cmocka_unit_test(test_t_ci),
		cmocka_unit_test(test_amdahl),
		cmocka_unit_test(test_usl),
		cmocka_unit_test(test_usl_refused_with_3_n),
		cmocka_unit_test(test_usl_bounded_when_alpha_negative),
		cmocka_unit_test(test_median_os_ci_levels),
		cmocka_unit_test(test_interval_level_tables),
		cmocka_unit_test(test_usl_alpha_above_one_says_so),
		cmocka_unit_test(test_usl_perfect_scaling_converges),
		cmocka_unit_test(test_usl_flat_throughput_is_alpha_one),
		cmocka_unit_test(test_karp_flatt),
		cmocka_unit_test(test_statistic_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
