/* region_run.h — the regions room's own: amd_regions_top of one run
 * (regions.h), read in memory (region_run.c) rather than through the
 * region virtual table. */
#ifndef AMD_REGION_RUN_H
#define AMD_REGION_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "regions.h"
#include "store.h"

/* The top regions of run run_id and its child workers, per rank and
 * device, into out: the rows, order, shares and n_all of regions.c's
 * SQL for a run. kind, profiler: dict ids to keep (0: any); limit: rows
 * kept (0: all). 0, or -1 with err filled: a region pack not well
 * formed, a region whose kind, profiler, name or file is not in dict, a
 * sum past 64 bits (each named by the store and its region_pack row),
 * SQLite's error, out of memory. */
int rr_top(struct amd_store *st, int64_t run_id, int64_t kind, int64_t profiler, size_t limit,
	   struct amd_region_list *out, struct amd_err *err);

#endif
