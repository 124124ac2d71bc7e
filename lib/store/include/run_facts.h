/* run_facts.h — the store queries behind amd_analyse beyond the run
 * model (runs.h): a sweep's declared axis, profiler windows, trace phase
 * totals, itwinai's operator averages and memory per device (the
 * collectives' arrival spread: collectives.h), each for one logical run (its own rows and its child workers'). */
#ifndef AMD_RUN_FACTS_H
#define AMD_RUN_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "phase.h"
#include "records.h"
#include "store.h"

/* The sweep's axis column in *out (malloc'd), NULL when it has none;
 * -1 on a store error or out of memory. */
int amd_store_sweep_axis(struct amd_store *st, const char *sweep, char **out,
			 struct amd_err *err);

/* One profiler trace of a logical run: its window in absolute ns since
 * the Unix epoch (0 when unknown) and its phase totals. */
struct amd_trace_row {
	int64_t id;
	int rank;
	int64_t start_ns, end_ns;
	int64_t phase_ns[AMD_PHASE_COUNT];
	int has_phases;
	double comp_fraction; /* NAN when the trace gave none */
	int has_gpu;          /* the trace has device (GPU) activity */
};

int amd_store_run_traces(struct amd_store *st, int64_t run, struct amd_trace_row **out,
			 size_t *n, struct amd_err *err);

/* itwinai's computation fraction from op_average rows of the run (all
 * ranks): *comp = sum of self_cuda_us over the ops the reader called
 * compute ops (AMD_OP_COMPUTE), *total = the sum over all rows except
 * the enclosing ones (AMD_OP_ENCLOSING). Both NAN without rows. */
int amd_store_run_op_fraction(struct amd_store *st, int64_t run, double *comp,
			      double *total, struct amd_err *err);

/* Memory per device of one trace of a logical run (profile_memory=True;
 * bytes, -1 when unknown). */
struct amd_mem_row {
	int64_t trace_id;
	int rank;                  /* -1 when the trace names none */
	int device_type, device_id, from_totals;
	int64_t peak_allocated, peak_reserved;
};

/* The run's memory rows, by rank, device type and id. */
int amd_store_run_memory(struct amd_store *st, int64_t run, struct amd_mem_row **out,
			 size_t *n, struct amd_err *err);
/* The timeline of one device of one trace, by time. */
int amd_store_memory_samples(struct amd_store *st, int64_t trace_id, int device_type,
			     int device_id, struct amd_mem_sample **out, size_t *n,
			     struct amd_err *err);

#endif
