/* region_times.h — the one store query behind the scaling model
 * (lib/analysis/scaling.h): a sweep's per-rank time of every region, as
 * a flat table of (region name, kind, strategy, n, repeat, rank,
 * seconds per profiled step). The regions are issue 14's (regions.h:
 * table region, kinds of lib/model/region.h: op, nvtx, kernel,
 * collective, ...) of the sources that are profiler traces with steps;
 * the step itself (trace_step) is the row named AMD_REGION_STEP of kind
 * "step". Sources without a step count (cProfile, Nsight Systems, py-spy,
 * key_averages) are left out (region_times.c says why). Only runs that
 * count in statistics (amd_status_ok) are read. */
#ifndef AMD_REGION_TIMES_H
#define AMD_REGION_TIMES_H

#include <stddef.h>

#include "err.h"
#include "store.h"

/* The region name of a trace's whole step (kind "step"). */
#define AMD_REGION_STEP "(step)"

struct amd_region_time {
	/* strategy "" when unknown; the strings live in the rows' own
	 * allocation (amd_region_times_free frees them all) */
	const char *name, *kind, *strategy;
	int n, repeat, rank;          /* rank -1 when unknown */
	long long trace_id;           /* the trace the row comes from */
	long long run_id;             /* its logical run (a worker's parent) */
	double seconds;               /* per profiled step on this rank */
};

/* Rows of sweep (NULL: every sweep; a selector, amd_selector_is: the
 * runs it picks, selector.h), ordered by strategy, n, repeat, run,
 * trace. A region a trace lacks has no row there (callers read it as
 * zero time for that trace). */
int amd_store_region_times(struct amd_store *st, const char *sweep,
			   struct amd_region_time **out, size_t *n, struct amd_err *err);
void amd_region_times_free(struct amd_region_time *v);

#endif
