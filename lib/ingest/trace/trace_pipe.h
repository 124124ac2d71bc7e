/* trace_pipe.h — the aggregator (trace_agg.h) on a thread of its own:
 * the reader's thread copies each event into a batch and goes on
 * tokenizing while the previous batches are aggregated, in file order.
 * The thread starts after the first 8,192 events (a small trace is
 * aggregated on the reader's thread); AMDAHL_OVERLAP=0 keeps it off. */
#ifndef AMD_TRACE_PIPE_H
#define AMD_TRACE_PIPE_H

#include "trace_agg.h"

struct amd_trace_pipe;

/* A pipe into agg (not owned), or NULL when out of memory. */
struct amd_trace_pipe *amd_trace_pipe_new(struct amd_trace_agg *agg);
/* Hands one event on (its strings are copied); -1 when out of memory
 * here or in the aggregator. */
int amd_trace_pipe_event(struct amd_trace_pipe *p, const struct amd_trace_event *e);
/* Waits until every event handed on is aggregated; -1 as above. */
int amd_trace_pipe_finish(struct amd_trace_pipe *p);
/* Stops the thread (events not yet aggregated are dropped) and frees. */
void amd_trace_pipe_free(struct amd_trace_pipe *p);

#endif
