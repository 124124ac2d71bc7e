/* intern_cache.c — a connection's interned names of the current
 * transaction and their dict ids (intern_cache.h), on the string table
 * of lib/core (trace_strtab.h), with the last names asked for by their
 * pointer in front of it. */
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

int64_t *amd_intern_cache_slot(struct amd_intern_cache *c, const char *s)
{
	unsigned r = recent_at(s);
	if (c->recent[r].p == s && strcmp(c->names.s[c->recent[r].i], s) == 0)
		return &c->ids[c->recent[r].i];
	uint32_t i = amd_strtab_intern(&c->names, s, strlen(s));
	if (i == 0)
		return NULL;
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
