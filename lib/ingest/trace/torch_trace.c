/* torch_trace.c — PyTorch profiler (Kineto) Chrome traces, one file per
 * rank, .json or .json.gz. Streamed: chunks from core/chunks.c (zlib's
 * gzread, in a second thread) go into yajl's incremental parser; each
 * element of traceEvents is handed to the aggregator (trace_agg.c, on a
 * thread of its own: trace_pipe.c)
 * and forgotten. With more than one CPU, traceEvents' content is cut at
 * event boundaries (trace_split.h) and its pieces parsed on every core
 * (trace_par.h), their events handed to the aggregator in file order;
 * the rest of the document is parsed here. Any refusal on that path
 * reads the file again on one thread, so errors say what they always
 * said. ts/dur are read from the number's text (integer µs, µs
 * with a nanosecond fraction) into int64 ns; baseTimeNanoseconds,
 * wherever it appears, is added at the end, so stored times are ns since
 * the Unix epoch for PyTorch 2.x traces. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <yajl/yajl_parse.h>

#include "json_guard.h"

#include "ingest.h"
#include "chunks.h"
#include "trace_time.h"
#include "trace_agg.h"
#include "trace_pipe.h"
#include "trace_par.h"
#include "trace_split.h"
#include "engine_overlap.h"
#include "trace_events.h"
#include "trace_kineto.h"
#include "trace_regions.h"
#include "file.h"
#include "num.h"

#define MAX_DEPTH 64

enum container { C_OTHER, C_ROOT, C_EVENTS, C_EVENT, C_ARGS, C_DIST, C_DEVPROPS, C_DEV };

enum key {
	K_NONE,
	/* root */ K_TRACE_EVENTS, K_DIST, K_DEVPROPS, K_BASE,
	/* event */ K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ARGS,
	/* args */ K_IN_NELEMS, K_OUT_NELEMS, K_MSG_SIZE, K_GROUP, K_DTYPE, K_COLL_NAME, K_PG_NAME,
	/* [memory] args */ K_COPY_BYTES, K_MEM_BYTES, K_MEM_ALLOC, K_MEM_RESERVED, K_MEM_DEVTYPE, K_MEM_DEVID,
	/* distributedInfo */ K_RANK, K_WORLD, K_BACKEND,
	/* deviceProperties[0] */ K_DEVNAME,
};

struct field {
	char *s;
	size_t len, cap;
};

struct reader {
	const char *path;
	struct amd_err *err;
	int failed;
	const char *why; /* what a callback refused */
	char why_buf[160];
	uint64_t n_events; /* events of traceEvents read so far */
	int depth;
	unsigned char stack[MAX_DEPTH];
	enum key key;
	int seen_events, seen_devices;
	int kineto; /* a root key or an event only Kineto writes was seen */
	int foreign; /* read whole, and kineto never set: another profiler's */
	int accel;  /* an event of an accelerator (even with no kernel) */
	/* the event being read */
	struct amd_trace_event ev;
	struct field name, cat, pid, tid, dtype, coll, pg;
	/* file-level facts */
	int64_t base_ns;
	int rank, world;
	char backend[64], device[256];
	struct amd_trace_agg *agg;
	struct amd_trace_pipe *pipe; /* to agg, aggregated on a second thread */
	struct amd_trace_evbuf *events; /* ingest --events, else NULL */
	uint64_t offset; /* uncompressed bytes before the current chunk */
	struct amd_trace_piece *out; /* a worker's: events go here, not to pipe */
	int split;     /* stop at traceEvents' '[' (its content is cut in pieces) */
	int at_events; /* stopped there */
	atomic_int *cancel; /* the engine no longer wants the file, or NULL */
	struct amd_trace_summary summary; /* after the read */
};

static int set_field(struct reader *r, struct field *f, const void *s, size_t n)
{
	if (amd_grow_to(&f->s, n + 1, &f->cap, 1, 64) < 0) {
		r->failed = 1;
		r->why = "out of memory";
		return -1;
	}
	memcpy(f->s, s, n);
	f->s[n] = '\0';
	f->len = n;
	return 0;
}

static enum container top(const struct reader *r)
{
	return r->depth > 0 && r->depth <= MAX_DEPTH ? r->stack[r->depth - 1] : C_OTHER;
}

static int push(struct reader *r, enum container c)
{
	if (r->depth < MAX_DEPTH)
		r->stack[r->depth] = (unsigned char)c;
	r->depth++;
	r->key = K_NONE;
	return 1;
}

static int fail(struct reader *r, const char *what)
{
	r->failed = 1;
	r->why = what;
	return 0;
}

/* Why the aggregator refused an event: memory, or the file of a
 * thread's innermost-op steps (trace_agg.h). */
static const char *agg_why(const struct reader *r)
{
	const char *why = amd_trace_agg_why(r->agg);
	return why ? why : "out of memory";
}

