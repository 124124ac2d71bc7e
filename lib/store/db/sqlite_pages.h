/* sqlite_pages.h — SQLite's page cache memory for an ingest: blocks the
 * size of a page cache entry come from one region in huge pages, touched
 * only as they are first used (sqlite_pages.c). */
#ifndef AMD_SQLITE_PAGES_H
#define AMD_SQLITE_PAGES_H

#include <stddef.h>

/* Installs SQLite's allocator over a region of `bytes` (a multiple of
 * 2 MB) for page cache entries of pages of `page_bytes`; everything else
 * still comes from malloc. Only before SQLite's first use, once per
 * process. -1 (nothing changed) when the kernel would not give huge pages
 * on request or the region cannot be mapped. */
int amd_sqlite_pages(size_t bytes, size_t page_bytes);

#endif
