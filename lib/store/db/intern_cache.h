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

#define AMD_INTERN_RECENT 8

struct amd_intern_cache {
	struct amd_strtab names; /* name -> index into ids */
	int64_t *ids;            /* dict id per index; 0: not known yet */
	size_t cap;
	/* the last names asked for, by the caller's pointer: a writer's
	 * constants (a region's kind and profiler, a file name on every
	 * row) asked for again cost a pointer and a strcmp, not a hash */
	struct {
		const char *p;
		uint32_t i;
	} recent[AMD_INTERN_RECENT];
	/* names dict did not hold, one after another (amd_store_intern
	 * adds a name before looking it up once they run) */
	unsigned fresh;
	/* the index after the last name found again (not added): names
	 * asked for again in the order they were added (a py-spy unit's
	 * frames, after writer_names added their names in that order) are
	 * each a compare with the next string, not a hash and a probe of
	 * the table at a random place */
	uint32_t next;
};

/* The dict id slot of name s (0 when its id is not known yet: look it
 * up and store it there); NULL when out of memory. */
int64_t *amd_intern_cache_slot(struct amd_intern_cache *c, const char *s);

/* Forgets every name (the transaction ended). */
void amd_intern_cache_clear(struct amd_intern_cache *c);

#endif
