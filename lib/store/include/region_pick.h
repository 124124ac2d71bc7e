/* region_pick.h — a sweep's region list (regions.h) narrowed in memory to
 * one profiler and kind and the top rows per configuration: the rows
 * amd_regions_top would give for that filter, without scanning the
 * region table again (the report's region mix and its table share one
 * scan). */
#ifndef AMD_REGION_PICK_H
#define AMD_REGION_PICK_H

#include "regions.h"

/* From all (amd_regions_top of a sweep by name with no filter and no
 * limit): the rows of f->kind and f->profiler (NULL: any), the first
 * f->limit of each configuration (0: all), copied into *out, n_all the
 * matching rows before the limit. -1 out of memory. */
int amd_region_list_pick(const struct amd_region_list *all, const struct amd_region_filter *f,
			 struct amd_region_list *out);

#endif
