/* numfmt.h — numbers as every part of the report prints them: 3-4
 * significant digits without an exponent, and intervals as "lo–hi". */
#ifndef AMD_REPORT_NUMFMT_H
#define AMD_REPORT_NUMFMT_H

#include <stddef.h>

#include "analysis.h"

/* v with 3-4 significant digits, no exponent ("–" when not finite). */
void report_num(double v, char *buf, size_t n);
/* "lo–hi" of an interval (times scale, then suffix) in report_num
 * format, or why it has none. */
void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n);

#endif
