/* trace_events.h — the device events of one trace kept for
 * `ingest --events` (kernels, memcpys, memsets, collectives): the
 * aggregator hands each to the buffer as it streams by; after the
 * trace's summary went to the sink, the buffer reports them in start
 * order with the trace's base time added (the rank and base time may
 * come after traceEvents, so nothing is reported before the end). */
#ifndef AMD_TRACE_EVENTS_H
#define AMD_TRACE_EVENTS_H

#include <stdint.h>

#include "err.h"
#include "sink.h"
#include "trace_agg.h"

struct amd_trace_evbuf;
struct amd_trace_evbuf *amd_trace_evbuf_new(void);
void amd_trace_evbuf_free(struct amd_trace_evbuf *b);
/* Keeps e as an event of kind; bytes -1 when unknown; device: e's track
 * is a GPU stream (else the event has no stream). -1 out of memory. */
int amd_trace_evbuf_add(struct amd_trace_evbuf *b, const struct amd_trace_event *e,
			enum amd_trace_event_kind kind, int64_t bytes, int device);
/* Reports every kept event to sink->trace_event; -1 with err set. */
int amd_trace_evbuf_emit(struct amd_trace_evbuf *b, int64_t base_ns, struct amd_sink *sink,
			 const char *path, struct amd_err *err);

#endif
