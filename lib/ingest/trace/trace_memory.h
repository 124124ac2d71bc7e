/* trace_memory.h — the [memory] instant events of a PyTorch profiler
 * trace recorded with profile_memory=True, per device: the peaks and a
 * bounded timeline (trace_memory.c). The aggregator (trace_agg.c) hands
 * every instant event here. */
#ifndef AMD_TRACE_MEMORY_H
#define AMD_TRACE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"
#include "trace_agg.h"

/* At most this many timeline samples per device are kept. */
#define AMD_MEM_SAMPLES_MAX 1024

struct amd_trace_memory;
struct amd_trace_memory *amd_trace_memory_new(void);
void amd_trace_memory_free(struct amd_trace_memory *m);
/* Takes an instant event: a [memory] one is counted; -1 out of memory. */
int amd_trace_memory_event(struct amd_trace_memory *m, const struct amd_trace_event *e);
/* The devices seen, by type and id, times shifted by base_ns; valid
 * until amd_trace_memory_free. -1 out of memory. */
int amd_trace_memory_finish(struct amd_trace_memory *m, int64_t base_ns,
			    const struct amd_trace_memdev **out, size_t *n);

#endif
