/* le64.h — the 64-bit little-endian words of the packed layouts
 * (metric_pack.c, gpu_pack.c): a plain copy on a little-endian host,
 * byte by byte on any other. */
#ifndef AMD_LE64_H
#define AMD_LE64_H

#include <stdint.h>
#include <string.h>

static inline void amd_put_le64(unsigned char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
#endif
}

static inline uint64_t amd_get_le64(const unsigned char *p)
{
	uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, 8);
#else
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
#endif
	return v;
}

#endif
