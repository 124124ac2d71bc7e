/* intern_cache.c — a connection's interned names of the current
 * transaction and their dict ids (intern_cache.h), on the string table
 * of lib/core (trace_strtab.h). */
#include "intern_cache.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

int64_t *amd_intern_cache_slot(struct amd_intern_cache *c, const char *s)
{
	uint32_t i = amd_strtab_intern(&c->names, s, strlen(s));
	if (i == 0)
		return NULL;
	if (i >= c->cap) {
		size_t old = c->cap;
		if (amd_grow_to(&c->ids, (size_t)i + 1, &c->cap, sizeof *c->ids, 1024) < 0)
			return NULL;
		memset(c->ids + old, 0, (c->cap - old) * sizeof *c->ids);
	}
	return &c->ids[i];
}

void amd_intern_cache_clear(struct amd_intern_cache *c)
{
	amd_strtab_free(&c->names);
	free(c->ids);
	memset(c, 0, sizeof *c);
}
