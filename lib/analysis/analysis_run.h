/* analysis_run.h — the part of amd_analyse (analysis.h) that looks at one
 * run: which epochs count (warm-up, profiled, NaN), the run's value (the
 * median of those), MAD outlier flags, samples and seconds, the trace
 * shares; and what the parts of amd_analyse share: the options as
 * applied and a run while it is analysed. Energy is analysis_energy.h,
 * the statistics of a configuration and the fits analysis_points.h. */
#ifndef AMD_ANALYSIS_RUN_H
#define AMD_ANALYSIS_RUN_H

#include <stddef.h>

#include "analysis.h"
#include "runs.h"
#include "stats.h"

/* The options with their defaults filled in. */
struct analysis_opts {
	const char *metric, *axis; /* axis NULL: the world size */
	int world; /* --axis n: the world size even where the sweep names an axis */
	int keep_first, keep_profiled;
	double mad_k;
	struct amd_boot boot;
	const struct amd_coll_set *colls; /* amd_analysis_opts' */
};

/* A run while it is analysed. */
struct analysis_run {
	struct amd_run_view *rv;
	struct amd_run_value v;
	double *vals;   /* kept epoch values */
	size_t nvals;
	int ok;         /* counts in statistics */
	double share[AMD_PHASE_COUNT], comm_share, comp_fraction, straggler_ns;
	double op_comp_us, op_total_us; /* itwinai's fraction, pooled per point */
	int has_trace;
	int reads_points; /* its value is read from its points (analysis_run_read_points) */
	size_t ntraces_gpu, ntraces_cpu; /* its traces with device activity, and CPU-only */
};

/* Starts w for the run rv (which must outlive w); -1 out of memory. */
int analysis_run_init(struct analysis_run *w, struct amd_run_view *rv);
/* The run's value on the sweep's axis into *x: with axis NULL its world
 * size (NAN when unknown), else the param axis read as a finite number
 * (NAN when absent or not one). -1 only when the store fails. */
int amd_run_axis_value(struct amd_store *st, const struct amd_run_view *rv, const char *axis,
		       double *x, struct amd_err *err);

/* Its axis value, then (unless it failed or has none) its epochs, value,
 * flags, throughput, energy and trace shares as the server reduced them;
 * w->ok 0 and why in w->v.excluded when it is left out; w->reads_points
 * set when its points must be read instead (analysis_run_read_points).
 * -1 on a store error or out of memory. */
int analysis_run_evaluate(struct amd_store *st, struct analysis_run *w,
			  const struct analysis_opts *o, struct amd_err *err);
/* A run analysis_run_evaluate left to its points: those read, and its
 * value and the rest from them (nothing when w->reads_points is 0). */
int analysis_run_read_points(struct amd_store *st, struct analysis_run *w,
			     const struct analysis_opts *o, struct amd_err *err);
void analysis_run_release(struct analysis_run *w);

/* A deep copy of v into *c; -1 out of memory (nothing to free then). */
int analysis_value_copy(struct amd_run_value *c, const struct amd_run_value *v);
void analysis_value_free(struct amd_run_value *v);

#endif
