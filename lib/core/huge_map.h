/* huge_map.h — memory backed by transparent huge pages: a region that
 * is filled once and reused (SQLite's page cache, the record queue's
 * chunks), or a big malloc'd array filled once (the sweep-scale readers'
 * rows in region_join.c, scaling.c), costs one page fault per 2 MB
 * instead of one per 4 KB (on the virtual machines amdahl was measured
 * on, a 4 KB fault cost 30-80 µs: 8,000 of them were a quarter of an
 * ingest's CPU). */
#ifndef AMD_HUGE_MAP_H
#define AMD_HUGE_MAP_H

#include <stddef.h>

/* 1 when the kernel gives huge pages to a region that asks for them
 * (/sys/kernel/mm/transparent_hugepage/enabled is [always] or [madvise]). */
int amd_huge_pages_on_request(void);

/* len bytes (a multiple of 2 MB) starting on a 2 MB boundary, zeroed,
 * touched lazily, asking for huge pages; NULL when the mapping fails.
 * Freed with amd_huge_free(p, len). */
void *amd_huge_alloc(size_t len);
void amd_huge_free(void *p, size_t len);

#define AMD_HUGE_PAGE ((size_t)2 << 20)

/* Asks the kernel to back the 2 MB-aligned part of p[0..bytes) with huge
 * pages (madvise MADV_HUGEPAGE) when bytes is at least 4 MB; a hint only:
 * nothing happens where the kernel has no such pages or refuses. */
void amd_huge_hint(void *p, size_t bytes);

#endif
