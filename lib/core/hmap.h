/* hmap.h — an open-addressing hash index over an array the caller owns:
 * the map holds (hash, element index) pairs, the caller's array holds the
 * elements and says when two are equal. Used to intern frames and stack
 * nodes in memory (py-spy's accumulator, the store's stack writer). */
#ifndef AMD_HMAP_H
#define AMD_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct amd_hslot {
	uint32_t idx1; /* element index + 1; 0 = empty */
	uint32_t h;
};

struct amd_hmap {
	struct amd_hslot *s;
	size_t cap, n; /* cap: a power of two (0 before the first put) */
};

/* Calls eq(ctx, idx) on each element stored under hash h until it
 * returns non-zero: that element's index, else -1. */
int64_t amd_hmap_find(const struct amd_hmap *m, uint32_t h,
		      int (*eq)(const void *ctx, uint32_t idx), const void *ctx);
/* Stores element idx under hash h (the caller knows it is absent);
 * -1 when out of memory (the map is left as it was). */
int amd_hmap_put(struct amd_hmap *m, uint32_t h, uint32_t idx);
void amd_hmap_free(struct amd_hmap *m);

/* FNV-1a, one step and over n bytes, and a 64-bit key mixed to 32 bits. */
#define AMD_HASH_SEED 0xcbf29ce484222325ULL
static inline uint64_t amd_hash_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * 0x100000001b3ULL;
}
uint64_t amd_hash_bytes(uint64_t h, const void *p, size_t n);
uint32_t amd_hash_u64(uint64_t k);

/* A word at a time: w into h (times the golden ratio, then an
 * xor-shift), and p[0..n) eight bytes a step, the last word zero-padded
 * with n mixed in — for texts FNV's byte a step made a reader's
 * hashing most of its look-ups (cProfile keys, py-spy frames). */
#define AMD_HASH_GOLDEN 0x9e3779b97f4a7c15ULL
static inline uint64_t amd_hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * AMD_HASH_GOLDEN;
	return h ^ (h >> 29);
}
uint64_t amd_hash_words(uint64_t h, const void *p, size_t n);

#endif
