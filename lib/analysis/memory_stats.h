/* memory_stats.h — memory per GPU over a sweep (memory_stats.c): per
 * configuration the peak a run's GPUs reached, from traces recorded with
 * profile_memory=True or, for runs without such traces, from a logged
 * max_memory_allocated metric; and one rank's memory timeline. FSDP
 * exists to shrink the first number, so it sits next to speedup. */
#ifndef AMD_MEMORY_STATS_H
#define AMD_MEMORY_STATS_H

#include <stddef.h>

#include "analysis.h"
#include "err.h"
#include "records.h"
#include "store.h"

struct amd_memory_point {
	const char *strategy; /* the sweep's (borrowed) */
	double n;             /* the axis value */
	size_t nruns;         /* runs with a memory figure */
	/* over those runs, of each run's largest per-device peak (bytes;
	 * NAN when none): the median, least and most */
	double allocated, lo, hi;
	struct amd_ci ci;     /* percentile-bootstrap interval of that median */
	size_t nreserved;     /* runs with a peak reserved figure */
	double reserved;      /* median of the runs' peak reserved, NAN if unknown */
	struct amd_ci reserved_ci;
};

struct amd_memory_stats {
	struct amd_memory_point *v; /* by strategy, then axis value */
	size_t n;
	int any;             /* some point has a figure */
	int gpu;             /* 1: GPU devices (CUDA); 0: CPU memory only */
	int from_metric;     /* some run's figure came from a logged metric */
	int running_sum;     /* some trace had only Bytes (2021 format) */
	double level;        /* the intervals' level (the sweep's) */
	/* the timeline: the lowest rank's device of one run at the largest
	 * axis value of the first strategy with traced memory */
	char run[128];
	int rank;
	double tl_n;
	struct amd_mem_sample *tl;
	size_t ntl;
};

int amd_memory_stats(struct amd_store *st, const struct amd_sweep_stats *s,
		     struct amd_memory_stats *out, struct amd_err *err);
void amd_memory_stats_free(struct amd_memory_stats *m);

#endif
