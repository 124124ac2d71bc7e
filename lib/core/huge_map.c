/* huge_map.c — memory in transparent huge pages (huge_map.h): regions
 * mapped for them, and the hint for a malloc'd array. */
#include "huge_map.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int amd_huge_pages_on_request(void)
{
	char line[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!f)
		return 0;
	int ok = fgets(line, sizeof line, f) &&
		 (strstr(line, "[always]") || strstr(line, "[madvise]"));
	fclose(f);
	return ok;
}

void *amd_huge_alloc(size_t len)
{
	if (len == 0 || len % AMD_HUGE_PAGE)
		return NULL;
	unsigned char *map = mmap(NULL, len + AMD_HUGE_PAGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	/* keep the aligned len bytes; give back the head and tail around them */
	size_t head = (AMD_HUGE_PAGE - (uintptr_t)map % AMD_HUGE_PAGE) % AMD_HUGE_PAGE;
	unsigned char *p = map + head;
	if (head)
		munmap(map, head);
	if (AMD_HUGE_PAGE - head)
		munmap(p + len, AMD_HUGE_PAGE - head);
	madvise(p, len, MADV_HUGEPAGE); /* a request: without it, 4 KB pages */
	return p;
}

void amd_huge_free(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

void amd_huge_hint(void *p, size_t bytes)
{
	if (!p || bytes < 2 * AMD_HUGE_PAGE)
		return;
	uintptr_t a = ((uintptr_t)p + AMD_HUGE_PAGE - 1) & ~(uintptr_t)(AMD_HUGE_PAGE - 1);
	uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(AMD_HUGE_PAGE - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE); /* a hint: failure changes nothing */
}
