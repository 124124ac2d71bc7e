/* trace_time.c — profiler timestamps from their decimal text: "µs",
 * "µs.fraction" (Kineto writes nanoseconds as three decimals) and
 * exponent forms, to int64 ns exactly, never through a double. */
#include "trace_time.h"

#include <stddef.h>
#include <stdint.h>

/* The common shapes, "123" and "123.456" (up to 15 integer digits, at
 * most 3 decimals); 0 when the text needs the general path. */
static int fast_path(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	int64_t v = 0;
	for (; i < len && i < 16 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (i == 0 || i > 15)
		return 0;
	if (i == len) {
		*out = v * 1000;
		return 1;
	}
	size_t k = len - i - 1; /* decimals */
	if (s[i] != '.' || k < 1 || k > 3)
		return 0;
	int64_t f = 0;
	for (size_t j = i + 1; j < len; j++) {
		if (s[j] < '0' || s[j] > '9')
			return 0;
		f = f * 10 + (s[j] - '0');
	}
	*out = v * 1000 + f * (k == 1 ? 100 : k == 2 ? 10 : 1);
	return 1;
}

/* A decimal number's digits without leading zeros, and how many of them
 * stand before the decimal point. */
struct mantissa {
	char dig[64];
	size_t nd, int_digits;
};

/* Reads the mantissa from s[*i]; -1 when there is no digit or too many. */
static int read_mantissa(const char *s, size_t len, size_t *i, struct mantissa *m)
{
	int seen_point = 0, lead = 1, any = 0;
	m->nd = m->int_digits = 0;
	for (; *i < len; (*i)++) {
		char c = s[*i];
		if (c == '.' && !seen_point) {
			seen_point = 1;
			continue;
		}
		if (c < '0' || c > '9')
			break;
		any = 1;
		if (lead && c == '0' && !seen_point)
			continue; /* leading integer zeros */
		lead = 0;
		if (m->nd == sizeof m->dig)
			return -1;
		m->dig[m->nd++] = c;
		if (!seen_point)
			m->int_digits++;
	}
	return any ? 0 : -1;
}

/* Reads an optional exponent ("e-3") from s[*i]; -1 when malformed or
 * beyond ±1000. */
static int read_exponent(const char *s, size_t len, size_t *i, long *exp)
{
	*exp = 0;
	if (*i >= len || (s[*i] != 'e' && s[*i] != 'E'))
		return 0;
	(*i)++;
	int neg = 0;
	if (*i < len && (s[*i] == '-' || s[*i] == '+'))
		neg = s[(*i)++] == '-';
	if (*i >= len || s[*i] < '0' || s[*i] > '9')
		return -1;
	for (; *i < len && s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
		*exp = *exp * 10 + (s[*i] - '0');
		if (*exp > 1000)
			return -1;
	}
	if (neg)
		*exp = -*exp;
	return 0;
}

/* value = 0.dig × 10^(int_digits + exp) µs, in ns (3 more digits),
 * rounded half away from zero; -1 when it does not fit an int64. */
static int to_ns(const struct mantissa *m, long exp, int neg, int64_t *out)
{
	long point = (long)m->int_digits + exp + 3; /* digits before the ns point */
	uint64_t v = 0;
	for (long k = 0; k < point; k++) {
		int d = k < (long)m->nd ? m->dig[k] - '0' : 0;
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)d;
	}
	if (point >= 0 && point < (long)m->nd && m->dig[point] >= '5')
		v++;
	if (v > (uint64_t)INT64_MAX + (neg ? 1u : 0u))
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/* Digits beyond the nanosecond are rounded half away from zero. */
int amd_trace_us_to_ns(const char *s, size_t len, int64_t *out)
{
	if (fast_path(s, len, out))
		return 0;
	size_t i = 0;
	int neg = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	struct mantissa m;
	long exp;
	if (read_mantissa(s, len, &i, &m) < 0 || read_exponent(s, len, &i, &exp) < 0 || i != len)
		return -1;
	return to_ns(&m, exp, neg, out);
}

const char *amd_trace_time_check(int64_t ns, enum amd_trace_time_kind kind)
{
	if (ns < 0)
		return "is negative";
	if (kind == AMD_TRACE_TIMESTAMP && ns > AMD_TRACE_MAX_TIME_NS)
		return "is out of range (past 4e18 ns, the year 2096)";
	if (kind == AMD_TRACE_DURATION && ns > AMD_TRACE_MAX_DUR_NS)
		return "is out of range (longer than 1e18 ns, 31 years)";
	return NULL;
}
