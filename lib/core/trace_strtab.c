/* trace_strtab.c — the trace aggregator's string table (open addressing
 * on a 64-bit word hash); see trace_strtab.h. */
#include "trace_strtab.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* String hash, 8 bytes a step (kernel names run to kilobytes). */
static uint32_t hash_str(const char *s, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(h ^ (h >> 32));
}

/* The slots doubled, each id moved by the hash its slot keeps: the
 * strings are not read again (hashing them again at every doubling cost
 * as much as interning them). */
static int strtab_rehash(struct amd_strtab *t)
{
	uint32_t ns = t->nslots ? t->nslots * 2 : 1024;
	uint64_t *sl = calloc(ns, sizeof *sl);
	if (!sl)
		return -1;
	for (uint32_t i = 0; i < t->nslots; i++) {
		if (!t->slots[i])
			continue;
		uint32_t h = (uint32_t)(t->slots[i] >> 32) & (ns - 1);
		while (sl[h])
			h = (h + 1) & (ns - 1);
		sl[h] = t->slots[i];
	}
	free(t->slots);
	t->slots = sl;
	t->nslots = ns;
	return 0;
}

/* Strings are carved from blocks of this size (a longer one gets a
 * block of its own), not one malloc each (a call and a chunk header per
 * string: a py-spy file's million names are interned twice). */
#define STRTAB_BLOCK ((size_t)64 << 10)

/* n bytes for a string, where they stay until amd_strtab_free; NULL
 * when out of memory. */
static char *strtab_room(struct amd_strtab *t, size_t n)
{
	if (n <= t->left) {
		char *c = t->at;
		t->at += n;
		t->left -= n;
		return c;
	}
	size_t size = n > STRTAB_BLOCK / 4 ? n : STRTAB_BLOCK;
	char *b = amd_grow(&t->blocks, t->n_blocks, &t->cap_blocks, sizeof *t->blocks, 16) < 0
			  ? NULL
			  : malloc(size);
	if (!b)
		return NULL;
	t->blocks[t->n_blocks++] = b;
	if (size == STRTAB_BLOCK) {
		t->at = b + n;
		t->left = size - n;
	}
	return b;
}

uint32_t amd_strtab_intern(struct amd_strtab *t, const char *s, size_t n)
{
	if (!t->s) {
		t->s = calloc(64, sizeof *t->s);
		t->len = calloc(64, sizeof *t->len);
		if (!t->s || !t->len)
			return 0;
		t->cap = 64;
		t->n = 1;
	}
	if (2 * (t->n + 1) > t->nslots && strtab_rehash(t) < 0)
		return 0;
	uint32_t hash = hash_str(s, n), h = hash & (t->nslots - 1);
	for (uint64_t slot; (slot = t->slots[h]); h = (h + 1) & (t->nslots - 1)) {
		uint32_t id = (uint32_t)slot;
		if ((uint32_t)(slot >> 32) == hash && t->len[id] == n &&
		    memcmp(t->s[id], s, n) == 0)
			return id;
	}
	size_t cap_s = t->cap, cap_len = t->cap;
	if (amd_grow(&t->s, t->n, &cap_s, sizeof *t->s, 64) < 0 ||
	    amd_grow(&t->len, t->n, &cap_len, sizeof *t->len, 64) < 0)
		return 0;
	t->cap = (uint32_t)cap_s;
	char *c = strtab_room(t, n + 1);
	if (!c)
		return 0;
	memcpy(c, s, n);
	c[n] = '\0';
	t->s[t->n] = c;
	t->len[t->n] = n;
	t->slots[h] = (uint64_t)hash << 32 | t->n;
	return t->n++;
}

void amd_strtab_free(struct amd_strtab *t)
{
	for (size_t i = 0; i < t->n_blocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t->s);
	free(t->len);
	free(t->slots);
}
