/* huge.c — amd_huge_hint (huge.h). */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "huge.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

void amd_huge_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	if (!p || bytes < 2 * HUGE_PAGE)
		return;
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t b = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#else
	(void)p;
	(void)bytes;
#endif
}
