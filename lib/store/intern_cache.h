/* intern_cache.h — the names a store connection interned in its current
 * transaction and their dict ids, in memory (a hash table in front of
 * dict), so a name seen again costs no SQLite look-up. Emptied when the
 * transaction ends: after a rollback its new ids no longer exist, and a
 * unit's names are what repeat. Used by amd_store_intern (store.c). */
#ifndef AMD_INTERN_CACHE_H
#define AMD_INTERN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "trace_strtab.h"

struct amd_intern_cache {
	struct amd_strtab names; /* name -> index into ids */
	int64_t *ids;            /* dict id per index; 0: not known yet */
	size_t cap;
};

/* The dict id slot of name s (0 when its id is not known yet: look it
 * up and store it there); NULL when out of memory. */
int64_t *amd_intern_cache_slot(struct amd_intern_cache *c, const char *s);

/* Forgets every name (the transaction ended). */
void amd_intern_cache_clear(struct amd_intern_cache *c);

#endif