#define KEY_IS(lit) (len == sizeof(lit) - 1 && memcmp(k, lit, len) == 0)

static enum key key_of(enum container c, const unsigned char *k, size_t len)
{
	switch (c) {
	case C_ROOT:
		return KEY_IS("traceEvents") ? K_TRACE_EVENTS : KEY_IS("distributedInfo") ? K_DIST
		     : KEY_IS("deviceProperties") ? K_DEVPROPS
		     : KEY_IS("baseTimeNanoseconds") ? K_BASE : K_NONE;
	case C_EVENT:
		switch (len) {
		case 2: return KEY_IS("ph") ? K_PH : KEY_IS("ts") ? K_TS : K_NONE;
		case 3: return KEY_IS("cat") ? K_CAT : KEY_IS("pid") ? K_PID : KEY_IS("tid") ? K_TID
			     : KEY_IS("dur") ? K_DUR : K_NONE;
		case 4: return KEY_IS("name") ? K_NAME : KEY_IS("args") ? K_ARGS : K_NONE;
		default: return K_NONE;
		}
	case C_ARGS: /* events carry many args: compare only on a length match */
		switch (len) {
		case 5: return KEY_IS("dtype") ? K_DTYPE : KEY_IS("Bytes") ? K_MEM_BYTES
			     : KEY_IS("bytes") ? K_COPY_BYTES : K_NONE;
		case 8: return KEY_IS("Msg Size") ? K_MSG_SIZE : K_NONE;
		case 9: return KEY_IS("Device Id") ? K_MEM_DEVID : K_NONE;
		case 10: return KEY_IS("Group size") ? K_GROUP : K_NONE;
		case 11: return KEY_IS("Device Type") ? K_MEM_DEVTYPE : K_NONE;
		case 13: return KEY_IS("In msg nelems") ? K_IN_NELEMS : K_NONE;
		case 14: return KEY_IS("Out msg nelems") ? K_OUT_NELEMS
			      : KEY_IS("Total Reserved") ? K_MEM_RESERVED : K_NONE;
		case 15: return KEY_IS("Collective name") ? K_COLL_NAME
			      : KEY_IS("Total Allocated") ? K_MEM_ALLOC : K_NONE;
		case 18: return KEY_IS("Process Group Name") ? K_PG_NAME : K_NONE;
		default: return K_NONE;
		}
	case C_DIST:
		return KEY_IS("rank") ? K_RANK : KEY_IS("world_size") ? K_WORLD
		     : KEY_IS("backend") ? K_BACKEND : K_NONE;
	case C_DEV:
		return KEY_IS("name") ? K_DEVNAME : K_NONE;
	default:
		return K_NONE;
	}
}

static int on_key(void *ctx, const unsigned char *k, size_t len)
{
	struct reader *r = ctx;
	if (r->depth == 1 && !r->kineto)
		r->kineto = amd_trace_kineto_root_key((const char *)k, len);
	r->key = key_of(top(r), k, len);
	return 1;
}

static int int_text(const char *s, size_t n, int64_t *out)
{
	char buf[32];
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return amd_parse_int64(buf, out);
}

/* Refuses a time out of the range trace_time.h gives, naming the event
 * (key NULL: the file's baseTimeNanoseconds). */
static int time_in_range(struct reader *r, const char *key, int64_t ns,
			 enum amd_trace_time_kind kind)
{
	const char *why = amd_trace_time_check(ns, kind);
	if (!why)
		return 1;
	if (key)
		snprintf(r->why_buf, sizeof r->why_buf, "event %llu of traceEvents: \"%s\" %s",
			 (unsigned long long)r->n_events + 1, key, why);
	else
		snprintf(r->why_buf, sizeof r->why_buf, "baseTimeNanoseconds %s", why);
	return fail(r, r->why_buf);
}

