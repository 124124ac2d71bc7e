/* region_times.h — the one store query behind the scaling model
 * (lib/analysis/scaling.h): a sweep's per-rank time of every region, as
 * a flat table of (region name, kind, strategy, n, repeat, rank,
 * seconds per profiled step). Today's regions are what the PyTorch
 * profiler traces hold: operators and annotations (trace_op, self time,
 * kind = the event category), collectives (trace_collective, summed
 * duration, kind "collective") and the step itself (trace_step, kind
 * "step"). Only runs that count in statistics (amd_status_ok) are read. */
#ifndef AMD_REGION_TIMES_H
#define AMD_REGION_TIMES_H

#include <stddef.h>

#include "err.h"
#include "store.h"

/* The region name of a trace's whole step (kind "step"). */
#define AMD_REGION_STEP "(step)"

struct amd_region_time {
	char *name, *kind, *strategy; /* strategy "" when unknown */
	int n, repeat, rank;          /* rank -1 when unknown */
	long long trace_id;           /* the trace the row comes from */
	double seconds;               /* per profiled step on this rank */
};

/* Rows of sweep (NULL: every sweep), ordered by strategy, n, repeat,
 * trace. A region a trace lacks has no row there (callers read it as
 * zero time for that trace). */
int amd_store_region_times(struct amd_store *st, const char *sweep,
			   struct amd_region_time **out, size_t *n, struct amd_err *err);
void amd_region_times_free(struct amd_region_time *v, size_t n);

#endif
