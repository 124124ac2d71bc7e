/* trace_agg.h — the streaming aggregator that turns a PyTorch profiler
 * trace's events, one at a time, into the per-rank summary the sink
 * carries (phases, ops, steps, collectives), and itwinai's computation
 * rule. */
#ifndef AMD_TRACE_AGG_H
#define AMD_TRACE_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"

/* One event as the reader saw it; strings need not be NUL-terminated
 * and are copied when kept. Times in ns on the trace's own clock. */
struct amd_trace_event {
	const char *name, *cat, *pid, *tid;
	size_t name_len, cat_len, pid_len, tid_len;
	char ph;
	int has_ts, has_dur;
	int64_t ts, dur;
	/* collective arguments, -1 when absent */
	int64_t in_nelems, out_nelems, msg_bytes;
	int group_size;
	const char *dtype, *coll_name, *pg_name; /* pg_name: "Process Group Name" */
	size_t dtype_len, coll_name_len, pg_name_len;
	/* [memory] instant events (trace_memory.c): INT64_MIN and -2 when absent */
	int64_t mem_bytes, mem_allocated, mem_reserved;
	int mem_device_type, mem_device_id;
	int64_t copy_bytes; /* a memcpy's "bytes", -1 when absent */
};

struct amd_trace_agg;
struct amd_trace_agg *amd_trace_agg_new(void);
void amd_trace_agg_free(struct amd_trace_agg *a);
/* Feeds one element of traceEvents; -1 when out of memory. A time out
 * of trace_time.h's range is not taken: finish then fails. */
int amd_trace_agg_event(struct amd_trace_agg *a, const struct amd_trace_event *e);
/* Finishes: fills s (pointers stay valid until amd_trace_agg_free);
 * base_ns is added to every time (baseTimeNanoseconds, or 0). */
int amd_trace_agg_finish(struct amd_trace_agg *a, int64_t base_ns,
			 struct amd_trace_summary *s);
/* After finish failed: 1 when the cause was a time out of range or a sum
 * of times past int64 nanoseconds (every sum is checked), 0 when it was
 * memory. */
int amd_trace_agg_overflowed(const struct amd_trace_agg *a);
/* After a -1 that was not memory's: why, one line (the temporary file of
 * a thread's innermost-op steps could not be created, written or read:
 * trace_innermost.h); NULL when memory ran out. */
const char *amd_trace_agg_why(const struct amd_trace_agg *a);

/* ingest --events: from now on every device event and collective is also
 * kept in b (trace_events.h; not owned). */
struct amd_trace_evbuf;
void amd_trace_agg_keep_events(struct amd_trace_agg *a, struct amd_trace_evbuf *b);

/* itwinai's name rule for "computation": .*(?:aten|\sat|c10|autograd):: */
int amd_trace_is_itwinai_compute(const char *name);

#endif
