/* isotime.c — ISO 8601 times with zone offsets (isotime.h), for the
 * selector's since/until and the MLflow CSV reader. */
#include "isotime.h"

#include <ctype.h>
#include <time.h>

/* n digits at *p as a number in *v, *p moved past them; -1 if not. */
static int digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		*v = *v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return 0;
}

/* ".fraction": its first three digits as ms; p moved past it. */
static int fraction_ms(const char **p)
{
	int ms = 0, n = 0;
	if (**p != '.')
		return 0;
	for ((*p)++; isdigit((unsigned char)**p); (*p)++, n++)
		if (n < 3)
			ms = ms * 10 + (**p - '0');
	for (; n < 3; n++)
		ms *= 10;
	return ms;
}

/* Z, +HH:MM, +HHMM, +HH or nothing: the offset east of UTC in minutes
 * in *min; -1 on anything else. */
static int zone(const char **p, int *min)
{
	*min = 0;
	if (**p == 'Z') {
		(*p)++;
		return 0;
	}
	if (**p != '+' && **p != '-')
		return 0;
	int sign = **p == '-' ? -1 : 1, hh, mm = 0;
	(*p)++;
	if (digits(p, 2, &hh) < 0 || hh > 23)
		return -1;
	if (**p == ':') {
		(*p)++;
		if (digits(p, 2, &mm) < 0)
			return -1;
	} else if (isdigit((unsigned char)**p) && digits(p, 2, &mm) < 0) {
		return -1;
	}
	if (mm > 59)
		return -1;
	*min = sign * (hh * 60 + mm);
	return 0;
}

int amd_parse_iso_time_ms(const char *s, int64_t *out)
{
	struct tm tm = {0};
	const char *p = s;
	int ms = 0, off = 0;
	if (digits(&p, 4, &tm.tm_year) < 0 || *p++ != '-' || digits(&p, 2, &tm.tm_mon) < 0 ||
	    *p++ != '-' || digits(&p, 2, &tm.tm_mday) < 0)
		return -1;
	if ((*p == 'T' || *p == ' ') && p[1]) {
		p++;
		if (digits(&p, 2, &tm.tm_hour) < 0 || *p++ != ':' || digits(&p, 2, &tm.tm_min) < 0)
			return -1;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &tm.tm_sec) < 0)
				return -1;
			ms = fraction_ms(&p);
		}
		if (zone(&p, &off) < 0)
			return -1;
	} else if (*p == 'Z') {
		p++;
	}
	if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = ((int64_t)timegm(&tm) - (int64_t)off * 60) * 1000 + ms;
	return 0;
}
