/* trace.h — PyTorch profiler trace summaries: the timestamp conversion
 * the reader uses, the streaming aggregator that turns events into a
 * per-rank summary (trace_agg.c), and the store queries behind
 * `amdahl trace show` (store_trace.c). */
#ifndef AMD_TRACE_H
#define AMD_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "ingest/sink.h"
#include "store.h"

/* Microseconds as decimal text (integer, with a fraction, or with an
 * exponent) to int64 nanoseconds, exactly; digits past the nanosecond
 * round half away from zero. -1 on anything that is not a number or
 * does not fit. */
int amd_trace_us_to_ns(const char *s, size_t len, int64_t *out);

/* ---- streaming aggregation (trace_agg.c) ---- */

/* One event as the reader saw it; strings need not be NUL-terminated
 * and are copied when kept. Times in ns on the trace's own clock. */
struct amd_trace_event {
	const char *name, *cat, *pid, *tid;
	size_t name_len, cat_len, pid_len, tid_len;
	char ph;
	int has_ts;
	int64_t ts, dur;
	/* collective arguments, -1 when absent */
	int64_t in_nelems, out_nelems, msg_bytes;
	int group_size;
	const char *dtype, *coll_name;
	size_t dtype_len, coll_name_len;
};

struct amd_trace_agg;
struct amd_trace_agg *amd_trace_agg_new(void);
void amd_trace_agg_free(struct amd_trace_agg *a);
/* Feeds one element of traceEvents; -1 when out of memory. */
int amd_trace_agg_event(struct amd_trace_agg *a, const struct amd_trace_event *e);
/* Finishes: fills s (pointers stay valid until amd_trace_agg_free);
 * base_ns is added to every time (baseTimeNanoseconds, or 0). */
int amd_trace_agg_finish(struct amd_trace_agg *a, int64_t base_ns,
			 struct amd_trace_summary *s);

/* itwinai's name rule for "computation": .*(?:aten|\sat|c10|autograd):: */
int amd_trace_is_itwinai_compute(const char *name);

/* ---- reading (trace_reader.c) ---- */

/* A file's bytes, gunzipped when gzipped, in chunks inflated by a second
 * thread. next() returns the chunk's length (the chunk stays valid until
 * the following call), 0 at the end of the data or on a read error;
 * status() then gives zlib's code (Z_OK: clean end), its message and the
 * offset reached in the compressed file. */
struct amd_chunk_reader;
int amd_chunks_open(const char *path, struct amd_chunk_reader **out, struct amd_err *err);
long amd_chunks_next(struct amd_chunk_reader *r, const unsigned char **data);
int amd_chunks_status(struct amd_chunk_reader *r, const char **msg, long long *raw_offset);
void amd_chunks_close(struct amd_chunk_reader *r);

/* ---- store queries (store_trace.c) ---- */

struct amd_trace_view {
	int64_t id;
	int rank, world_size;     /* -1 unknown */
	char *backend, *device, *path;
	int64_t start_ns, end_ns, events;
	int has_gpu;
	double comp_fraction;     /* NAN when none */
	int64_t phase_ns[AMD_PHASE_COUNT];
};

struct amd_trace_op_view {
	char *name, *cat;
	int64_t count, total_ns, self_ns, min_ns, max_ns;
};

/* The run (by ext id, else by name: the newest launch of that name with
 * traces, else the newest) and its traces,
 * ordered by rank; rank >= 0 keeps that rank only. *run_id 0 when no
 * run matches. */
int amd_trace_list(struct amd_store *st, const char *run, int rank, int64_t *run_id,
		   char **run_label, struct amd_trace_view **out, size_t *n,
		   struct amd_err *err);
void amd_trace_views_free(struct amd_trace_view *v, size_t n);

int amd_trace_steps(struct amd_store *st, int64_t trace_id, struct amd_trace_step **out,
		    size_t *n, struct amd_err *err);
/* Top limit ops by self time (limit <= 0: all). */
int amd_trace_top_ops(struct amd_store *st, int64_t trace_id, int limit,
		      struct amd_trace_op_view **out, size_t *n, struct amd_err *err);
void amd_trace_op_views_free(struct amd_trace_op_view *v, size_t n);

#endif
