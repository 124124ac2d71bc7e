/* region.h — the one shape every profiler's "where the time went" takes
 * (docs/design.md, "Regions"): a region is a named place — an operator,
 * a CUDA kernel, a collective, a Python function, an NVTX range, a CUDA
 * API call, a memory copy — of one kind, reported by one profiler, with
 * per run and rank its calls, self and total time and bytes. Every
 * reader reports its own regions through the sink (sink.h) — the trace
 * reader its ops by Kineto category and its collectives
 * (lib/ingest/trace/trace_regions.c), the py-spy readers their functions
 * (pyspy_funcs.c), itwinai and key_averages their operators, cProfile,
 * Nsight and the rest theirs; the store derives none. */
#ifndef AMD_MODEL_REGION_H
#define AMD_MODEL_REGION_H

#include <stdint.h>

/* The kinds a region may have (stored as text; these are the names). */
#define AMD_REGION_OP "op"                 /* a framework operator (host time) */
#define AMD_REGION_OP_DEVICE "op_device"   /* an operator's device time: the
					      kernels it launched (key_averages) */
#define AMD_REGION_KERNEL "kernel"         /* a GPU kernel */
#define AMD_REGION_MEMCPY "memcpy"         /* a device memory copy */
#define AMD_REGION_MEMSET "memset"         /* a device memory set */
#define AMD_REGION_COLLECTIVE "collective" /* a communication collective */
#define AMD_REGION_FUNCTION "function"     /* a Python function */
#define AMD_REGION_NVTX "nvtx"             /* an NVTX or user annotation range */
#define AMD_REGION_STEP "step"             /* a training step or the profiled span
					      (ProfilerStep#N, the profiler's own range) */
#define AMD_REGION_API "cuda_api"          /* a CUDA runtime or driver call */
#define AMD_REGION_PHASE "phase"           /* a device's time in one phase
					      (phase.h); overlap has total
					      time only, not being self time */
#define AMD_REGION_DEVICE "device"         /* a GPU by name: self = busy,
					      total = the profiled window */

/* What a trace says of a region beyond the common shape: its own word
 * for the region's class (Kineto's event category; NULL when none), its
 * shortest and longest call, and its place among the trace's ops (the
 * order the trace first names them in, from 1), which orders equals in a
 * listing. `trace show` lists a trace's regions that carry one as the
 * trace's ops. */
struct amd_region_detail {
	const char *category;
	int64_t min_ns, max_ns;
	int64_t seq;
};

/* One region of one rank. Numbers the source lacks are -1. */
struct amd_region_rec {
	const char *name, *kind;
	const char *profiler;  /* who measured it: "cprofile", "nsys", ... */
	const char *file;      /* where it is defined, NULL when unknown */
	int line;              /* 0 when unknown */
	int rank;              /* -1 when unknown */
	int device;            /* GPU index, -1 for none or unknown */
	int64_t key;           /* > 0: the unit's own id of the region, which
				  parent_key and calls (struct amd_region_call)
				  refer to; 0 when nothing refers to it */
	int64_t parent_key;    /* 0: no parent */
	int64_t calls, prim_calls; /* prim_calls: calls not made recursively */
	int64_t self_ns, total_ns;
	int64_t bytes;
	const struct amd_region_detail *detail; /* NULL: none */
};

/* A caller edge (cProfile): how much of callee's time came through
 * calls from caller. Keys are those of regions of the same unit. */
struct amd_region_call {
	int64_t caller_key, callee_key;
	int64_t calls, prim_calls, self_ns, total_ns;
};

#endif
