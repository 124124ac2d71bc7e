/* trace_par.h — traceEvents on every core: pieces of the array's content
 * (cut at event boundaries by trace_split.h) parsed by worker threads,
 * each into a list of its own events, the lists handed back in file
 * order, so the aggregator sees the events in the order one thread would
 * have given them (the merge is the concatenation of the lists). The
 * reader's thread aggregates them itself: its pipe (trace_pipe.h) then
 * only carries what follows the array, after every piece. */
#ifndef AMD_TRACE_PAR_H
#define AMD_TRACE_PAR_H

#include <stdint.h>

#include "trace_agg.h"
#include "trace_evlist.h"

/* A piece of traceEvents' content and what its parse found. */
struct amd_trace_piece {
	unsigned char *buf;
	size_t len, cap;
	struct amd_trace_evlist events;
	uint64_t n_events;
	int kineto, accel; /* as torch_trace.c's reader flags */
	int blank;         /* the piece is white space only (trace_split.h) */
	int failed;        /* yajl or the reader refused it */
};
/* Appends p[0..n) to the piece's bytes; -1 when out of memory. */
int amd_trace_piece_append(struct amd_trace_piece *pc, const unsigned char *p, size_t n);

typedef void (*amd_trace_piece_fn)(void *ctx, struct amd_trace_piece *pc);

struct amd_trace_par;
/* A pool of nworkers threads (started at the first submit) running fn on
 * each piece; NULL when out of memory. */
struct amd_trace_par *amd_trace_par_new(int nworkers, amd_trace_piece_fn fn, void *ctx);
/* An empty piece to fill, or NULL when all are in flight (take the
 * oldest, then ask again). */
struct amd_trace_piece *amd_trace_par_piece(struct amd_trace_par *p);
/* Queues a filled piece for a worker; -1 when no worker could start. */
int amd_trace_par_submit(struct amd_trace_par *p, struct amd_trace_piece *pc);
/* The oldest piece queued, once parsed; NULL when none is queued. */
struct amd_trace_piece *amd_trace_par_oldest(struct amd_trace_par *p);
/* Gives a piece (its events taken) back to the pool. */
void amd_trace_par_release(struct amd_trace_par *p, struct amd_trace_piece *pc);
/* Stops the workers and frees everything. NULL is allowed. */
void amd_trace_par_free(struct amd_trace_par *p);

/* Below this many bytes of JSON a trace is parsed on one thread: the
 * 7.9 MB H100 trace (0.56 MB gzip) took 127 ms of CPU and 0.36 s of wall
 * with 2 workers against 102 ms and 0.30 s on one thread, and still
 * lost at 63 MB (bench/startup.sh, docs/design.md "Performance, round
 * five"): starting threads, touching fresh piece buffers and handing
 * pieces over cost more than the second core gives back. */
#define AMD_TRACE_PAR_MIN_BYTES ((uint64_t)64 << 20)

/* Threads for the trace at path: AMDAHL_TRACE_WORKERS when set, else 1
 * when its JSON is under AMD_TRACE_PAR_MIN_BYTES
 * (amd_trace_json_bytes), else the CPUs this process may run on
 * (sched_getaffinity, so taskset counts), at most 16; 1 means parse on
 * the reader's thread alone. */
int amd_trace_par_workers(const char *path);

/* The bytes of JSON in the file at path, from what it says without
 * reading it: its size, or for a gzip file the size its trailer records
 * (ISIZE, modulo 2^32) when larger; 0 when it cannot be read. */
uint64_t amd_trace_json_bytes(const char *path);

#endif
