/* runs.h — the run model the analyses see. A logical run is a launch:
 * a top-level run, with any child runs (itwinai's worker_0 (main),
 * worker_1, … tagged mlflow.parentRunId) folded in: strategy and n come
 * from the children when the parent lacks them, and metric queries can
 * include the children's points. Launches with the same name in a sweep
 * are repeats; the repeat number is the logged `repeat` param, else the
 * launch's order by start time. */
#ifndef AMD_RUNS_H
#define AMD_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "run.h"
#include "store.h"

/* How a run's repeats were counted: among runs of its name; for a run
 * without a name (MLflow 1.x Projects runs), among runs of the same
 * entry point, source and params; or not at all (none of the three). */
enum amd_run_grouping { AMD_RUN_NAMED, AMD_RUN_GROUPED, AMD_RUN_UNGROUPED };

struct amd_run_view {
	int64_t id;
	char *sweep, *ext_id, *name, *strategy;
	/* a run without a name: its entry point and program as its reader
	 * reported them (MLflow's tags mlflow.project.entryPoint and
	 * mlflow.source.name; NULL when absent, and for named runs) */
	char *entry_point, *source;
	int grouping; /* enum amd_run_grouping */
	int n, nodes, repeat, status; /* n/nodes 0 when unknown */
	int64_t start_ms, end_ms;
	int children;        /* child worker runs folded in */
	int metrics;         /* metric keys logged (own and children's) */
	int traces;          /* profiler traces linked */
};

struct amd_sweep_view {
	int64_t id;
	char *name;
	int runs, failed, finished;
};

/* Logical runs of sweep (NULL: every sweep), ordered by sweep, strategy,
 * n, repeat. */
int amd_runs_list(struct amd_store *st, const char *sweep, struct amd_run_view **out,
		  size_t *n, struct amd_err *err);
void amd_runs_free(struct amd_run_view *v, size_t n);
/* Frees the strings of one run view (amd_runs_free does it for all). */
void amd_run_view_release(struct amd_run_view *v);
/* A deep copy of src into *dst; -1 out of memory (nothing to release). */
int amd_run_view_copy(struct amd_run_view *dst, const struct amd_run_view *src);

/* What names r to a reader, in buf: its name; for a run without one,
 * "(SOURCE:ENTRY)" as MLflow's UI shows a project run (SOURCE the last
 * part of mlflow.source.name), "(SOURCE)" or "(ENTRY)", else "(no name)". */
const char *amd_run_label(const struct amd_run_view *r, char *buf, size_t len);

/* The one rule `runs` and `stats` share for a run on the world-size
 * axis: NULL when it counts in statistics, else why not — its status
 * when amd_status_ok refuses it, else "no axis value (world size
 * unknown)" when no param gives its world size. */
const char *amd_run_left_out(const struct amd_run_view *r);

/* The tables amd_runs_list, amd_sweeps_list and a selector's run
 * choice (selector.h) read, besides source: a remote store's read for
 * `runs` loads only these (remote.h's amd_location_open_key_sets). Of
 * metric_series they read only which keys each run logged. */
extern const char *const amd_runs_tables[];
extern const size_t amd_runs_table_count;

int amd_sweeps_list(struct amd_store *st, struct amd_sweep_view **out, size_t *n,
		    struct amd_err *err);
void amd_sweeps_free(struct amd_sweep_view *v, size_t n);

/* A sweep name want that none of sw[0..n) has: near gets "; closest:
 * 'a', 'b'" (the names nearest by edit distance) or "". Returns 1 when
 * the error should list the sweeps as well (there are AMD_SWEEPS_FEW or
 * fewer, or none is near), else 0 (a long list would bury the closest). */
#define AMD_SWEEPS_FEW 5
int amd_sweeps_closest(const struct amd_sweep_view *sw, size_t n, const char *want, char *near,
		       size_t size);

struct amd_point {
	int64_t step, ts_ms;
	double value; /* NAN when logged as NaN */
	int rank;     /* the child's rank (0 for the run itself) */
};

/* Points of metric key for logical run id (its own and its children's),
 * ordered by rank, step, then time: metric_points.h's binary search
 * relies on that order (a second backend keeps it). */
int amd_run_metric(struct amd_store *st, int64_t run, const char *key,
		   struct amd_point **out, size_t *n, struct amd_err *err);

/* Param value of a logical run (own, else first child's) in *out,
 * malloc'd, NULL when the run has no such param; -1 on a store error or
 * out of memory. */
int amd_run_param_find(struct amd_store *st, int64_t run, const char *key, char **out,
		       struct amd_err *err);
/* The same for a tag. */
int amd_run_tag_find(struct amd_store *st, int64_t run, const char *key, char **out,
		     struct amd_err *err);

#endif
