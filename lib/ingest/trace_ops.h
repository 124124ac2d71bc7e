/* trace_ops.h — what the trace reader (lib/ingest/trace/) says to those
 * who list a trace's ops: its ops are stored as regions with a detail
 * (lib/model/region.h: Kineto's category, shortest and longest call),
 * and the regions of these categories span other events — the
 * profiler's own window, GPU-side copies of annotations, holding no
 * nested events — so their "self" time is their whole length and a
 * listing by self time (`amdahl trace show`) leaves them out. Defined
 * with the Kineto category table in trace/trace_regions.c. */
#ifndef AMD_TRACE_OPS_H
#define AMD_TRACE_OPS_H

/* NULL-terminated. */
extern const char *const amd_trace_spanning_cats[];

#endif