/* A number or string value (text s[0..n)) under the current key. */
static int scalar(struct reader *r, const char *s, size_t n, int is_string)
{
	enum key k = r->key;
	r->key = K_NONE;
	struct amd_trace_event *e = &r->ev;
	int64_t v;
	switch (k) {
	case K_NONE: return 1;
	case K_PH: e->ph = n ? s[0] : 0; return 1;
	case K_CAT: return set_field(r, &r->cat, s, n) == 0 && (e->cat = r->cat.s, e->cat_len = n, 1);
	case K_NAME: return set_field(r, &r->name, s, n) == 0 && (e->name = r->name.s, e->name_len = n, 1);
	case K_PID: return set_field(r, &r->pid, s, n) == 0 && (e->pid = r->pid.s, e->pid_len = n, 1);
	case K_TID: return set_field(r, &r->tid, s, n) == 0 && (e->tid = r->tid.s, e->tid_len = n, 1);
	case K_TS:
		if (amd_trace_us_to_ns(s, n, &e->ts) < 0)
			return fail(r, "\"ts\" is not a number of microseconds");
		e->has_ts = 1;
		return time_in_range(r, "ts", e->ts, AMD_TRACE_TIMESTAMP);
	case K_DUR:
		if (amd_trace_us_to_ns(s, n, &e->dur) < 0)
			return fail(r, "\"dur\" is not a number of microseconds");
		e->has_dur = 1;
		return time_in_range(r, "dur", e->dur, AMD_TRACE_DURATION);
	case K_IN_NELEMS: if (!is_string && int_text(s, n, &v) == 0) e->in_nelems = v; return 1;
	case K_OUT_NELEMS: if (!is_string && int_text(s, n, &v) == 0) e->out_nelems = v; return 1;
	case K_MSG_SIZE: if (!is_string && int_text(s, n, &v) == 0) e->msg_bytes = v; return 1;
	case K_GROUP: if (!is_string && int_text(s, n, &v) == 0 && v >= 0 && v < 1 << 30)
			e->group_size = (int)v;
		return 1;
	case K_COPY_BYTES: if (!is_string && int_text(s, n, &v) == 0 && v >= 0) e->copy_bytes = v; return 1;
	case K_MEM_BYTES: if (!is_string && int_text(s, n, &v) == 0) e->mem_bytes = v; return 1;
	case K_MEM_ALLOC: if (!is_string && int_text(s, n, &v) == 0) e->mem_allocated = v; return 1;
	case K_MEM_RESERVED: if (!is_string && int_text(s, n, &v) == 0) e->mem_reserved = v; return 1;
	case K_MEM_DEVTYPE: if (!is_string && int_text(s, n, &v) == 0 && v >= 0 && v < 1 << 20)
			e->mem_device_type = (int)v;
		return 1;
	case K_MEM_DEVID: if (!is_string && int_text(s, n, &v) == 0 && v >= -1 && v < 1 << 20)
			e->mem_device_id = (int)v;
		return 1;
	case K_DTYPE: return set_field(r, &r->dtype, s, n) == 0 && (e->dtype = r->dtype.s, e->dtype_len = n, 1);
	case K_COLL_NAME:
		return set_field(r, &r->coll, s, n) == 0 && (e->coll_name = r->coll.s, e->coll_name_len = n, 1);
	case K_PG_NAME: /* PyTorch's record_param_comms (and NCCL kernels since 2.x) */
		if (!is_string)
			return 1;
		return set_field(r, &r->pg, s, n) == 0 && (e->pg_name = r->pg.s, e->pg_name_len = n, 1);
	case K_BASE:
		if (is_string || int_text(s, n, &r->base_ns) < 0)
			return fail(r, "baseTimeNanoseconds is not an integer");
		return time_in_range(r, NULL, r->base_ns, AMD_TRACE_TIMESTAMP);
	case K_RANK: if (!is_string && int_text(s, n, &v) == 0 && v >= 0 && v < 1 << 30) r->rank = (int)v; return 1;
	case K_WORLD: if (!is_string && int_text(s, n, &v) == 0 && v > 0 && v < 1 << 30) r->world = (int)v; return 1;
	case K_BACKEND: if (is_string) snprintf(r->backend, sizeof r->backend, "%.*s", (int)n, s); return 1;
	case K_DEVNAME: if (is_string) snprintf(r->device, sizeof r->device, "%.*s", (int)n, s); return 1;
	case K_TRACE_EVENTS: return fail(r, "traceEvents is not an array");
	default: return 1;
	}
}

static int on_number(void *ctx, const char *s, size_t n)
{
	return scalar(ctx, s, n, 0);
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	return scalar(ctx, (const char *)s, n, 1);
}

/* true, false or null (what: its text) under the current key: refused
 * where a time must be, else ignored. */
static int literal(struct reader *r, const char *what)
{
	if (r->key == K_TRACE_EVENTS)
		return fail(r, "traceEvents is not an array");
	if (r->key == K_TS || r->key == K_DUR) {
		snprintf(r->why_buf, sizeof r->why_buf,
			 "event %llu of traceEvents: \"%s\" is %s, not a number of microseconds",
			 (unsigned long long)r->n_events + 1, r->key == K_TS ? "ts" : "dur", what);
		return fail(r, r->why_buf);
	}
	r->key = K_NONE;
	return 1;
}

static int on_bool(void *ctx, int b)
{
	return literal(ctx, b ? "true" : "false");
}

static int on_null(void *ctx)
{
	return literal(ctx, "null");
}

static void event_reset(struct reader *r)
{
	memset(&r->ev, 0, sizeof r->ev);
	r->ev.in_nelems = r->ev.out_nelems = r->ev.msg_bytes = r->ev.copy_bytes = -1;
	r->ev.group_size = -1;
	r->ev.mem_bytes = r->ev.mem_allocated = r->ev.mem_reserved = INT64_MIN;
	r->ev.mem_device_type = r->ev.mem_device_id = -2;
}

