/* numfmt.c — the report's number formats (see numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>

void report_num(double v, char *buf, size_t n)
{
	double a = fabs(v);
	if (isnan(v) || isinf(v))
		snprintf(buf, n, "–");
	else if (a >= 100)
		snprintf(buf, n, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, n, "%.2f", v);
	else if (a >= 0.01)
		snprintf(buf, n, "%.3f", v);
	else
		snprintf(buf, n, "%.2g", v);
}

void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n)
{
	if (!ci->valid) {
		snprintf(buf, n, "%s", ci->why ? ci->why : "no CI");
		return;
	}
	char lo[32], hi[32];
	report_num(ci->lo * scale, lo, sizeof lo);
	report_num(ci->hi * scale, hi, sizeof hi);
	snprintf(buf, n, "%s–%s%s", lo, hi, suffix);
}
