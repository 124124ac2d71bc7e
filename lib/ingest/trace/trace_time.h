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

/* The range a trace's times must lie in, so that baseTimeNanoseconds +
 * ts + dur (at most 9e18) never overflows int64: a timestamp (ts, or
 * baseTimeNanoseconds) 0 .. 4e18 ns (the year 2096 counted from 1970),
 * a duration 0 .. 1e18 ns (31 years). */
#define AMD_TRACE_MAX_TIME_NS 4000000000000000000LL
#define AMD_TRACE_MAX_DUR_NS 1000000000000000000LL
enum amd_trace_time_kind { AMD_TRACE_TIMESTAMP, AMD_TRACE_DURATION };
/* NULL when ns is a usable time of that kind, else why it is not
 * ("is negative", "is out of range ..."). */
const char *amd_trace_time_check(int64_t ns, enum amd_trace_time_kind kind);

#endif
