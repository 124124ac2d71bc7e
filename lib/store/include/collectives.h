/* collectives.h — the store query behind `amdahl explain`
 * (lib/analysis/explain.h): every profiler trace of a sweep's counted
 * runs with its window, phase totals, traced steps and collective calls
 * (table trace_collective: name, process group, sequence number per
 * group and name, absolute start and duration), so that the analysis can match one collective
 * instance across the ranks of a run. */
#ifndef AMD_STORE_COLLECTIVES_H
#define AMD_STORE_COLLECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "phase.h"
#include "store.h"

/* One collective call of one rank (ns since the Unix epoch). */
struct amd_coll_call {
	const char *name;  /* the set's copy */
	const char *group; /* its process group's name (the set's copy); NULL: unknown */
	int64_t seq, start_ns, dur_ns; /* seq: per group and name */
	int group_size;    /* ranks in the group, -1 when unknown */
};

/* One rank's trace of a counted run. */
struct amd_coll_trace {
	int64_t trace_id, run_id;    /* run_id: the logical run (a worker's parent) */
	const char *strategy;        /* "" when unknown; the set's copy */
	const char *run;             /* the logical run's ext id; the set's copy */
	int n, repeat, rank;         /* rank -1 when unknown */
	int has_gpu;
	int64_t start_ns, end_ns;    /* the trace's window */
	int64_t phase_ns[AMD_PHASE_COUNT];
	int64_t nsteps, step_ns;     /* traced steps and their summed duration */
	int64_t steps_from, steps_to; /* the span of the traced steps (0 0: none) */
	struct amd_coll_call *calls; /* by start; points into the set */
	size_t ncalls;
};

/* A logical run's traces in a set: traces[first .. first + n). */
struct amd_coll_run {
	int64_t run_id;
	size_t first, n;
};

struct amd_coll_set {
	struct amd_coll_trace *traces; /* by strategy, n, repeat, run, rank */
	size_t ntraces;
	struct amd_coll_run *runs;     /* each run's traces (together), by run_id */
	size_t nruns;
	struct amd_coll_call *calls;   /* every call, grouped by trace */
	size_t ncalls;
	char **strings;                /* the copies above */
	size_t nstrings;
};

/* The traces of sweep (a sweep's name or a selector, selector.h) with
 * their steps and collectives; runs that do not count in statistics
 * (amd_status_ok) are left out. */
int amd_store_coll_set(struct amd_store *st, const char *sweep, struct amd_coll_set *out,
		       struct amd_err *err);
/* The same for one logical run (its own traces and its workers'), by
 * rank, whatever the run's status, without steps and phases (nsteps 0,
 * phase_ns 0): what stats' arrival spread reads. */
int amd_store_coll_run(struct amd_store *st, int64_t run, struct amd_coll_set *out,
		       struct amd_err *err);
void amd_coll_set_free(struct amd_coll_set *s);
/* The traces of logical run `run` in s (*n of them; 0: none there). */
const struct amd_coll_trace *amd_coll_set_run(const struct amd_coll_set *s, int64_t run,
					      size_t *n);

#endif
