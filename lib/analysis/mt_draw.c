/* mt_draw.c — MT19937's seeding and twist as GSL's mt.c has them
 * (mt_draw.h); the tempering and the draws are inline in the header. */
#include "mt_draw.h"

#define M 397
#define UPPER 0x80000000u
#define LOWER 0x7fffffffu
#define MAGIC(y) (((y) & 1u) ? 0x9908b0dfu : 0u)

void amd_mt_seed(struct amd_mt *m, unsigned long seed)
{
	if (seed == 0)
		seed = 4357; /* GSL's default seed */
	m->mt[0] = (uint32_t)(seed & 0xffffffffUL);
	for (int i = 1; i < AMD_MT_N; i++)
		m->mt[i] = 1812433253u * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
	m->mti = AMD_MT_N;
}

void amd_mt_twist(struct amd_mt *m)
{
	uint32_t *mt = m->mt;
	int kk;
	for (kk = 0; kk < AMD_MT_N - M; kk++) {
		uint32_t y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER);
		mt[kk] = mt[kk + M] ^ (y >> 1) ^ MAGIC(y);
	}
	for (; kk < AMD_MT_N - 1; kk++) {
		uint32_t y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER);
		mt[kk] = mt[kk + (M - AMD_MT_N)] ^ (y >> 1) ^ MAGIC(y);
	}
	uint32_t y = (mt[AMD_MT_N - 1] & UPPER) | (mt[0] & LOWER);
	mt[AMD_MT_N - 1] = mt[M - 1] ^ (y >> 1) ^ MAGIC(y);
	m->mti = 0;
}
