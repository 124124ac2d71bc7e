/* sqlite_setup.c — SQLite's process-wide settings (sqlite_setup.h), and
 * store.h's amd_store_prepare_write, their writer's form for a location:
 *  - no allocation statistics: their mutex was taken by every
 *    sqlite3_malloc (7% of an ingest of metric points) and amdahl never
 *    reads them;
 *  - for an ingest, the page cache's memory from one region of its own,
 *    backed by transparent huge pages (sqlite_pages.c). A writer's cache
 *    grows to 32 MiB (store.c's INGEST_CACHE_PRAGMA) one 4 KB page at a
 *    time; from malloc on the ingest's worker thread each page was a heap
 *    growth (mprotect) and a page fault, a quarter of the CPU of the
 *    thread that writes 1.2 M metric points (perf, docs/design.md). In
 *    2 MB pages the 32 MiB cost 16 faults. The region is touched only as
 *    pages are first used, so a small ingest pays for none of it, and it
 *    is 64 MiB of address space: the writer's 32 MiB of pages with their
 *    headers (7,700 slots of 4,360 bytes, 34 MB) and the other
 *    connections' caches (the reader's, a foreign database's). Only
 *    when the kernel gives huge pages on request
 *    (/sys/kernel/mm/transparent_hugepage/enabled is [always] or
 *    [madvise]); pages beyond the region, or larger than a slot (a
 *    foreign database with big pages), come from malloc as before. */
#include "sqlite_setup.h"

#include <pthread.h>
#include <sqlite3.h>

#include "clickhouse.h"
#include "sqlite_pages.h"
#include "store.h"

#define REGION_BYTES ((size_t)64 << 20) /* store.c: PRAGMA cache_size=-32768, and more */
#define PAGE_BYTES 4096 /* SQLite's default page size, the store's */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static enum amd_sqlite_use first_use;

static void setup(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (first_use == AMD_SQLITE_INGEST)
		(void)amd_sqlite_pages(REGION_BYTES, PAGE_BYTES); /* -1: malloc, as without it */
}

void amd_sqlite_setup(enum amd_sqlite_use use)
{
	if (use == AMD_SQLITE_INGEST)
		first_use = use; /* only before any thread: sqlite_setup.h */
	pthread_once(&once, setup);
}

void amd_store_prepare_write(const char *location)
{
	amd_sqlite_setup(amd_ch_is_url(location) ? AMD_SQLITE_ANY : AMD_SQLITE_INGEST);
}
