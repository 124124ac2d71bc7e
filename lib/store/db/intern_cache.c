/* intern_cache.c — a connection's interned names of the current
 * transaction and their dict ids (intern_cache.h), on the string table
 * of lib/core (trace_strtab.h), with the last names asked for by their
 * pointer, and the name after the last one found again, in front of it. */
#include "intern_cache.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* s's slot among the recent names, by its address. */
static unsigned recent_at(const char *s)
{
	return (unsigned)(((uint64_t)(uintptr_t)s * 0x9E3779B97F4A7C15u) >> 61) %
	       AMD_INTERN_RECENT;
}

/* Name i (> 0) of t is s[0..n). */
static int is_at(const struct amd_strtab *t, uint32_t i, const char *s, size_t n)
{
	return i < t->n && t->len[i] == n && memcmp(t->s[i], s, n) == 0;
}

int64_t *amd_intern_cache_slot(struct amd_intern_cache *c, const char *s)
{
	unsigned r = recent_at(s);
	if (c->recent[r].p == s && strcmp(c->names.s[c->recent[r].i], s) == 0)
		return &c->ids[c->recent[r].i];
	size_t n = strlen(s);
	uint32_t i = c->next ? c->next : 1;
	if (is_at(&c->names, i, s, n)) {
		c->next = i + 1;
	} else {
		uint32_t added = c->names.n; /* the first index a new name takes */
		if ((i = amd_strtab_intern(&c->names, s, n)) == 0)
			return NULL;
		if (i < added && i >= c->next) /* found again further on: go on from there */
			c->next = i + 1;
	}
	if (i >= c->cap) {
		size_t old = c->cap;
		if (amd_grow_to(&c->ids, (size_t)i + 1, &c->cap, sizeof *c->ids, 1024) < 0)
			return NULL;
		memset(c->ids + old, 0, (c->cap - old) * sizeof *c->ids);
	}
	c->recent[r].p = s;
	c->recent[r].i = i;
	return &c->ids[i];
}

void amd_intern_cache_clear(struct amd_intern_cache *c)
{
	amd_strtab_free(&c->names);
	free(c->ids);
	memset(c, 0, sizeof *c);
}
