/* sink.h — the one interface every input parser feeds. A parser never
 * touches the store: it reports runs, params, metrics, trace summaries,
 * stacks and GPU samples to a sink. The store's sink (store_sink.c)
 * writes them inside the unit's transaction; tests and fuzzers use
 * counting sinks. A NULL callback means "ignore this kind of fact". */
#ifndef AMD_SINK_H
#define AMD_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* MLflow run statuses, as the file store numbers them. */
enum amd_run_status {
	AMD_STATUS_UNKNOWN = 0,
	AMD_STATUS_RUNNING = 1,
	AMD_STATUS_SCHEDULED = 2,
	AMD_STATUS_FINISHED = 3,
	AMD_STATUS_FAILED = 4,
	AMD_STATUS_KILLED = 5,
};

struct amd_run_rec {
	const char *ext_id;        /* required: MLflow run id or a derived id */
	const char *name;          /* run name, NULL if unknown */
	const char *sweep;         /* experiment name, NULL if unknown */
	const char *sweep_ext_id;  /* experiment id */
	const char *parent_ext_id; /* mlflow.parentRunId, or NULL */
	int status;                /* enum amd_run_status */
	int64_t start_ms, end_ms;  /* 0 when unknown */
};

/* Phases of a rank's time (DESIGN §4). OVERLAP is communication time
 * that ran concurrently with compute; it is not part of the sum. */
enum amd_phase {
	AMD_PHASE_COMPUTE,
	AMD_PHASE_COMM,
	AMD_PHASE_MEMORY,
	AMD_PHASE_IDLE,
	AMD_PHASE_OTHER,
	AMD_PHASE_OVERLAP,
	AMD_PHASE_COUNT
};
extern const char *const amd_phase_names[AMD_PHASE_COUNT];

struct amd_trace_op {
	const char *name, *cat;
	int64_t count, total_ns, self_ns, min_ns, max_ns;
};

struct amd_trace_step {
	int64_t step, start_ns, dur_ns;
};

struct amd_trace_coll {
	const char *name;
	int64_t seq, start_ns, dur_ns, bytes;
	int group_size;
};

struct amd_trace_summary {
	int rank, world_size;         /* -1 when unknown */
	const char *backend, *device; /* NULL when unknown */
	int64_t start_ns, end_ns, events;
	int has_gpu;
	double comp_fraction;         /* itwinai's computation fraction, NAN if none */
	int64_t phase_ns[AMD_PHASE_COUNT];
	const struct amd_trace_op *ops;
	size_t n_ops;
	const struct amd_trace_step *steps;
	size_t n_steps;
	const struct amd_trace_coll *colls;
	size_t n_colls;
};

struct amd_stack_frame {
	const char *name, *file; /* file NULL when unknown */
	int line;                /* 0 when unknown */
};

struct amd_stack_rec {
	const struct amd_stack_frame *frames; /* root first */
	size_t depth;
	const char *process, *thread; /* NULL when unknown */
	int64_t samples;
	double seconds; /* thread-seconds these samples stand for */
};

struct amd_gpu_sample {
	int gpu;
	int64_t ts_ms;
	double util_pct, mem_util_pct, power_w, mem_used_mib, temp_c; /* NAN: absent */
};

struct amd_sink {
	void *ctx;
	/* Starts (or updates) a run; param/tag/metric calls that follow
	 * belong to it. */
	int (*run)(struct amd_sink *s, const struct amd_run_rec *r, struct amd_err *err);
	int (*param)(struct amd_sink *s, const char *key, const char *value,
		     struct amd_err *err);
	int (*tag)(struct amd_sink *s, const char *key, const char *value,
		   struct amd_err *err);
	int (*metric)(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		      double value, struct amd_err *err);
	/* Names the run (by ext id, else by name within sweep) that later
	 * trace/op_average/gpu/stack facts belong to; creates a placeholder
	 * run when it is not ingested yet. All NULL: facts of no run. */
	int (*link)(struct amd_sink *s, const char *ext_id, const char *name,
		    const char *sweep, struct amd_err *err);
	int (*trace)(struct amd_sink *s, const struct amd_trace_summary *t,
		     struct amd_err *err);
	int (*op_average)(struct amd_sink *s, const char *name, int rank,
			  double self_cuda_us, double cuda_total_us, int64_t calls,
			  struct amd_err *err);
	int (*gpu_sample)(struct amd_sink *s, const struct amd_gpu_sample *g,
			  struct amd_err *err);
	int (*stack)(struct amd_sink *s, const struct amd_stack_rec *r,
		     struct amd_err *err);
};

#endif