static int on_start_map(void *ctx)
{
	struct reader *r = ctx;
	enum container c = top(r), next = C_OTHER;
	if (r->depth == 0)
		next = C_ROOT;
	else if (c == C_EVENTS) {
		event_reset(r);
		next = C_EVENT;
	} else if (c == C_EVENT && r->key == K_ARGS)
		next = C_ARGS;
	else if (c == C_ROOT && r->key == K_DIST)
		next = C_DIST;
	else if (c == C_DEVPROPS && !r->seen_devices++)
		next = C_DEV;
	else if (c == C_ROOT && r->key == K_TRACE_EVENTS)
		return fail(r, "traceEvents is not an array");
	return push(r, next);
}

static int on_end_map(void *ctx)
{
	struct reader *r = ctx;
	enum container c = top(r);
	r->depth--;
	r->key = K_NONE;
	if (c == C_EVENT && r->ev.ph == 'X' && (!r->ev.has_ts || !r->ev.has_dur)) {
		/* a complete event is its start and length: without one its time is not known */
		snprintf(r->why_buf, sizeof r->why_buf,
			 "event %llu of traceEvents: a complete (\"ph\": \"X\") event without \"%s\"",
			 (unsigned long long)r->n_events + 1, r->ev.has_ts ? "dur" : "ts");
		return fail(r, r->why_buf);
	}
	if (c == C_EVENT && !r->kineto)
		r->kineto = amd_trace_kineto_event(r->ev.cat, r->ev.cat_len, r->ev.name,
						   r->ev.name_len);
	if (c == C_EVENT && !r->accel)
		r->accel = amd_trace_accelerator_cat(r->ev.cat, r->ev.cat_len);
	if (c == C_EVENT && (r->out ? amd_trace_evlist_put(&r->out->events, &r->ev)
				    : amd_trace_pipe_event(r->pipe, &r->ev)) < 0)
		return fail(r, r->out ? "out of memory" : agg_why(r));
	r->n_events += c == C_EVENT;
	return 1;
}

static int on_start_array(void *ctx)
{
	struct reader *r = ctx;
	enum container c = top(r), next = C_OTHER;
	if (r->depth == 0)
		return fail(r, "a bare JSON array (py-spy's chrometrace?), not a PyTorch profiler trace");
	if (c == C_ROOT && r->key == K_TRACE_EVENTS) {
		next = C_EVENTS;
		r->seen_events = 1;
		if (r->split) { /* the content goes to the workers: stop here */
			r->at_events = 1;
			push(r, next);
			return 0;
		}
	} else if (c == C_ROOT && r->key == K_DEVPROPS)
		next = C_DEVPROPS;
	return push(r, next);
}

