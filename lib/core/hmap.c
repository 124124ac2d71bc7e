/* hmap.c — the open-addressing hash index of hmap.h: linear probing,
 * at most half full, grown by doubling; and its hashes of bytes. */
#include "hmap.h"

#include <stdlib.h>
#include <string.h>

int64_t amd_hmap_find(const struct amd_hmap *m, uint32_t h,
		      int (*eq)(const void *ctx, uint32_t idx), const void *ctx)
{
	if (m->cap == 0)
		return -1;
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		const struct amd_hslot *s = &m->s[i];
		if (s->idx1 == 0)
			return -1;
		if (s->h == h && eq(ctx, s->idx1 - 1))
			return s->idx1 - 1;
	}
}

static void place(struct amd_hslot *v, size_t cap, struct amd_hslot e)
{
	size_t mask = cap - 1, i = e.h & mask;
	while (v[i].idx1)
		i = (i + 1) & mask;
	v[i] = e;
}

int amd_hmap_put(struct amd_hmap *m, uint32_t h, uint32_t idx)
{
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct amd_hslot *v = calloc(cap, sizeof *v);
		if (!v)
			return -1;
		for (size_t i = 0; i < m->cap; i++)
			if (m->s[i].idx1)
				place(v, cap, m->s[i]);
		free(m->s);
		m->s = v;
		m->cap = cap;
	}
	place(m->s, m->cap, (struct amd_hslot){.idx1 = idx + 1, .h = h});
	m->n++;
	return 0;
}

void amd_hmap_free(struct amd_hmap *m)
{
	free(m->s);
	*m = (struct amd_hmap){0};
}

uint64_t amd_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = amd_hash_step(h, c[i]);
	return h;
}

uint64_t amd_hash_words(uint64_t h, const void *p, size_t n)
{
	const char *c = p;
	uint64_t w;
	for (; n >= 8; c += 8, n -= 8) {
		memcpy(&w, c, 8);
		h = amd_hash_word(h, w);
	}
	w = 0;
	memcpy(&w, c, n);
	return amd_hash_word(h, w ^ (uint64_t)n << 56);
}

uint32_t amd_hash_u64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (uint32_t)k;
}
