/* phase_pairs.h — per run, the Nsight Systems phase split next to the
 * profiler trace's: for every run of a sweep with Nsight phase regions
 * (kind phase, profiler nsys: store regions.h), the share of compute,
 * communication, memory and idle in its devices' window, and the same
 * shares (and other: CPU-only traces split thread time, which may add up
 * past the window) of its Kineto traces' windows, summed over ranks,
 * when it has traces. The report draws them side by side. */
#ifndef AMD_PHASE_PAIRS_H
#define AMD_PHASE_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

#define AMD_PAIR_PHASES 5 /* compute, communication, memory, other, idle */
extern const int amd_pair_phases[AMD_PAIR_PHASES]; /* enum amd_phase of each */

struct amd_phase_pair {
	int64_t run_id;
	char *run;                     /* the run's ext id */
	char *strategy;                /* NULL when unknown */
	int n, repeat;                 /* -1 when unknown */
	double nsys[AMD_PAIR_PHASES];  /* fractions of the Nsight window */
	double trace[AMD_PAIR_PHASES]; /* of the traces' windows; NAN: no traces */
};

/* The pairs of sweep (by id), ordered by strategy, n, repeat. */
int amd_phase_pairs(struct amd_store *st, int64_t sweep_id, struct amd_phase_pair **out,
		    size_t *n, struct amd_err *err);
void amd_phase_pairs_free(struct amd_phase_pair *p, size_t n);

#endif
