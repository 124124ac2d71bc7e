/* region_rows.h — the regions room's own: freeing one row of
 * amd_regions_top (regions.h), for the files that build or trim lists of
 * rows (regions.c, region_pick.c). */
#ifndef AMD_REGION_ROWS_H
#define AMD_REGION_ROWS_H

#include "regions.h"

/* Frees one row's strings (regions.c). */
void amd_region_row_free(struct amd_region_row *r);

#endif
