/* test_trace_time.c — profiler timestamp text to int64 ns: the three
 * styles Kineto writes, exponents, rounding, signs, limits, garbage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace_time.h"

static int64_t conv(const char *s, int *ok)
{
	int64_t v = 0x5a5a;
	*ok = amd_trace_us_to_ns(s, strlen(s), &v) == 0;
	return v;
}

#define NS(text, want) do { int ok_; int64_t v_ = conv(text, &ok_); \
	assert_true(ok_); assert_int_equal(v_, (int64_t)(want)); } while (0)
#define BAD(text) do { int ok_; conv(text, &ok_); assert_false(ok_); } while (0)

static void integer_microseconds(void **state)
{
	(void)state;
	NS("0", 0);
	NS("19", 19000);
	NS("1661203462598738", 1661203462598738000LL); /* absolute µs since the epoch */
}

static void nanosecond_fraction(void **state)
{
	(void)state;
	NS("4490911459147.479", 4490911459147479LL);
	NS("47206.447", 47206447);
	NS("3.738", 3738);
	NS("0.001", 1);
	NS("12.5", 12500);
	NS("7.", 7000);
	NS(".25", 250);
}

static void relative_to_base_and_precision(void **state)
{
	(void)state;
	/* relative µs + baseTimeNanoseconds must stay exact past 2^53 */
	int ok;
	int64_t rel = conv("4490911425272.572", &ok);
	assert_true(ok);
	assert_int_equal(1790857026000000000LL + rel, 1795347937425272572LL);
	NS("9007199254740.993", 9007199254740993LL); /* 2^53 + 1 ns: a double would lose it */
}

static void rounding_past_nanoseconds(void **state)
{
	(void)state;
	NS("1.0004", 1000);
	NS("1.0005", 1001);
	NS("1.00049999", 1000);
	NS("-1.0005", -1001);
	NS("0.0000001", 0);
}

static void exponents_and_signs(void **state)
{
	(void)state;
	NS("1e3", 1000000);
	NS("1.5E-3", 2); /* 1.5 ns rounds half away from zero */
	NS("2.5e+2", 250000);
	NS("-12", -12000);
	NS("+12", 12000);
	NS("-0", 0);
	NS("000123", 123000);
}

static void limits(void **state)
{
	(void)state;
	NS("9223372036854775.807", INT64_MAX);
	NS("-9223372036854775.808", INT64_MIN);
	BAD("9223372036854775.808");
	BAD("9223372036854775808");
	BAD("1e400");
	BAD("123456789012345678901234567890123456789012345678901234567890123456789");
}

static void garbage(void **state)
{
	(void)state;
	BAD("");
	BAD("-");
	BAD(".");
	BAD("abc");
	BAD("12abc");
	BAD("1.2.3");
	BAD("1e");
	BAD("1e+");
	BAD(" 12");
	BAD("12 ");
	BAD("NaN");
	BAD("0x10");
	/* length is honoured: no reading past it */
	int64_t v;
	assert_int_equal(amd_trace_us_to_ns("12345", 2, &v), 0);
	assert_int_equal(v, 12000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integer_microseconds),
		cmocka_unit_test(nanosecond_fraction),
		cmocka_unit_test(relative_to_base_and_precision),
		cmocka_unit_test(rounding_past_nanoseconds),
		cmocka_unit_test(exponents_and_signs),
		cmocka_unit_test(limits),
		cmocka_unit_test(garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
