/* engine_overlap.h — the engine's one decision on threads: once the
 * hash shows the target lacks a unit, its parse (whatever its format)
 * runs on a thread of its own, its facts queued for the unit's writer as
 * they come (queued_sink.h), so parsing overlaps writing; a unit the
 * target holds is never parsed. The format table says nothing of
 * threads. AMDAHL_OVERLAP=0 keeps one thread: the engine then parses
 * into the target's sink itself. (Until issue 32 a trace was read while
 * hashed, and an unchanged one's read cancelled: a parse that reads all
 * before its first fact would be read whole before it could stop.) */
#ifndef AMD_ENGINE_OVERLAP_H
#define AMD_ENGINE_OVERLAP_H

#include "ingest.h"

struct amd_overlap;
/* 0 when AMDAHL_OVERLAP=0 in the environment asks for one thread: no
 * parse beside the hash, no trace aggregated on a thread of its own
 * (trace_pipe.h); else 1. */
int amd_overlap_allowed(void);
/* Starts f->parse(in) on a thread; NULL when the engine parses on its
 * own thread instead (one thread asked for, or no thread could start).
 * in is copied; the strings it points to must outlive the overlap.
 * events: the parse may report device events (ingest --events). */
struct amd_overlap *amd_overlap_start(const struct amd_format *f, const struct amd_input *in,
				      int events);
/* The unit is not written after all (its batch could not begin): stops
 * the parse soon and frees everything. NULL is allowed. */
void amd_overlap_cancel(struct amd_overlap *o);
/* Before the target takes its write lock: waits until the parse ended
 * or waits for the sink, or (whole_queue) filled its bounded queue, or
 * (else) handed over its first facts, which emit drains as they come:
 * with one worker nobody waits for the lock. 1 when the parse still
 * runs then (its queue holds memory until it is written), else 0. */
int amd_overlap_wait(struct amd_overlap *o, int whole_queue);
/* The bytes its queued facts hold until it is written (0 for NULL). */
size_t amd_overlap_held(const struct amd_overlap *o);
/* Hands the parse's facts to sink as they come until it ended, frees
 * everything; the parse's result (bad input: -1 with err, or
 * AMD_PARSE_NOTHING) or the sink's -1. */
int amd_overlap_finish(struct amd_overlap *o, struct amd_sink *sink, struct amd_err *err);

#endif
