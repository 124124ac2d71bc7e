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

struct amd_region_share; /* regions.h */

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
 * runs it picks, selector.h), ordered by strategy, n, repeat, run (its
 * ext_id), trace (its file's path, rank) — never by row ids, so that a
 * store's order of ingest (ingest -j N) changes no sum, fit or output. A region a trace lacks has no row there (callers read it as
 * zero time for that trace). */
int amd_store_region_times(struct amd_store *st, const char *sweep,
			   struct amd_region_time **out, size_t *n, struct amd_err *err);
void amd_region_times_free(struct amd_region_time *v);

/* A trace that has rows, with its overlap factor: its step's seconds
 * over the sum of its other rows' (added in the rows' order), 1 when
 * either is 0. */
struct amd_region_trace {
	const char *strategy;         /* the rows' copy */
	int n, repeat;
	long long run_id, trace_id;
	double overlap;
};

/* The rows of amd_store_region_times and their traces, both in that
 * order. rows is one allocation with the strings (traces point there
 * too). */
struct amd_region_set {
	struct amd_region_time *rows;
	size_t nrows;
	struct amd_region_trace *traces;
	size_t ntraces;
};

/* 1 when a strategy's observations are its runs: some n has more than
 * above traces and every n at least two runs. t[0..n): one strategy's
 * traces in order (strategy, n, repeat, run, trace). */
int amd_region_runs_rule(const struct amd_region_trace *t, size_t n, size_t above);

/* amd_store_region_times with the traces. per_run_above > 0: each
 * strategy whose traces meet amd_region_runs_rule(per_run_above) has one
 * row per run and region instead of one per trace and region: seconds
 * the sum over the run's traces, in order, of each trace's seconds (the
 * additions, in the order, a caller summing the per-trace rows makes),
 * trace_id the run's first trace, rank -1 — millions of rows fewer in
 * a big sweep.
 * share: NULL, or regions.h's amd_region_share whose sweep list read
 * these rows already. */
int amd_store_region_set(struct amd_store *st, const char *sweep, size_t per_run_above,
			 struct amd_region_share *share, struct amd_region_set *out,
			 struct amd_err *err);
void amd_region_set_free(struct amd_region_set *s);

#endif
