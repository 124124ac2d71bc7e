/* trace_strtab.h — the trace aggregator's string table: each distinct
 * name, category or track key stored once and named by a small id. */
#ifndef AMD_TRACE_STRTAB_H
#define AMD_TRACE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct amd_strtab {
	char **s;
	size_t *len;
	uint32_t n, cap;    /* s[0] is NULL: id 0 means "none" */
	uint64_t *slots;    /* hash slots: id | the string's hash << 32, 0 = empty */
	uint32_t nslots;
	char **blocks;      /* where the strings are: they never move */
	size_t n_blocks, cap_blocks;
	char *at;           /* the free end of the last block */
	size_t left;
};

/* Id of s[0..n) (> 0), adding it; 0 when out of memory. */
uint32_t amd_strtab_intern(struct amd_strtab *t, const char *s, size_t n);
void amd_strtab_free(struct amd_strtab *t);

#endif