static int on_end_array(void *ctx)
{
	struct reader *r = ctx;
	r->depth--;
	r->key = K_NONE;
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

/* yajl's message, first line only, after "PATH: byte N: ". */
static int yajl_failure(struct reader *r, yajl_handle h, uint64_t at)
{
	if (r->failed) /* a callback refused: its reason, with the place */
		return amd_fail(r->err, "%s: byte %llu: %s", r->path, (unsigned long long)at, r->why);
	unsigned char *m = yajl_get_error(h, 0, NULL, 0);
	char msg[256];
	snprintf(msg, sizeof msg, "%s", m ? (const char *)m : "parse error");
	yajl_free_error(h, m);
	msg[strcspn(msg, "\n")] = '\0';
	if (strstr(msg, "premature EOF"))
		return amd_fail(r->err, "%s: byte %llu: truncated JSON (input ends inside the document)",
				r->path, (unsigned long long)at);
	return amd_fail(r->err, "%s: byte %llu: invalid JSON: %s", r->path,
			(unsigned long long)at, msg);
}

/* After the data ended: 0 when it ended cleanly, else the error. */
static int gz_failure(struct reader *r, struct amd_chunk_reader *cr, uint64_t at)
{
	const char *m;
	long long raw;
	int code = amd_chunks_status(cr, &m, &raw);
	if (code == Z_OK || code == Z_STREAM_END)
		return 0;
	if (code == Z_BUF_ERROR)
		return amd_fail(r->err, "%s: byte %llu of the unzipped data (%lld of the file): "
				"truncated gzip stream", r->path, (unsigned long long)at, raw);
	if (code == Z_ERRNO)
		return amd_fail(r->err, "%s: byte %llu: %s", r->path, (unsigned long long)at, m);
	return amd_fail(r->err, "%s: byte %llu of the unzipped data (%lld of the file): "
			"corrupt gzip data: %s", r->path, (unsigned long long)at, raw, m);
}

/* Streams the whole file through yajl into r->agg. */
/* A whole Chrome trace without one mark of Kineto: not a PyTorch trace
 * (AMD_PARSE_FOREIGN once read_trace has freed r). */
static int foreign(struct reader *r)
{
	r->foreign = 1;
	return amd_fail(r->err, "%s: a Chrome trace from another profiler (TensorFlow, JAX,"
			" perfetto, Chrome?): no key or event category of PyTorch's"
			" profiler (Kineto)", r->path);
}

static int read_stream(struct reader *r)
{
	struct amd_chunk_reader *cr;
	if (amd_chunks_open(r->path, &cr, r->err) < 0)
		return -1;
	yajl_handle h = yajl_alloc(&callbacks, NULL, r);
	int rc = 0;
	if (!h) {
		rc = amd_fail(r->err, "%s: out of memory", r->path);
		goto out;
	}
	yajl_config(h, yajl_dont_validate_strings, 1);
	const unsigned char *chunk;
	long n;
	struct amd_json_guard guard;
	amd_json_guard_init(&guard, AMD_JSON_TOKEN_MAX);
	while ((n = amd_chunks_next(cr, &chunk)) > 0) {
		size_t at;
		if (r->offset == 0) /* offsets count the file's bytes, a mark included */
			r->offset = amd_chunks_skipped(cr);
		if (r->cancel && atomic_load_explicit(r->cancel, memory_order_relaxed)) {
			rc = amd_fail(r->err, "%s: byte %llu: reading cancelled", r->path,
				      (unsigned long long)r->offset);
			goto out;
		}
		if (amd_json_guard_scan(&guard, chunk, (size_t)n, &at) < 0) {
			rc = amd_fail(r->err, "%s: byte %llu: %s longer than %u MiB", r->path,
				      (unsigned long long)(r->offset + at),
				      amd_json_guard_what(&guard, chunk, at), AMD_JSON_TOKEN_MAX >> 20);
			goto out;
		}
		if (yajl_parse(h, chunk, (size_t)n) != yajl_status_ok) {
			rc = yajl_failure(r, h, r->offset + yajl_get_bytes_consumed(h));
			goto out;
		}
		r->offset += (uint64_t)n;
	}
	if (gz_failure(r, cr, r->offset) < 0)
		rc = -1;
	else if (r->offset == 0)
		rc = amd_fail(r->err, "%s: byte 0: empty file", r->path);
	else if (yajl_complete_parse(h) != yajl_status_ok)
		rc = yajl_failure(r, h, r->offset);
	else if (!r->seen_events)
		rc = amd_fail(r->err, "%s: byte %llu: no traceEvents array in the document",
			      r->path, (unsigned long long)r->offset);
	else if (!r->kineto)
		rc = foreign(r);
out:
	if (h)
		yajl_free(h);
	amd_chunks_close(cr);
	return rc;
}

/* ---- traceEvents on every core (trace_split.h, trace_par.h) ---- */

#define PIECE_BYTES ((size_t)2 << 20)
enum { PAR_OK = 0, PAR_SERIAL = 1 };

/* Bytes of traceEvents' content per piece: AMDAHL_TRACE_PIECE (tests cut
 * small traces into many pieces) or 2 MiB. */
static size_t piece_bytes(void)
{
	const char *env = getenv("AMDAHL_TRACE_PIECE");
	long long v = env && *env ? strtoll(env, NULL, 10) : 0;
	return v > 0 ? (size_t)v : PIECE_BYTES;
}

static void fields_free(struct reader *r)
{
	free(r->name.s);
	free(r->cat.s);
	free(r->pid.s);
	free(r->tid.s);
	free(r->dtype.s);
	free(r->coll.s);
	free(r->pg.s);
}

/* A worker's parse of one piece: the piece in [ ] under the root's
 * traceEvents key, by the callbacks above, its events into the piece. */
static void parse_piece(void *ctx, struct amd_trace_piece *pc)
{
	struct reader *w = calloc(1, sizeof *w);
	yajl_handle h = w ? yajl_alloc(&callbacks, NULL, w) : NULL;
	pc->blank = amd_json_split_blank(pc->buf, pc->len);
	pc->failed = 1;
	if (h) {
		*w = (struct reader){.path = ctx, .rank = -1, .world = -1, .out = pc,
				     .depth = 1, .key = K_TRACE_EVENTS};
		w->stack[0] = C_ROOT;
		yajl_config(h, yajl_dont_validate_strings, 1);
		pc->failed = yajl_parse(h, (const unsigned char *)"[", 1) != yajl_status_ok ||
			     yajl_parse(h, pc->buf, pc->len) != yajl_status_ok ||
			     yajl_parse(h, (const unsigned char *)"]", 1) != yajl_status_ok ||
			     yajl_complete_parse(h) != yajl_status_ok || w->failed;
		pc->n_events = w->n_events;
		pc->kineto = w->kineto;
		pc->accel = w->accel;
		fields_free(w);
	}
	if (h)
		yajl_free(h);
	free(w);
}

struct split_run {
	struct reader *r;
	struct amd_trace_par *par;
	struct amd_trace_piece *cur; /* being filled */
	struct amd_json_split scan;
	size_t piece_bytes;
	uint64_t queued; /* pieces handed to the workers */
	int phase;       /* 0 the document's head, 1 traceEvents' content, 2 the rest */
	int any_blank, failed;
};

/* A parsed piece's events into the aggregator, in file order, on this
 * thread (the pipe has carried nothing yet: the array's content comes
 * before any event it could hold). */
static void take(struct split_run *s, struct amd_trace_piece *pc)
{
	struct reader *r = s->r;
	if (pc->failed || s->failed || amd_trace_evlist_replay(&pc->events, r->agg) < 0)
		s->failed = 1;
	r->n_events += pc->n_events;
	r->kineto |= pc->kineto;
	r->accel |= pc->accel;
	s->any_blank |= pc->blank;
	pc->events.n = pc->events.used = 0;
}

/* Takes the oldest queued piece; 0 when none was queued. */
static int take_oldest(struct split_run *s)
{
	struct amd_trace_piece *pc = amd_trace_par_oldest(s->par);
	if (!pc)
		return 0;
	take(s, pc);
	amd_trace_par_release(s->par, pc);
	return 1;
}

/* A free piece, taking the oldest back while none is free. */
static struct amd_trace_piece *free_piece(struct split_run *s)
{
	struct amd_trace_piece *pc;
	while (!(pc = amd_trace_par_piece(s->par)))
		if (!take_oldest(s))
			return NULL;
	return pc;
}

/* Content bytes p[0..n) into the current piece; once the piece holds
 * piece_bytes it is cut at this buffer's last comma and queued. Returns
 * where the array ended in p (n when it goes on). */
static size_t split_feed(struct split_run *s, const unsigned char *p, size_t n)
{
	size_t comma, stop = amd_json_split_scan(&s->scan, p, n, &comma);
	if (amd_trace_piece_append(s->cur, p, stop) < 0) {
		s->failed = 1;
		return stop;
	}
	if (comma == AMD_SPLIT_NONE || s->cur->len < s->piece_bytes)
		return stop;
	size_t at = s->cur->len - stop + comma;
	struct amd_trace_piece *next = free_piece(s);
	if (!next || amd_trace_piece_append(next, s->cur->buf + at + 1, s->cur->len - at - 1) < 0 ||
	    (s->cur->len = at, amd_trace_par_submit(s->par, s->cur)) < 0) {
		s->failed = 1;
		return stop;
	}
	s->cur = next;
	s->queued++;
	return stop;
}

/* The array ended: the last piece parsed (here, when it is the only one)
 * and every piece taken back. -1 when a piece was refused, or a piece is
 * blank among several (trace_split.h). */
static int split_end(struct split_run *s)
{
	if (s->queued == 0) { /* a small trace: no thread started */
		parse_piece((void *)s->r->path, s->cur);
		take(s, s->cur);
	} else if (amd_trace_par_submit(s->par, s->cur) < 0) {
		s->failed = 1;
	} else {
		s->queued++;
		while (take_oldest(s))
			;
	}
	amd_trace_par_release(s->par, s->cur);
	s->cur = NULL;
	return s->failed || (s->queued > 1 && s->any_blank) ? -1 : 0;
}

/* A second yajl handle, inside traceEvents as the first one stopped:
 * the document's rest is parsed from the array's closing bracket on. */
static int resume(struct split_run *s, yajl_handle *h)
{
	struct reader *r = s->r;
	static const char head[] = "{\"traceEvents\":[";
	yajl_free(*h);
	*h = yajl_alloc(&callbacks, NULL, r);
	if (!*h)
		return -1;
	yajl_config(*h, yajl_dont_validate_strings, 1);
	r->split = 0;
	r->depth = 0;
	r->key = K_NONE;
	return yajl_parse(*h, (const unsigned char *)head, sizeof head - 1) == yajl_status_ok ? 0 : -1;
}

/* One chunk through the phases: the document's head by yajl up to
 * traceEvents' '[', the content into pieces, the rest by a second
 * handle. -1 when anything was refused. */
static int split_step(struct split_run *s, yajl_handle *h, const unsigned char *p, size_t n)
{
	struct reader *r = s->r;
	if (s->phase == 0) {
		if (yajl_parse(*h, p, n) == yajl_status_ok)
			return 0;
		if (!r->at_events || r->failed)
			return -1;
		size_t used = yajl_get_bytes_consumed(*h);
		p += used;
		n -= used;
		s->phase = 1;
	}
	if (s->phase == 1) {
		size_t stop = split_feed(s, p, n);
		if (s->failed)
			return -1;
		if (stop == n)
			return 0;
		if (split_end(s) < 0 || resume(s, h) < 0)
			return -1;
		p += stop;
		n -= stop;
		s->phase = 2;
	}
	return yajl_parse(*h, p, n) == yajl_status_ok ? 0 : -1;
}

/* After the data ended: 1 when the document is whole and a trace. */
static int split_whole(struct split_run *s, yajl_handle h, struct amd_chunk_reader *cr)
{
	const char *m;
	long long raw;
	int code = amd_chunks_status(cr, &m, &raw);
	return (code == Z_OK || code == Z_STREAM_END) && s->r->offset > 0 && s->phase == 2 &&
	       yajl_complete_parse(h) == yajl_status_ok && s->r->seen_events;
}

/* The whole file with traceEvents' content parsed on `workers` threads
 * into r->agg. PAR_SERIAL when anything was refused (the caller reads
 * the file again on one thread, for the error one thread gives); -1 when
 * the file cannot be opened, reading was cancelled, or the trace is not
 * Kineto's. */
static int read_parallel(struct reader *r, int workers)
{
	struct amd_chunk_reader *cr;
	if (amd_chunks_open(r->path, &cr, r->err) < 0)
		return -1;
	struct split_run s = {.r = r, .piece_bytes = piece_bytes()};
	s.par = amd_trace_par_new(workers, parse_piece, (void *)r->path);
	s.cur = s.par ? amd_trace_par_piece(s.par) : NULL;
	yajl_handle h = yajl_alloc(&callbacks, NULL, r);
	int rc = PAR_SERIAL;
	if (!s.cur || !h)
		goto out;
	yajl_config(h, yajl_dont_validate_strings, 1);
	r->split = 1;
	struct amd_json_guard guard;
	amd_json_guard_init(&guard, AMD_JSON_TOKEN_MAX);
	const unsigned char *chunk;
	long n;
	while ((n = amd_chunks_next(cr, &chunk)) > 0) {
		size_t at;
		if (r->offset == 0) /* offsets count the file's bytes, a mark included */
			r->offset = amd_chunks_skipped(cr);
		if (r->cancel && atomic_load_explicit(r->cancel, memory_order_relaxed)) {
			rc = amd_fail(r->err, "%s: byte %llu: reading cancelled", r->path,
				      (unsigned long long)r->offset);
			goto out;
		}
		if (amd_json_guard_scan(&guard, chunk, (size_t)n, &at) < 0 ||
		    split_step(&s, &h, chunk, (size_t)n) < 0)
			goto out;
		r->offset += (uint64_t)n;
	}
	if (!split_whole(&s, h, cr))
		goto out;
	rc = r->kineto ? PAR_OK : foreign(r);
out:
	if (h)
		yajl_free(h);
	amd_trace_par_free(s.par);
	amd_chunks_close(cr);
	return rc;
}

/* Rank from a file name: rank3., _rank3, rank_3, worker_3., worker3_ … */
static int rank_from_name(const char *path)
{
	const char *b = amd_basename(path);
	static const char *const words[] = {"rank", "worker", NULL};
	for (size_t w = 0; words[w]; w++) {
		size_t wl = strlen(words[w]);
		for (const char *p = strstr(b, words[w]); p; p = strstr(p + 1, words[w])) {
			const char *d = p + wl;
			if (*d == '_' || *d == '-')
				d++;
			if (*d < '0' || *d > '9')
				continue;
			long v = 0;
			while (*d >= '0' && *d <= '9' && v < 1 << 24)
				v = v * 10 + (*d++ - '0');
			if (*d < '0' || *d > '9')
				return (int)v;
		}
	}
	return -1;
}

static void reader_free(struct reader *r)
{
	fields_free(r);
	amd_trace_pipe_free(r->pipe);
	amd_trace_agg_free(r->agg);
	amd_trace_evbuf_free(r->events);
	free(r);
}

static void drop(void *state)
{
	reader_free(state);
}

/* The whole file through yajl and the aggregator into a reader holding
 * the summary; the sink is not touched until the file is read (the
 * engine's stop flag, in->stop, is checked per chunk meanwhile). */
static struct reader *reader_new(const struct amd_input *in, int events, atomic_int *cancel,
				 struct amd_err *err)
{
	struct reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	*r = (struct reader){.path = in->path, .err = err, .rank = -1, .world = -1,
			     .cancel = cancel};
	r->agg = amd_trace_agg_new();
	r->pipe = r->agg ? amd_trace_pipe_new(r->agg) : NULL;
	r->events = events ? amd_trace_evbuf_new() : NULL;
	if (!r->pipe || (events && !r->events)) {
		reader_free(r);
		return NULL;
	}
	if (r->events)
		amd_trace_agg_keep_events(r->agg, r->events);
	return r;
}

static int read_trace(const struct amd_input *in, int events, atomic_int *cancel,
		      void **state, struct amd_err *err)
{
	struct reader *r = reader_new(in, events, cancel, err);
	if (!r)
		return amd_fail(err, "%s: out of memory", in->path);
	int workers = amd_overlap_allowed() ? amd_trace_par_workers(in->path) : 1;
	int rc = workers > 1 ? read_parallel(r, workers) : PAR_SERIAL;
	if (rc == PAR_SERIAL && workers > 1) { /* again, on one thread */
		reader_free(r);
		if (!(r = reader_new(in, events, cancel, err)))
			return amd_fail(err, "%s: out of memory", in->path);
	}
	if (rc == PAR_SERIAL)
		rc = read_stream(r);
	if (rc == 0 && amd_trace_pipe_finish(r->pipe) < 0)
		rc = amd_fail(err, "%s: %s", in->path, agg_why(r));
	if (rc == 0 && amd_trace_agg_finish(r->agg, r->base_ns, &r->summary) < 0)
		rc = amd_trace_agg_overflowed(r->agg)
			     ? amd_fail(err, "%s: byte %llu (end of traceEvents): the events' "
					     "durations add up past int64 nanoseconds",
					in->path, (unsigned long long)r->offset)
			     : amd_fail(err, "%s: %s", in->path, agg_why(r));
	if (rc < 0) {
		int foreign = r->foreign;
		reader_free(r);
		return foreign ? AMD_PARSE_FOREIGN : -1;
	}
	r->err = NULL; /* the caller's, valid only during this call */
	*state = r;
	return 0;
}

/* The summary, its regions (trace_regions.h) and with --events the
 * device events to the sink. */
static int emit(void *state, const struct amd_input *in, struct amd_sink *sink,
		struct amd_err *err)
{
	struct reader *r = state;
	struct amd_trace_summary *s = &r->summary;
	s->rank = r->rank >= 0 ? r->rank : rank_from_name(in->path);
	if (s->rank < 0)
		s->rank = in->rank_hint;
	s->world_size = r->world;
	s->backend = r->backend[0] ? r->backend : NULL;
	/* deviceProperties lists the machine's GPUs even when training ran
	 * on CPU cores: name the device only when the trace used it (kernels,
	 * or runtime calls and profiler ranges without kernels: CUPTI's
	 * range profiler, MTIA) */
	s->device = !s->has_gpu && !r->accel ? "cpu" : r->device[0] ? r->device : NULL;
	if (sink->link &&
	    sink->link(sink, in->run_ext_hint, in->run_name_hint, in->sweep_hint, err) < 0)
		return -1;
	if ((sink->trace && sink->trace(sink, s, err) < 0) ||
	    amd_trace_emit_regions(s, sink, in->path, err) < 0)
		return -1;
	if (r->events && sink->trace_event &&
	    amd_trace_evbuf_emit(r->events, r->base_ns, sink, in->path, err) < 0)
		return -1;
	return 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	void *state = NULL;
	int read = read_trace(in, sink->trace_event != NULL, in->stop, &state, err);
	if (read != 0)
		return read;
	int rc = emit(state, in, sink, err);
	drop(state);
	return rc;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Kineto traces are a JSON object with traceEvents and Kineto's own keys
 * (schemaVersion, deviceProperties, distributedInfo, baseTimeNanoseconds).
 * A bare array, or traceEvents alone, may be py-spy's chrometrace: low.
 * An object whose first bytes name neither (a wrapper's large "metadata"
 * first) is read on at its top level until one appears. */
static int detect(const char *path, const unsigned char *head, size_t n)
{
	size_t i = 0; /* (a byte-order mark is not in the head: text16.h) */
	while (i < n && strchr(" \t\r\n", head[i]))
		i++;
	int named = ends_with(path, ".pt.trace.json") || ends_with(path, ".pt.trace.json.gz");
	if (n == 0) /* an empty .json: claimed, so the error says what is wrong */
		return named ? 10 : ends_with(path, ".json") || ends_with(path, ".json.gz") ? 1 : 0;
	if (i == n || head[i] != '{')
		return named && (i == n || head[i] != '[') ? 10 : 0;
	const char *h = (const char *)head;
	int events = memmem(h, n, "\"traceEvents\"", 13) != NULL;
	int kineto = memmem(h, n, "\"deviceProperties\"", 18) || memmem(h, n, "\"distributedInfo\"", 17) ||
		     memmem(h, n, "\"baseTimeNanoseconds\"", 21);
	int schema = memmem(h, n, "\"schemaVersion\"", 15) != NULL;
	if (kineto || (schema && events))
		return 90;
	if (schema)
		return named ? 60 : 40;
	if (events)
		return named ? 60 : 30;
	if (n == AMD_HEAD_BYTES) { /* more than the head: read the top level on */
		int top = amd_trace_scan_top(path);
		if (top != 0)
			return top < 0 ? -1 : top == 2 ? 90 : named ? 60 : 30;
	}
	return named ? 10 : 0;
}

const struct amd_format amd_fmt_torch_trace = {
	.name = "torch-trace",
	.variants = "PyTorch profiler (Kineto) traces, torch 1.8-2.x, .json[.gz]; wrapped with other top-level keys first (metadata); other Chrome traces (TensorFlow, JAX, perfetto) refused",
	.detect = detect,
	.parse = parse,
};
