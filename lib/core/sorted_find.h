/* sorted_find.h — the one lower-bound search over an array of records
 * sorted by an int64 field (py-spy trie nodes by id, a run's metric
 * points by step): header-only, so that the sqlite3 shell's extension
 * (lib/store/packed) uses it without linking lib/core. */
#ifndef AMD_SORTED_FIND_H
#define AMD_SORTED_FIND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Index of the first of the n records at base (stride bytes apart, the
 * int64 key offset bytes into each, keys ascending) whose key is key;
 * n when no record has it. */
static inline size_t amd_sorted_find_i64(const void *base, size_t n, size_t stride,
					 size_t offset, int64_t key)
{
	const unsigned char *p = base;
	size_t lo = 0, hi = n; /* first index whose key >= key */
	int64_t k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		memcpy(&k, p + mid * stride + offset, sizeof k);
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n)
		memcpy(&k, p + lo * stride + offset, sizeof k);
	return lo < n && k == key ? lo : n;
}

#endif
