/* traces.h — the store queries behind `amdahl trace show`: a run's
 * profiler traces with their phases, steps and top ops. */
#ifndef AMD_STORE_TRACES_H
#define AMD_STORE_TRACES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "records.h"
#include "store.h"

struct amd_trace_view {
	int64_t id;
	int rank, world_size;     /* -1 unknown */
	char *backend, *device, *path;
	int64_t start_ns, end_ns, events;
	int has_gpu;
	double comp_fraction;     /* NAN when none */
	int64_t phase_ns[AMD_PHASE_COUNT];
};

struct amd_trace_op_view {
	char *name, *cat;
	int64_t count, total_ns, self_ns, min_ns, max_ns;
};

/* The run (by ext id, else by name: the newest launch of that name with
 * traces, else the newest) and its traces,
 * ordered by rank; rank >= 0 keeps that rank only. *run_id 0 when no
 * run matches. On failure there is nothing to free. */
int amd_trace_list(struct amd_store *st, const char *run, int rank, int64_t *run_id,
		   char **run_label, struct amd_trace_view **out, size_t *n,
		   struct amd_err *err);
void amd_trace_views_free(struct amd_trace_view *v, size_t n);

int amd_trace_steps(struct amd_store *st, int64_t trace_id, struct amd_trace_step **out,
		    size_t *n, struct amd_err *err);
/* Top limit ops by self time (limit <= 0: all): the trace's regions
 * that carry a detail, but those whose category is one of leave_out
 * (NULL-terminated, or NULL; "" stands for none) — which categories is
 * the reader's to say (trace_ops.h). */
int amd_trace_top_ops(struct amd_store *st, int64_t trace_id, int limit,
		      const char *const *leave_out, struct amd_trace_op_view **out, size_t *n,
		      struct amd_err *err);
void amd_trace_op_views_free(struct amd_trace_op_view *v, size_t n);

#endif
