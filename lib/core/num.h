/* num.h — strict number parsing: the whole text must be the number. */
#ifndef AMD_NUM_H
#define AMD_NUM_H

#include <stdint.h>

/* Strict number parsing: the whole of s (surrounding blanks allowed)
 * must be the number; "nan", "inf", "-inf" accepted for doubles. */
int amd_parse_double(const char *s, double *out);
int amd_parse_int64(const char *s, int64_t *out);

#endif
