/* numfmt.h — intervals as every part of the report prints them: "lo–hi"
 * in the one cell format (amd_cell_sig, lib/core/table.h: 3-4
 * significant digits without an exponent). */
#ifndef AMD_REPORT_NUMFMT_H
#define AMD_REPORT_NUMFMT_H

#include <stddef.h>

#include "analysis.h"

/* "lo–hi" of an interval (times scale, then suffix) in amd_cell_sig
 * format, or why it has none. */
void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n);

#endif
