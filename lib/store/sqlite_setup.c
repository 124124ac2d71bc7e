/* sqlite_setup.c — SQLite's process-wide settings (sqlite_setup.h):
 *  - no allocation statistics: their mutex was taken by every
 *    sqlite3_malloc (7% of an ingest of metric points) and amdahl never
 *    reads them;
 *  - for an ingest, the page cache in one region of memory of its own,
 *    backed by transparent huge pages. A writer's cache grows to 32 MiB
 *    (store.c's INGEST_CACHE_PRAGMA) one 4 KB page at a time; from
 *    malloc on the ingest's worker thread each page was a heap growth
 *    (mprotect) and a page fault, a quarter of the CPU of the thread that
 *    writes 1.2 M metric points (perf, docs/design.md). In 2 MB pages the
 *    region costs 16 faults. Only when the kernel gives huge pages on
 *    request (/sys/kernel/mm/transparent_hugepage/enabled is [always] or
 *    [madvise]): SQLite writes a link into every slot at start, and in
 *    4 KB pages that is the same 8,000 faults, paid even by a small
 *    ingest. Pages beyond the region, or larger than a slot (a foreign
 *    database with big pages), come from malloc as before. */
#include "sqlite_setup.h"

#include <pthread.h>
#include <sqlite3.h>

#include "huge_map.h"

#define CACHE_BYTES ((size_t)32 << 20) /* store.c: PRAGMA cache_size=-32768 */
#define PAGE_BYTES 4096 /* SQLite's default page size, the store's */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static enum amd_sqlite_use first_use;

/* The page cache's region: CACHE_BYTES aligned to a huge page, never
 * unmapped (SQLite uses it until the process ends). Nothing when the
 * kernel would not back it with huge pages or the mapping fails: SQLite
 * then mallocs its pages, as without this. */
static void give_page_cache(void)
{
	int hdr = 0;
	void *region;
	if (!amd_huge_pages_on_request() ||
	    sqlite3_config(SQLITE_CONFIG_PCACHE_HDRSZ, &hdr) != SQLITE_OK ||
	    !(region = amd_huge_alloc(CACHE_BYTES)))
		return;
	size_t slot = (PAGE_BYTES + (size_t)hdr + 7) & ~(size_t)7;
	if (sqlite3_config(SQLITE_CONFIG_PAGECACHE, region, (int)slot,
			   (int)(CACHE_BYTES / slot)) != SQLITE_OK)
		amd_huge_free(region, CACHE_BYTES);
}

static void setup(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (first_use == AMD_SQLITE_INGEST)
		give_page_cache();
}

void amd_sqlite_setup(enum amd_sqlite_use use)
{
	if (use == AMD_SQLITE_INGEST)
		first_use = use; /* only before any thread: sqlite_setup.h */
	pthread_once(&once, setup);
}
