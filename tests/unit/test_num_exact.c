/* test_num_exact.c — amd_parse_double and amd_parse_int64 (lib/core/num.c)
 * give bit for bit what glibc's strtod / strtoll give: on every value and
 * timestamp of the real MLflow metric files in testdata/, and on
 * generated decimals around the edges of the exact fast path (2^53, 19
 * digits, 10^±22, -0, subnormals, long exponents). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* s parses as strtod parses it (the same bits), or both refuse it. */
static void same_as_strtod(const char *s)
{
	char *end;
	errno = 0;
	double want = strtod(s, &end);
	int want_ok = end != s && end[strspn(end, " \t\r\n")] == '\0';
	double got = 0;
	int ok = amd_parse_double(s, &got) == 0;
	if (ok != want_ok || (ok && memcmp(&got, &want, sizeof got) != 0))
		fail_msg("'%s': amd_parse_double %s %.17g, strtod %s %.17g", s,
			 ok ? "ok" : "refused", got, want_ok ? "ok" : "refused", want);
}

static void same_as_strtoll(const char *s)
{
	char *end;
	errno = 0;
	long long want = strtoll(s, &end, 10);
	int want_ok = end != s && end[strspn(end, " \t\r\n")] == '\0' && errno != ERANGE;
	int64_t got = 0;
	int ok = amd_parse_int64(s, &got) == 0;
	if (ok != want_ok || (ok && got != want))
		fail_msg("'%s': amd_parse_int64 %s %lld, strtoll %s %lld", s, ok ? "ok" : "refused",
			 (long long)got, want_ok ? "ok" : "refused", want);
}

/* Every "timestamp value step" line of the bundled sweeps' metric files. */
static void real_metric_values(void **state)
{
	(void)state;
	FILE *p = popen("find testdata -path '*/metrics/*' -type f -exec cat {} +", "r");
	assert_non_null(p);
	char line[512], ts[64], v[128], step[64];
	long n = 0;
	while (fgets(line, sizeof line, p))
		if (sscanf(line, "%63s %127s %63s", ts, v, step) == 3) {
			same_as_strtoll(ts);
			same_as_strtod(v);
			same_as_strtoll(step);
			n++;
		}
	assert_int_equal(pclose(p), 0);
	assert_true(n > 2000); /* the bundled sweeps hold 2,494 lines */
}

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005u + 1442695040888963407u;
	return *x >> 11;
}

/* Decimals printed every way a logger prints them, digits at and past
 * the fast path's limits, exponents at and past ±22. */
static void generated_decimals(void **state)
{
	(void)state;
	static const char *const fixed[] = {
		"0", "-0", "+0", "0.0", "-0.0", ".5", "5.", "9007199254740992", "9007199254740993",
		"9007199254740991.5", "1e22", "1e23", "1e-22", "1e-23", "123456789012345678e4",
		"1234567890123456789", "12345678901234567890", "0.1", "0.3", "2.2250738585072014e-308",
		"4.9e-324", "1.7976931348623157e308", "1e309", "1e0005", "1e-0", "1E+2", "00000.00001",
		" 1.5 ", "1.5x", "1e", "1e+", ".", "-", "nan", "inf", "-Infinity", "0x1p3", "1,5"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		same_as_strtod(fixed[i]);
	uint64_t x = 19;
	char s[64];
	for (int i = 0; i < 200000; i++) {
		uint64_t bits = lcg(&x) | (lcg(&x) << 53);
		double d;
		memcpy(&d, &bits, sizeof d);
		if (d != d)
			continue;
		snprintf(s, sizeof s, "%.*g", 1 + i % 17, d);
		same_as_strtod(s);
		uint64_t w = lcg(&x) % (i % 2 ? UINT64_C(1) << 54 : UINT64_C(10000000000000000000));
		snprintf(s, sizeof s, "%s%llue%d", i % 3 ? "" : "-", (unsigned long long)w,
			 (int)(lcg(&x) % 61) - 30);
		same_as_strtod(s);
		snprintf(s, sizeof s, "%.*f", (int)(lcg(&x) % 12), (double)(lcg(&x) % 100000) / 7);
		same_as_strtod(s);
	}
}

static void integers(void **state)
{
	(void)state;
	static const char *const fixed[] = {
		"0", "-0", "+7", "999999999999999999", "-999999999999999999", "1000000000000000000",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775809", "0000000000000000000000042", "1.0", "12abc", "", "-", " 5 ",
		"\t-5\r\n"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		same_as_strtoll(fixed[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_metric_values),
		cmocka_unit_test(generated_decimals),
		cmocka_unit_test(integers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
