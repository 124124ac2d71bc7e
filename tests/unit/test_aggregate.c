/* test_aggregate.c — analysis/aggregate (the median or MLPerf's rule: drop
 * the fastest and the slowest run, the mean of the rest) on vectors whose
 * answers are worked out by hand, its use in the bootstrap and in the
 * comparison ratio, and the option's spelling. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "aggregate.h"
#include "significance.h"
#include "stats.h"

#define assert_double_equal(a, b, tol) do { \
	double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= (tol))) \
		fail_msg("%s = %.17g, wanted %.17g (± %g)", #a, a_, b_, (double)(tol)); \
} while (0)

static void test_mlperf_mean(void **state)
{
	(void)state;
	double five[] = {5, 1, NAN, 3, 2, 4};     /* 1 and 5 dropped: (2+3+4)/3 */
	double ties[] = {1, 100, 1, 10, 1};       /* one 1 and the 100 dropped: (1+1+10)/3 */
	double two[] = {1, 3}, none[] = {NAN};
	assert_double_equal(amd_mlperf_mean(five, 6), 3, 1e-15);
	assert_double_equal(amd_mlperf_mean(ties, 5), 4, 1e-15);
	assert_double_equal(amd_mlperf_mean(two, 2), 2, 0); /* nothing to drop: the mean */
	assert_true(isnan(amd_mlperf_mean(none, 1)));
	assert_true(isnan(amd_mlperf_mean(none, 0)));
	double sorted[] = {1, 2, 4, 8};
	assert_double_equal(amd_mlperf_mean_sorted(sorted, 4), 3, 0);
	assert_double_equal(amd_aggregate(ties, 5, AMD_AGG_MLPERF), 4, 1e-15);
	assert_double_equal(amd_aggregate(ties, 5, AMD_AGG_MEDIAN), amd_median(ties, 5), 0);
}

/* Runs near the largest double (issue 20 item 11's sibling: the
 * median's midpoint rule, for the mean): 1.1 and 1.7 are dropped, the
 * mean of 1.3, 1.5, 1.6 (·1e308) is 1.4666…e308, where their sum is inf;
 * worked out by hand, as the bootstrap's bounds on the same runs. */
static void test_mlperf_mean_near_dbl_max(void **state)
{
	(void)state;
	double big[] = {1.7e308, 1.5e308, 1.1e308, 1.3e308, 1.6e308};
	double want = 1.3e308 / 3 + 1.5e308 / 3 + 1.6e308 / 3;
	assert_double_equal(amd_mlperf_mean(big, 5), want, 1e293);
	assert_double_equal(amd_aggregate(big, 5, AMD_AGG_MLPERF), want, 1e293);
	double sorted[] = {1.1e308, 1.3e308, 1.5e308, 1.6e308, 1.7e308};
	assert_double_equal(amd_mlperf_mean_sorted(sorted, 5), want, 1e293);
	double two[] = {1.7e308, 1.5e308};
	assert_double_equal(amd_mlperf_mean(two, 2), 1.6e308, 1e293);
	struct amd_boot b = {2000, 20260101UL, 0.95, AMD_AGG_MLPERF};
	struct amd_interval ci;
	assert_int_equal(amd_boot_median_ci(big, 5, &b, &ci), 0);
	assert_true(ci.valid && isfinite(ci.lo) && isfinite(ci.hi));
	assert_true(ci.lo >= 1.1e308 && ci.hi <= 1.7e308 && ci.lo <= ci.hi);
}

static void test_bootstrap_follows_the_aggregate(void **state)
{
	(void)state;
	double same[] = {2, 2, 2, 2, 2};
	struct amd_boot b = {4000, 20260101UL, 0.95, AMD_AGG_MLPERF};
	struct amd_interval ci;
	assert_int_equal(amd_boot_median_ci(same, 5, &b, &ci), 0);
	assert_true(ci.valid);
	assert_double_equal(ci.lo, 2, 0);
	assert_double_equal(ci.hi, 2, 0);
	/* an outlier of 100: at least 3 of 5 draws are 100 with probability
	 * 0.058 > 2.5%, so the median's upper bound is 100; the trimmed mean
	 * reaches 100 only with 4 or 5 such draws (0.0067), so its upper bound
	 * is (x + 100 + 100)/3 for a smaller x: between 67 and 100 */
	double x[] = {1, 2, 3, 4, 100};
	struct amd_interval cm, cp;
	b.aggregate = AMD_AGG_MEDIAN;
	assert_int_equal(amd_boot_median_ci(x, 5, &b, &cm), 0);
	b.aggregate = AMD_AGG_MLPERF;
	assert_int_equal(amd_boot_median_ci(x, 5, &b, &cp), 0);
	assert_double_equal(cm.hi, 100, 0);
	assert_true(cp.hi > 67 && cp.hi < 100);
}

static void test_ratio(void **state)
{
	(void)state;
	double base[] = {1, 2, 3, 4, 10}, cand[] = {2, 4, 7, 8, 100};
	double r;
	struct amd_ci ci;
	struct amd_err err = {{0}};
	/* MLPerf: (4+7+8)/3 over (2+3+4)/3 = 19/9; median: 7/3 */
	assert_int_equal(amd_aggregate_ratio(base, 5, cand, 5, AMD_AGG_MLPERF, 2000, 7, 0.95,
					     &r, &ci, &err), 0);
	assert_double_equal(r, 19.0 / 9, 1e-14);
	assert_true(ci.valid && ci.lo <= r && r <= ci.hi);
	assert_int_equal(amd_median_ratio(base, 5, cand, 5, 2000, 7, 0.95, &r, &ci, &err), 0);
	assert_double_equal(r, 7.0 / 3, 1e-14);
}

static void test_parse(void **state)
{
	(void)state;
	enum amd_aggregate a = AMD_AGG_MEDIAN;
	assert_int_equal(amd_aggregate_parse("mlperf", &a), 0);
	assert_int_equal(a, AMD_AGG_MLPERF);
	assert_string_equal(amd_aggregate_name(a), "mlperf");
	assert_int_equal(amd_aggregate_parse("median", &a), 0);
	assert_int_equal(a, AMD_AGG_MEDIAN);
	assert_int_equal(amd_aggregate_parse("MLPerf", &a), -1);
	assert_int_equal(amd_aggregate_parse("", &a), -1);
	assert_int_equal(amd_aggregate_parse(NULL, &a), -1);
	assert_int_equal(a, AMD_AGG_MEDIAN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlperf_mean),
		cmocka_unit_test(test_mlperf_mean_near_dbl_max),
		cmocka_unit_test(test_bootstrap_follows_the_aggregate),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
