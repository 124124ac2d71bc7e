/* numfmt.c — the report's number formats (see numfmt.h). */
#include "numfmt.h"

#include <stdio.h>

#include "table.h"

void report_num(double v, char *buf, size_t n)
{
	amd_cell_sig(buf, n, v); /* the one cell format (lib/core/table.h) */
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
