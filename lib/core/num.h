/* num.h — numbers from text and the one test of a usable number:
 * strict parsing (the whole text must be the number), amd_num_ok, and
 * the shortest text of a double. */
#ifndef AMD_NUM_H
#define AMD_NUM_H

#include <math.h>
#include <stddef.h>
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
/* Clinger's exact fast path for the number at the start of s: a decimal
 * of at most 19 digits (optional sign, fraction and exponent) whose
 * integer w is at most 2^53 and whose power of ten |e| is at most 22 is
 * w * 10^e or w / 10^-e, both operands exact doubles, so the one IEEE
 * operation is correctly rounded: the double glibc's strtod gives. 1
 * with *out and *end (just after the number) set; 0 when it is not of
 * that shape (strtod decides then: hex, words, longer numbers). */
int amd_exact_decimal(const char *s, double *out, const char **end);
/* A number as the shortest text ("%.15g", else "%.17g") that reads back
 * as the same double: params that were numbers in their source. */
void amd_num_text(double v, char *out, size_t n);

/* A value and its index, for qsort by amd_ranked_cmp: ascending value,
 * equal values in index order (a stable, deterministic rank). */
struct amd_ranked {
	double v;
	size_t i;
};
int amd_ranked_cmp(const void *a, const void *b);

#endif
