/* trace_kineto.h — telling a PyTorch profiler (Kineto) trace from other
 * Chrome traces (TensorFlow, JAX, perfetto, Chrome itself): by the root
 * keys only Kineto writes and by its event categories and names; and,
 * for detection, reading a JSON object's top-level keys past the first
 * bytes (tools that wrap a trace put large keys before traceEvents). */
#ifndef AMD_TRACE_KINETO_H
#define AMD_TRACE_KINETO_H

#include <stddef.h>

/* 1 when a root key is one only Kineto writes: schemaVersion,
 * deviceProperties, distributedInfo, baseTimeNanoseconds. */
int amd_trace_kineto_root_key(const char *key, size_t len);

/* 1 when an event's category (cpu_op, kernel, cuda_runtime, …, or the
 * 2021 Operator/Runtime/Kernel/Memcpy/Memset) or name (ProfilerStep#N,
 * "PyTorch Profiler (0)") is Kineto's. */
int amd_trace_kineto_event(const char *cat, size_t cat_len, const char *name,
			   size_t name_len);

/* 1 when an event's category says an accelerator was used even if no
 * kernel was recorded: CUDA runtime/driver calls, a CUPTI range-profiler
 * session (cuda_profiler_range), MTIA, HIP, XPU, HPU, GPU events. */
int amd_trace_accelerator_cat(const char *cat, size_t cat_len);

/* What the top level of the JSON object in the file at path (plain or
 * gzipped) holds, read until it says, at most AMD_TRACE_SCAN_MAX bytes:
 * 2 a Kineto root key, 1 traceEvents (before any Kineto key), 0 neither
 * (or not a JSON object), -1 out of memory. */
#define AMD_TRACE_SCAN_MAX ((size_t)256 << 20)
int amd_trace_scan_top(const char *path);

#endif
