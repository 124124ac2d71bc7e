/* trace_evlist.h — a list of trace events with their strings copied into
 * one text buffer: how events cross from one thread to another (the
 * pipe's batches, trace_pipe.h; the worker pool's pieces, trace_par.h)
 * and are handed, in order, to the aggregator. */
#ifndef AMD_TRACE_EVLIST_H
#define AMD_TRACE_EVLIST_H

#include <stddef.h>

#include "trace_agg.h"

/* Events with their strings copied into one text buffer. */
struct amd_trace_evlist {
	struct amd_trace_event *ev;
	size_t n, cap;
	char *text;
	size_t used, text_cap;
};
/* Appends e (strings copied); -1 when out of memory. */
int amd_trace_evlist_put(struct amd_trace_evlist *l, const struct amd_trace_event *e);
/* Hands every event of l to agg, in order; l is then empty. -1 when the
 * aggregator refused one (the rest are dropped). */
int amd_trace_evlist_replay(struct amd_trace_evlist *l, struct amd_trace_agg *agg);
/* Empties l, keeping its memory. */
void amd_trace_evlist_clear(struct amd_trace_evlist *l);
void amd_trace_evlist_free(struct amd_trace_evlist *l);

#endif
