/* trace_time.h — a trace's timestamps and durations (microseconds as
 * decimal text) to int64 nanoseconds, exactly, never through a double. */
#ifndef AMD_TRACE_TIME_H
#define AMD_TRACE_TIME_H

#include <stddef.h>
#include <stdint.h>

/* Microseconds as decimal text (integer, with a fraction, or with an
 * exponent) to int64 nanoseconds, exactly; digits past the nanosecond
 * round half away from zero. -1 on anything that is not a number or
 * does not fit. */
int amd_trace_us_to_ns(const char *s, size_t len, int64_t *out);

#endif
