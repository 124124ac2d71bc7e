/* huge.h — a hint that a big in-memory array be backed by transparent
 * huge pages. On this kind of machine (a VM, THP in madvise mode) every
 * first touch of a 4 KB page is a page fault costing microseconds; the
 * sweep-scale readers fill arrays of tens to hundreds of MB once
 * (region_join.c, scaling.c), and 2 MB pages cut those faults 512-fold. */
#ifndef AMD_HUGE_H
#define AMD_HUGE_H

#include <stddef.h>

/* Asks the kernel to back the 2 MB-aligned part of p[0..bytes) with huge
 * pages (madvise MADV_HUGEPAGE) when bytes is at least 4 MB; a hint only:
 * nothing happens where the kernel has no such pages or refuses. */
void amd_huge_hint(void *p, size_t bytes);

#endif
