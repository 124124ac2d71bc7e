/* sqlite_pages.c — SQLite's page cache memory for an ingest
 * (sqlite_pages.h): SQLite's own allocator, with page-sized blocks cut
 * from one region in transparent huge pages as they are first asked for.
 *
 * Round seven gave SQLite the region through SQLITE_CONFIG_PAGECACHE,
 * which links every slot into a free list when SQLite starts: the whole
 * 32 MiB was touched, zeroed by the kernel and counted in RSS before the
 * first byte was read — 16% of the CPU of a 24 MB speedscope ingest (perf,
 * sqlite3PCacheBufferSetup), paid by every ingest however small. Here a
 * block comes from a bump pointer (never-used memory) or a list of freed
 * blocks, so only the 2 MB pages a store actually fills are faulted in,
 * and a big write still gets its 32 MiB at 16 faults instead of 8,000.
 * Everything else, and blocks once the region is used up, goes to the
 * allocator SQLite had (malloc). SQLite calls its allocator from any
 * thread without a lock (MEMSTATUS off): the region has its own mutex. */
#include "sqlite_pages.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "huge_map.h"

static sqlite3_mem_methods base; /* the allocator SQLite had */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *region, *bump, *end; /* [region, end): the region */
static size_t lo, slot; /* a block of lo..slot bytes comes from a slot */
static void *freed; /* freed slots, each holding the next one's address */

static int in_region(const void *p)
{
	return (const unsigned char *)p >= region && (const unsigned char *)p < end;
}

static void *slot_take(void)
{
	void *p = NULL;
	pthread_mutex_lock(&lock);
	if (freed) {
		p = freed;
		memcpy(&freed, p, sizeof freed);
	} else if ((size_t)(end - bump) >= slot) {
		p = bump;
		bump += slot;
	}
	pthread_mutex_unlock(&lock);
	return p;
}

static void slot_give(void *p)
{
	pthread_mutex_lock(&lock);
	memcpy(p, &freed, sizeof freed);
	freed = p;
	pthread_mutex_unlock(&lock);
}

static void *pages_malloc(int n)
{
	void *p = n >= 0 && (size_t)n >= lo && (size_t)n <= slot ? slot_take() : NULL;
	return p ? p : base.xMalloc(n);
}

static void pages_free(void *p)
{
	if (in_region(p))
		slot_give(p);
	else
		base.xFree(p);
}

static int pages_size(void *p)
{
	return in_region(p) ? (int)slot : base.xSize(p);
}

/* A slot grows only by moving to malloc; it never shrinks (it is the
 * region's memory either way). */
static void *pages_realloc(void *p, int n)
{
	if (!in_region(p))
		return base.xRealloc(p, n);
	if (n >= 0 && (size_t)n <= slot)
		return p;
	void *q = base.xMalloc(n);
	if (q) {
		memcpy(q, p, slot);
		slot_give(p);
	}
	return q;
}

static int pages_roundup(int n)
{
	return base.xRoundup(n);
}

static int pages_init(void *app)
{
	return base.xInit(app);
}

static void pages_shutdown(void *app)
{
	base.xShutdown(app);
}

int amd_sqlite_pages(size_t bytes, size_t page_bytes)
{
	int hdr = 0;
	if (!amd_huge_pages_on_request() ||
	    sqlite3_config(SQLITE_CONFIG_PCACHE_HDRSZ, &hdr) != SQLITE_OK ||
	    sqlite3_config(SQLITE_CONFIG_GETMALLOC, &base) != SQLITE_OK || !base.xMalloc)
		return -1;
	if (!(region = amd_huge_alloc(bytes)))
		return -1;
	lo = page_bytes;
	slot = (page_bytes + (size_t)hdr + 7) & ~(size_t)7;
	bump = region;
	end = region + bytes;
	sqlite3_mem_methods m = {
		pages_malloc, pages_free, pages_realloc, pages_size,
		pages_roundup, pages_init, pages_shutdown, base.pAppData,
	};
	/* PAGECACHE(NULL, 0, 0): no first 20 pages of each cache in one
	 * malloc'd block, faulted in 4 KB pages; every page from the region */
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK ||
	    sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)NULL, 0, 0) != SQLITE_OK) {
		sqlite3_config(SQLITE_CONFIG_MALLOC, &base);
		amd_huge_free(region, bytes);
		region = bump = end = NULL;
		return -1;
	}
	return 0;
}
