/* regions_sweep.h — amd_regions_top's rows for a sweep by name
 * (regions.h), computed in memory from one scan of the region table
 * (regions_sweep.c). */
#ifndef AMD_REGIONS_SWEEP_H
#define AMD_REGIONS_SWEEP_H

#include "regions.h"

/* The rows amd_regions_top gives for sel->sweep_id (a sweep by name). */
int amd_regions_sweep_top(struct amd_store *st, int64_t sweep_id,
			  const struct amd_region_filter *f, struct amd_region_list *out,
			  struct amd_err *err);
/* Frees one row's strings (regions.c). */
void amd_region_row_free(struct amd_region_row *r);

#endif
