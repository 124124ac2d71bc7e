/* records.h — the facts parsers produce besides runs: a profiler trace's
 * per-rank summary (phases, ops, steps, collectives), a py-spy stack with
 * its samples, an nvidia-smi sample. Parsers fill them, the sink carries
 * them, the store keeps them. */
#ifndef AMD_MODEL_RECORDS_H
#define AMD_MODEL_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "phase.h"

struct amd_trace_op {
	const char *name, *cat;
	int64_t count, total_ns, self_ns, min_ns, max_ns;
};

struct amd_trace_step {
	int64_t step, start_ns, dur_ns;
};

struct amd_trace_coll {
	const char *name;
	const char *group; /* the process group's name ("Process Group Name"); NULL when unknown */
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
	const struct amd_trace_op *ops; /* the aggregator's per-op totals; the
					   trace reader reports each as a region
					   (the store keeps them so, not here) */
	size_t n_ops;
	const struct amd_trace_step *steps;
	size_t n_steps;
	const struct amd_trace_coll *colls;
	size_t n_colls;
	const struct amd_trace_memdev *memory; /* profile_memory=True traces */
	size_t n_memory;
};

/* One device event of a trace, for `ingest --events`: a GPU kernel,
 * memcpy or memset, or a collective (an nccl* kernel, or a host-side
 * collective call). seq numbers the trace's events of the same name in
 * start order (the n-th all-reduce kernel of every rank has the same
 * seq); bytes -1 when unknown. Times in ns with the trace's base added,
 * as the summary's. */
enum amd_trace_event_kind {
	AMD_EVENT_KERNEL, AMD_EVENT_MEMCPY, AMD_EVENT_MEMSET, AMD_EVENT_COLLECTIVE,
};
struct amd_trace_event_rec {
	enum amd_trace_event_kind kind;
	const char *name;
	int64_t stream; /* -1 when the track names none */
	int64_t seq, start_ns, dur_ns, bytes;
};

/* One sample of a device's memory timeline (bytes; -1 when unknown). */
struct amd_mem_sample {
	int64_t ts_ns, allocated, reserved;
};

/* A device's memory in one trace, from the [memory] instant events of a
 * trace recorded with profile_memory=True. */
struct amd_trace_memdev {
	int device_type;  /* Kineto's Device Type: 0 CPU, 1 CUDA, … */
	int device_id;    /* -1 for the CPU */
	int from_totals;  /* 1: Total Allocated (2024+); 0: the running sum of
			   * Bytes from the trace's start (2021 format) */
	int64_t peak_allocated, peak_reserved; /* reserved -1 when unknown */
	int64_t events;
	const struct amd_mem_sample *samples;  /* bounded: the timeline */
	size_t n_samples;
};

struct amd_stack_frame {
	const char *name, *file; /* file NULL when unknown */
	int line;                /* 0 when unknown */
	/* The reader's number for this frame (1, 2, ...): within one unit's
	 * stacks, frames with the same id have the same name, file and line,
	 * so a sink may remember what it made of a frame by its id and skip
	 * reading its texts again. 0: not numbered (read the texts). */
	uint32_t id;
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

#endif
