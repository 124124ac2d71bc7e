/* numfmt.c — the report's number formats (see numfmt.h). */
#include "numfmt.h"

#include <stdio.h>
#include <string.h>

#include "table.h"

void report_ci_range(const struct amd_ci *ci, double scale, const char *suffix, char *buf,
		     size_t n)
{
	if (!ci->valid) {
		snprintf(buf, n, "%s", ci->why ? ci->why : "no CI");
		return;
	}
	char lo[32], hi[32];
	amd_cell_sig(lo, sizeof lo, ci->lo * scale);
	amd_cell_sig(hi, sizeof hi, ci->hi * scale);
	snprintf(buf, n, "%s–%s%s", lo, hi, suffix);
}

void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n)
{
	report_ci_range(ci, scale, suffix, buf, n);
	size_t used = strlen(buf);
	if (ci->valid && ci->level > 0 && used < n)
		snprintf(buf + used, n - used, " (%.0f%%)", ci->level * 100);
}
