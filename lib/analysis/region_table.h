/* region_table.h — the table of a selection's top regions (store
 * regions.h), one builder for `amdahl regions` and the report's "where
 * the time goes" table: per run or file the rank, per sweep the
 * configuration; self and total time (ms), share, calls, bytes, kind,
 * profiler and name. */
#ifndef AMD_REGION_TABLE_H
#define AMD_REGION_TABLE_H

#include "regions.h"
#include "table.h"

/* NULL when out of memory; sweep: l comes from a sweep selection. */
struct amd_table *amd_region_table(const struct amd_region_list *l, int sweep);

#endif
