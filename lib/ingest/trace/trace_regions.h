/* trace_regions.h — a PyTorch profiler (Kineto) trace's regions
 * (lib/model/region.h), as the trace reader reports them: each op of
 * the summary a region of the kind its Kineto category stands for
 * (kernel, memcpy, cuda_api, nvtx, …; any other category an operator;
 * ProfilerStep#N a step), and each collective name its calls, time and
 * bytes added up. Profiler "torch"; the trace's rank. The Kineto
 * category table lives here and nowhere else. */
#ifndef AMD_TRACE_REGIONS_H
#define AMD_TRACE_REGIONS_H

#include "sink.h"

/* The region kind of an op of category cat (NULL: none) named name. */
const char *amd_trace_region_kind(const char *cat, const char *name);

/* Reports the regions of summary s (its rank already set) to the sink;
 * nothing when the sink takes no regions. */
int amd_trace_emit_regions(const struct amd_trace_summary *s, struct amd_sink *sink,
			   const char *path, struct amd_err *err);

#endif
