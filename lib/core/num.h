/* num.h — numbers from text and the one test of a usable number:
 * strict parsing (the whole text must be the number) and amd_num_ok. */
#ifndef AMD_NUM_H
#define AMD_NUM_H

#include <math.h>
#include <stdint.h>

/* A value that can be shown and computed with: neither NaN nor infinite.
 * Everything else is "no value" (a "–" in tables, null in JSON). */
static inline int amd_num_ok(double v)
{
	return isfinite(v);
}

/* Strict number parsing: the whole of s (surrounding blanks allowed)
 * must be the number; "nan", "inf", "-inf" accepted for doubles. */
int amd_parse_double(const char *s, double *out);
int amd_parse_int64(const char *s, int64_t *out);

#endif
