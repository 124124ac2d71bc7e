/* str_prefix.h — a string's first eight bytes as one number that orders
 * as strcmp does: a sort compares the numbers and calls strcmp only on
 * strings that share those bytes. */
#ifndef AMD_STR_PREFIX_H
#define AMD_STR_PREFIX_H

#include <stdint.h>

/* s's first 8 bytes big-endian, 0 past its end: two strings whose
 * prefixes differ compare as their prefixes (strcmp compares bytes as
 * unsigned char, and the end as the least byte); equal prefixes leave
 * strcmp to decide. */
static inline uint64_t amd_str_prefix(const char *s)
{
	uint64_t p = 0;
	int i = 0;
	for (; i < 8 && s[i]; i++)
		p = p << 8 | (unsigned char)s[i];
	for (; i < 8; i++)
		p <<= 8;
	return p;
}

#endif
