/* num.c — strict number parsing and the shortest text of a double; see num.h. */
#include "num.h"

#include <ctype.h>
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

int amd_parse_double(const char *s, double *out)
{
	s = skip_blank(s);
	if (!*s)
		return -1;
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
