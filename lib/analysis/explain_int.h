/* explain_int.h — the private half of explain.h: one run's measurement
 * (explain_run.c: collectives matched across its ranks, each rank's
 * step split into compute, idle, transfer and wait), read by the
 * budget (explain.c). */
#ifndef AMD_EXPLAIN_INT_H
#define AMD_EXPLAIN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "collectives.h"
#include "explain.h"

/* One rank of one run. */
struct expl_rank {
	int rank;
	int64_t last;          /* instances it arrived last at (uniquely) */
	double caused_s;       /* the others' wait at those, rank-s per step */
	double extra_s;        /* sum over those of its gap minus the others' median */
};

/* One run with every rank traced; amounts are rank-seconds per step
 * summed over its ranks. */
struct expl_run {
	const char *strategy;
	int n, repeat;
	double R;              /* the ranks' step times summed */
	double step_s;         /* R / ranks */
	double compute, imbalance, idle, transfer, wait, other; /* after the credit */
	double coll, overlap, transfer_raw, wait_raw;
	int64_t instances, unique_last;
	double skew_s;
	const char *top;       /* the collective with the most transfer (the set's) */
	struct expl_rank *ranks;
	size_t nranks;
};

/* Measures the run whose traces are t[0..k) (one per rank); 0 with r
 * filled, 1 when the run lacks a rank (r untouched), -1 out of memory. */
int expl_run_measure(const struct amd_coll_trace *t, size_t k, struct expl_run *r);
void expl_run_free(struct expl_run *r);

/* Fills each point's compute_growth regions from the region models of
 * `amdahl scaling` for e's sweep (none when it has no models), with o's
 * statistics and region scan when it has them; -1 out of memory. */
int expl_growth_regions(struct amd_store *st, struct amd_explain *e,
			const struct amd_explain_opts *o);

/* The mean spread of arrivals (last start − first start, ns) over the
 * collective instances of t[0..k) (one run's traces) seen on two ranks or
 * more, matched as expl_run_measure matches them; NAN when none. -1 out
 * of memory. */
int expl_arrival_spread(const struct amd_coll_trace *t, size_t k, double *mean_ns);

#endif
