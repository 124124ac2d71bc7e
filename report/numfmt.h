/* numfmt.h — intervals as every part of the report prints them: "lo–hi"
 * in the one cell format (amd_cell_sig, lib/core/table.h: 3-4
 * significant digits without an exponent). */
#ifndef AMD_REPORT_NUMFMT_H
#define AMD_REPORT_NUMFMT_H

#include <stddef.h>

#include "analysis.h"

/* "lo–hi" of ci × scale with suffix, or why there is none. */
void report_ci_range(const struct amd_ci *ci, double scale, const char *suffix, char *buf,
		     size_t n);
/* The same, then " (75%)" when the interval has its own level (an
 * order-statistic interval of a median, a speedup at 3 runs a side): the
 * coverage it has, where a column or sentence says the asked level. */
void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n);

#endif
