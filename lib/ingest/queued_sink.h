/* queued_sink.h — a format's parse on a thread of its own: the thread
 * parses into a sink that queues what it is given (runs, params, tags,
 * metric points, links; strings copied) in a bounded rec_queue.h, and
 * emit replays the queue into the real sink as it fills. Behind a
 * format's read/emit/drop (ingest.h), reading and parsing then overlap
 * the engine's hash of the input first and the store's writing after.
 * Only for formats whose parse calls no other sink callback. */
#ifndef AMD_QUEUED_SINK_H
#define AMD_QUEUED_SINK_H

#include "ingest.h"

typedef int (*amd_parse_fn)(const struct amd_input *in, struct amd_sink *sink,
			    struct amd_err *err);
/* Starts parse(in) on a thread (in is copied; its strings must outlive
 * the state); 0 with *state, -1 out of memory. Without a thread the
 * whole input is parsed here into an unbounded queue. */
int amd_queued_read(amd_parse_fn parse, const struct amd_input *in, void **state,
		    struct amd_err *err);
/* Replays the queue into sink until the parse ended: then its result
 * (0, AMD_PARSE_NOTHING or -1 with err), or the sink's -1. */
int amd_queued_emit(void *state, const struct amd_input *in, struct amd_sink *sink,
		    struct amd_err *err);
/* Waits until the parse ended or filled the queue (amd_rq_wait_full):
 * the parse is then done or far ahead before emit takes the store. */
void amd_queued_wait(void *state);
/* Stops the parse (when it still runs) and frees everything. */
void amd_queued_drop(void *state);

#endif
