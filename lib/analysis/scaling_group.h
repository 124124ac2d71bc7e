/* scaling_group.h — a strategy's region rows (region_times.h) grouped
 * by region (kind, then name) for scaling.c, by counting instead of by
 * comparing rows. */
#ifndef AMD_SCALING_GROUP_H
#define AMD_SCALING_GROUP_H

#include <stddef.h>

#include "region_times.h"

/* Reorders ix[0..m) as a stable sort by kind, then name (strcmp) would:
 * the rows' distinct (kind, name) string pointers are ranked by their
 * text, then the rows placed by rank in their given order. -1 out of
 * memory (ix left as it was). */
int amd_scaling_group_rows(struct amd_region_time **ix, size_t m);

#endif
