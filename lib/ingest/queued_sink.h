/* queued_sink.h — any format's parse on a thread of its own: the thread
 * parses into a sink that queues what it is given in a bounded
 * rec_queue.h (runs, params, tags, metric points and links copied, their
 * strings interned), and emit replays the queue into the real sink as it
 * fills. Every other fact (a trace summary, a stack, a region, ...) is
 * handed over as a call: the parsing thread waits until emit has made
 * it on the real sink, so its records need no copy and stay the
 * parser's. Reading and parsing thus overlap the store's writing, for
 * every format; the engine decides when (engine_overlap.h). */
#ifndef AMD_QUEUED_SINK_H
#define AMD_QUEUED_SINK_H

#include "ingest.h"

typedef int (*amd_parse_fn)(const struct amd_input *in, struct amd_sink *sink,
			    struct amd_err *err);
/* Starts parse(in) on a thread (in is copied, its stop flag replaced by
 * the state's own; its strings must outlive the state); events: the
 * parse is given a trace_event callback (ingest --events). 0 with
 * *state; -1 when out of memory or no thread could start (the caller
 * then parses on its own thread). */
int amd_queued_start(amd_parse_fn parse, const struct amd_input *in, int events,
		     void **state);
/* Replays the queue into sink until the parse ended: then its result
 * (0, AMD_PARSE_NOTHING or -1 with err), or the sink's -1. */
int amd_queued_emit(void *state, struct amd_sink *sink, struct amd_err *err);
/* Waits until the parse ended, waits in a call for the real sink, or
 * filled the queue (whole), or handed over a first chunk (!whole). 1
 * when it has neither ended nor waits in a call (it still parses, or
 * waits for room), else 0. */
int amd_queued_wait(void *state, int whole);
/* The bytes the queue's records hold (amd_rq_held). */
size_t amd_queued_held(void *state);
/* Stops the parse (its input's stop flag set, the queue stopped), joins
 * its thread and frees everything. NULL is allowed. */
void amd_queued_drop(void *state);

#endif
