/* num.c — strict number parsing and the shortest text of a double; see num.h. */
#include "num.h"

#include <ctype.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	return s;
}

int amd_exact_decimal(const char *s, double *out, const char **end)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#if FLT_EVAL_METHOD != 0
	(void)s, (void)out, (void)end, (void)pow10;
	return 0; /* wider intermediate precision: not exact */
#else
	int neg = *s == '-';
	s += *s == '-' || *s == '+';
	uint64_t w = 0;
	int digits = 0, any = 0, e = 0;
	for (; *s >= '0' && *s <= '9'; s++, any = 1)
		if (w || *s != '0')
			w = w * 10 + (uint64_t)(*s - '0'), digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, any = 1, e--)
			if (w || *s != '0')
				w = w * 10 + (uint64_t)(*s - '0'), digits++;
	if (!any || digits > 19 || *s == 'x' || *s == 'X')
		return 0;
	if (*s == 'e' || *s == 'E') {
		int eneg = s[1] == '-', x = 0, xd = 0;
		for (s += 1 + (s[1] == '-' || s[1] == '+'); *s >= '0' && *s <= '9'; s++, xd++)
			if (xd < 4)
				x = x * 10 + (*s - '0');
		if (xd == 0 || xd > 3)
			return 0;
		e += eneg ? -x : x;
	}
	if (w > (UINT64_C(1) << 53) || e < -22 || e > 22)
		return 0;
	double v = e < 0 ? (double)w / pow10[-e] : (double)w * pow10[e];
	*out = neg ? -v : v;
	*end = s;
	return 1;
#endif
}

int amd_parse_double(const char *s, double *out)
{
	s = skip_blank(s);
	if (!*s)
		return -1;
	const char *after;
	double exact;
	if (amd_exact_decimal(s, &exact, &after) && !*skip_blank(after)) {
		*out = exact;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s)
		return -1;
	if (*skip_blank(end))
		return -1;
	/* ERANGE: overflow gives ±inf, underflow 0 or a subnormal; both are
	 * the nearest double, so they are kept */
	*out = v;
	return 0;
}

int amd_parse_int64(const char *s, int64_t *out)
{
	s = skip_blank(s);
	if (!*s)
		return -1;
	/* up to 18 digits cannot overflow: summed here (strtoll was ~6% of
	 * reading a points CSV); longer ones and odd forms go to strtoll */
	const char *d = s + (*s == '-' || *s == '+');
	int64_t acc = 0;
	int n = 0;
	for (; n < 18 && d[n] >= '0' && d[n] <= '9'; n++)
		acc = acc * 10 + (d[n] - '0');
	if (n > 0 && !*skip_blank(d + n)) { /* a 19th digit is not blank */
		*out = *s == '-' ? -acc : acc;
		return 0;
	}
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || errno == ERANGE || *skip_blank(end))
		return -1;
	*out = v;
	return 0;
}

void amd_num_text(double v, char *out, size_t n)
{
	snprintf(out, n, "%.15g", v);
	if (strtod(out, NULL) != v)
		snprintf(out, n, "%.17g", v);
}

int amd_ranked_cmp(const void *a, const void *b)
{
	const struct amd_ranked *x = a, *y = b;
	if (x->v != y->v) /* a NaN ranks as equal to all, by index (Holm's order) */
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}
