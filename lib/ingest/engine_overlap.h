/* engine_overlap.h — reading a file on a second thread while the engine
 * hashes it: for formats that parse in two steps (amd_format.read/emit),
 * the parse no longer waits for the hash, so ingesting one large trace
 * keeps two cores busy. */
#ifndef AMD_ENGINE_OVERLAP_H
#define AMD_ENGINE_OVERLAP_H

#include "ingest.h"

struct amd_overlap;
/* 0 when AMDAHL_OVERLAP=0 in the environment asks for one thread: no
 * read beside the hash, no parse on a queue's thread, no trace
 * aggregated on a thread of its own (trace_pipe.h); else 1. */
int amd_overlap_allowed(void);
/* Starts f->read(in) on a thread; NULL when f has no read step or no
 * thread could start (the caller then parses on its own thread). in is
 * copied; the strings it points to must outlive the overlap. */
struct amd_overlap *amd_overlap_start(const struct amd_format *f, const struct amd_input *in,
				      int events);
/* The unit is not ingested after all (unchanged, or an error): stops
 * the read soon and frees everything. NULL is allowed. */
void amd_overlap_cancel(struct amd_overlap *o);
/* Before the target takes its write lock: waits for the read to end;
 * for a queued format, when whole_queue, until its parse ended or
 * filled the bounded queue (else emit drains it as it fills: with one
 * worker nobody waits for the lock, and draining early is faster). */
void amd_overlap_wait(struct amd_overlap *o, int whole_queue);
/* Waits for the read, hands its result to sink, frees everything; the
 * read's error (bad input) or the sink's, -1 with err set. */
int amd_overlap_finish(struct amd_overlap *o, struct amd_sink *sink, struct amd_err *err);

#endif
