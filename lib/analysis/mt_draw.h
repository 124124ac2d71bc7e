/* mt_draw.h — the Mersenne Twister MT19937 as GSL's gsl_rng_mt19937
 * (same seeding by gsl_rng_set, same 32-bit outputs, gsl_rng_uniform's
 * doubles), its draws inlined: the region fits' bootstrap (region_fit.c)
 * draws millions of indices, and gsl_rng_uniform's call through the
 * generator's function pointers was a tenth of a 1,000 × 64 report's
 * CPU. The same numbers, so the same intervals (test_mt_draw checks
 * against GSL itself). */
#ifndef AMD_MT_DRAW_H
#define AMD_MT_DRAW_H

#include <stdint.h>

#define AMD_MT_N 624

struct amd_mt {
	uint32_t mt[AMD_MT_N];
	int mti;
};

/* As gsl_rng_set(r, seed) on a gsl_rng_mt19937 (seed 0 is 4357). */
void amd_mt_seed(struct amd_mt *m, unsigned long seed);
/* The next 624 words (the state's twist). */
void amd_mt_twist(struct amd_mt *m);

/* As gsl_rng_get: the next 32-bit output. */
static inline uint32_t amd_mt_get(struct amd_mt *m)
{
	if (m->mti >= AMD_MT_N)
		amd_mt_twist(m);
	uint32_t k = m->mt[m->mti++];
	k ^= k >> 11;
	k ^= (k << 7) & 0x9d2c5680u;
	k ^= (k << 15) & 0xefc60000u;
	k ^= k >> 18;
	return k;
}

/* As gsl_rng_uniform: [0, 1). */
static inline double amd_mt_uniform(struct amd_mt *m)
{
	return amd_mt_get(m) / 4294967296.0;
}

#endif
