/* trace_agg.c — the streaming half of trace ingest: events in, one
 * rank's summary out (trace_agg.h). Memory holds the per-op aggregates
 * (keyed by name and category), per-track reorder windows and open-interval
 * stacks, the step list and the collective calls — never the events.
 *
 * Rules (mirrored by tests/oracle/trace_oracle.py):
 * - Events of one track (pid, tid, lane) are taken in (start, longer
 *   first, file order) order. Kineto writes runtime calls (cuda_runtime,
 *   cuda_driver) in a second pass and GPU annotations apart from kernels,
 *   so those are lanes of their own; a bounded reorder window per track repairs the
 *   small disorder that remains.
 * - Self time = duration minus the (clipped) durations of the direct
 *   children on the same track, never below zero; on a CPU thread also
 *   minus the runtime calls (the 'r' lane) made inside it and not inside
 *   one of its children: each top-level call is charged to the op
 *   innermost on its thread while it ran (trace_innermost.h).
 * - GPU phases: over all kernel/memcpy/memset intervals (taken in start
 *   order), wall time where a compute kernel runs is compute (and also
 *   overlap when a communication kernel runs with it), else
 *   communication (nccl*), else memory (Memcpy/Memset); idle is the window
 *   minus those.
 * - CPU-only phases, in thread-time: compute = top-level aten:: ops of
 *   each thread, communication = top-level collectives (record_param_comms,
 *   gloo:*, nccl:*), other = window minus both (not below zero). */
#include "trace_agg.h"
#include "trace_events.h"
#include "trace_innermost.h"
#include "trace_strtab.h"
#include "trace_time.h"
#include "trace_memory.h"
#include "buf.h"
#include "gpu_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#define LANE_REORDER 32768 /* events a track may hold back for reordering */
#define GPU_REORDER 65536

enum { OPF_ATEN = 1, OPF_COMM = 2, OPF_DEVICE = 4, OPF_STEP = 8, OPF_TRACE = 16,
       OPF_ITWINAI = 32, OPF_GPU_ANNOT = 64, OPF_RUNTIME = 128 };

struct op {
	uint32_t name, cat;
	unsigned flags;
	int64_t count, total, self, min, max;
};

struct hev {
	int64_t start, end;
	uint64_t seq;
	uint32_t op;
};

struct window {
	struct hev *v;
	size_t head, n, cap; /* v[head .. head+n) sorted */
	struct hev *late;    /* min-heap of events that came late */
	size_t n_late, cap_late;
};

struct open_iv {
	int64_t start, end, child;
	uint32_t op;
	unsigned in_aten : 1, in_comm : 1;
};

struct track {
	struct window pending;
	struct open_iv *stack;
	size_t depth, cap;
	char lane;                   /* 'h' host/stream, 'r' runtime, 'g' GPU annotations */
	long host;                   /* 'r': index + 1 of the thread's 'h' track */
	struct amd_innermost inner;  /* 'h': the innermost CPU op over time */
};

struct coll {
	uint32_t name, pg; /* pg: the process group's name, 0 when unknown */
	int on_gpu, group;
	int64_t start, dur, bytes;
};

struct amd_trace_agg {
	struct amd_strtab names, tracks_by_key;
	struct op *ops;
	size_t n_ops, cap_ops;
	uint32_t *op_slots; /* hash of (name, cat) -> op index + 1 */
	size_t n_op_slots;
	struct track *tracks;
	size_t n_tracks, cap_tracks;
	struct window gpu;
	struct amd_gpu_sweep sweep;
	int64_t cpu_aten, cpu_comm;
	int overflow; /* a time out of range, or a sum past int64 */
	int64_t events, win_start, win_end;
	int has_window, has_gpu;
	uint64_t seq;
	struct amd_trace_step *steps;
	size_t n_steps, cap_steps;
	struct coll *colls;
	size_t n_colls, cap_colls;
	/* finish() output */
	struct amd_trace_op *out_ops;
	struct amd_trace_coll *out_colls;
	char *keybuf, *last_key; /* track key of this and of the last event */
	size_t keycap, last_cap, last_len;
	long last_track;
	struct amd_trace_memory *memory; /* [memory] events (trace_memory.c) */
	struct amd_trace_evbuf *evbuf;   /* ingest --events (trace_events.c), or NULL */
	size_t spill_steps; /* AMDAHL_TRACE_SPILL: innermost steps a block, 0 the default */
	char why[256];      /* a failure not of memory (the innermost steps' file), or "" */
};

static int has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int amd_trace_is_itwinai_compute(const char *name)
{
	if (strstr(name, "aten::") || strstr(name, "c10::") || strstr(name, "autograd::"))
		return 1;
	for (const char *p = strstr(name, "at::"); p; p = strstr(p + 1, "at::"))
		if (p > name && strchr(" \t\n\r\f\v", p[-1]))
			return 1;
	return 0;
}

static int cat_is(const char *cat, const char *const *names)
{
	for (; cat && *names; names++)
		if (strcasecmp(cat, *names) == 0)
			return 1;
	return 0;
}

static const char *const device_cats[] = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy",
					  "memset", NULL};
static const char *const memory_cats[] = {"gpu_memcpy", "gpu_memset", "memcpy", "memset", NULL};
static const char *const runtime_cats[] = {"cuda_runtime", "cuda_driver", "runtime", "driver",
					   NULL};

static unsigned op_flags(const char *name, const char *cat)
{
	unsigned f = 0;
	if (has_prefix(name, "aten::"))
		f |= OPF_ATEN;
	if (strcmp(name, "record_param_comms") == 0 || has_prefix(name, "gloo:") ||
	    has_prefix(name, "nccl:"))
		f |= OPF_COMM;
	if (cat_is(cat, device_cats))
		f |= OPF_DEVICE;
	if (cat_is(cat, runtime_cats))
		f |= OPF_RUNTIME;
	if (cat && strcasecmp(cat, "gpu_user_annotation") == 0)
		f |= OPF_GPU_ANNOT;
	if (has_prefix(name, "ProfilerStep"))
		f |= OPF_STEP;
	if (cat && strcmp(cat, "Trace") == 0)
		f |= OPF_TRACE;
	if (amd_trace_is_itwinai_compute(name))
		f |= OPF_ITWINAI;
	return f;
}

static int op_rehash(struct amd_trace_agg *a)
{
	size_t ns = a->n_op_slots ? a->n_op_slots * 2 : 1024;
	uint32_t *sl = calloc(ns, sizeof *sl);
	if (!sl)
		return -1;
	for (size_t i = 0; i < a->n_ops; i++) {
		size_t h = (a->ops[i].name * 2654435761u ^ a->ops[i].cat * 40503u) & (ns - 1);
		while (sl[h])
			h = (h + 1) & (ns - 1);
		sl[h] = (uint32_t)i + 1;
	}
	free(a->op_slots);
	a->op_slots = sl;
	a->n_op_slots = ns;
	return 0;
}

/* Index of the (name, cat) aggregate, creating it; -1 when out of memory. */
static long op_index(struct amd_trace_agg *a, uint32_t name, uint32_t cat)
{
	if (2 * (a->n_ops + 1) > a->n_op_slots && op_rehash(a) < 0)
		return -1;
	size_t mask = a->n_op_slots - 1;
	size_t h = (name * 2654435761u ^ cat * 40503u) & mask;
	for (uint32_t i; (i = a->op_slots[h]); h = (h + 1) & mask)
		if (a->ops[i - 1].name == name && a->ops[i - 1].cat == cat)
			return (long)i - 1;
	if (amd_grow_to(&a->ops, a->n_ops + 1, &a->cap_ops, sizeof *a->ops, 16) < 0)
		return -1;
	struct op *o = &a->ops[a->n_ops];
	memset(o, 0, sizeof *o);
	o->name = name;
	o->cat = cat;
	o->flags = op_flags(a->names.s[name], cat ? a->names.s[cat] : NULL);
	o->min = INT64_MAX;
	a->op_slots[h] = (uint32_t)a->n_ops + 1;
	return (long)a->n_ops++;
}

/* ---- reorder windows: events taken out in (start, longer first, file
 * order) order. Events nearly always arrive in order and are appended to
 * a sorted run; the few that arrive late wait in a small min-heap. ---- */

static int hev_less(const struct hev *x, const struct hev *y)
{
	if (x->start != y->start)
		return x->start < y->start;
	if (x->end != y->end)
		return x->end > y->end;
	return x->seq < y->seq;
}

static int late_push(struct window *w, const struct hev *e)
{
	if (amd_grow_to(&w->late, w->n_late + 1, &w->cap_late, sizeof *w->late, 16) < 0)
		return -1;
	size_t i = w->n_late++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!hev_less(e, &w->late[p]))
			break;
		w->late[i] = w->late[p];
		i = p;
	}
	w->late[i] = *e;
	return 0;
}

static struct hev late_pop(struct window *w)
{
	struct hev top = w->late[0], last = w->late[--w->n_late];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= w->n_late)
			break;
		if (c + 1 < w->n_late && hev_less(&w->late[c + 1], &w->late[c]))
			c++;
		if (!hev_less(&w->late[c], &last))
			break;
		w->late[i] = w->late[c];
		i = c;
	}
	if (w->n_late)
		w->late[i] = last;
	return top;
}

static int window_push(struct window *w, const struct hev *e)
{
	if (w->n && hev_less(e, &w->v[w->head + w->n - 1]))
		return late_push(w, e);
	if (w->head + w->n == w->cap) {
		if (w->head > 0 && w->head >= w->n) {
			memcpy(w->v, w->v + w->head, w->n * sizeof *w->v);
			w->head = 0;
		} else if (amd_grow_to(&w->v, w->cap + 1, &w->cap, sizeof *w->v, 16) < 0)
			return -1;
	}
	w->v[w->head + w->n++] = *e;
	return 0;
}

static size_t window_size(const struct window *w)
{
	return w->n + w->n_late;
}

/* The event window_pop would give (the window is not empty). */
static const struct hev *window_first(const struct window *w)
{
	if (w->n_late && (!w->n || hev_less(&w->late[0], &w->v[w->head])))
		return &w->late[0];
	return &w->v[w->head];
}

static struct hev window_pop(struct window *w)
{
	if (w->n_late && (!w->n || hev_less(&w->late[0], &w->v[w->head])))
		return late_pop(w);
	struct hev e = w->v[w->head++];
	if (--w->n == 0)
		w->head = 0;
	return e;
}

/* x + y, or INT64_MAX with a->overflow set when the sum does not fit:
 * every sum of times goes through here. */
static int64_t add_ns(struct amd_trace_agg *a, int64_t x, int64_t y)
{
	int64_t r;
	if (__builtin_add_overflow(x, y, &r)) {
		a->overflow = 1;
		return INT64_MAX;
	}
	return r;
}

/* ---- nesting on one track ---- */

/* On a CPU thread's 'h' track, notes that op (index + 1; 0: none) is
 * innermost from t on. */
/* -1 after the innermost steps of t failed: their file's failure kept. */
static int innermost_failed(struct amd_trace_agg *a, const struct track *t)
{
	if (t->inner.sys_errno && !a->why[0])
		snprintf(a->why, sizeof a->why, "%s", t->inner.why);
	return -1;
}

static int note_innermost(struct amd_trace_agg *a, struct track *t, int64_t t0, uint32_t op)
{
	if (t->lane != 'h' || (op && (a->ops[op - 1].flags & OPF_DEVICE)))
		return 0;
	return amd_innermost_set(&t->inner, t0, op) < 0 ? innermost_failed(a, t) : 0;
}

static int close_top(struct amd_trace_agg *a, struct track *t)
{
	struct open_iv *iv = &t->stack[--t->depth];
	int64_t self = iv->end - iv->start - iv->child; /* child clipped to the span: no overflow */
	a->ops[iv->op].self = add_ns(a, a->ops[iv->op].self, self > 0 ? self : 0);
	return note_innermost(a, t, iv->end, t->depth ? t->stack[t->depth - 1].op + 1 : 0);
}

static int close_until(struct amd_trace_agg *a, struct track *t, int64_t time)
{
	while (t->depth && t->stack[t->depth - 1].end <= time)
		if (close_top(a, t) < 0)
			return -1;
	return 0;
}

static void charge_self(void *ctx, uint32_t op, int64_t ns)
{
	((struct amd_trace_agg *)ctx)->ops[op].self -= ns;
}

static int release_one(struct amd_trace_agg *a, struct track *t);

/* A top-level runtime call: its thread's ops that start before it ends
 * are taken first, then its time leaves the self time of the op it ran
 * inside. */
static int charge_runtime(struct amd_trace_agg *a, struct track *t, const struct hev *e)
{
	if (!t->host)
		return 0;
	struct track *h = &a->tracks[t->host - 1];
	while (window_size(&h->pending) && window_first(&h->pending)->start < e->end)
		if (release_one(a, h) < 0)
			return -1;
	if (close_until(a, h, e->end) < 0)
		return -1;
	if (amd_innermost_charge(&h->inner, e->start, e->end, charge_self, a) < 0)
		return innermost_failed(a, h);
	return 0;
}

static int take_in_order(struct amd_trace_agg *a, struct track *t, const struct hev *e)
{
	if (close_until(a, t, e->start) < 0)
		return -1;
	if (t->lane == 'r' && !t->depth && charge_runtime(a, t, e) < 0)
		return -1;
	struct open_iv *parent = t->depth ? &t->stack[t->depth - 1] : NULL;
	const struct op *o = &a->ops[e->op];
	if (parent) {
		int64_t s = e->start > parent->start ? e->start : parent->start;
		int64_t end = e->end < parent->end ? e->end : parent->end;
		if (end > s)
			parent->child = add_ns(a, parent->child, end - s);
	}
	int64_t dur = e->end - e->start;
	int aten = (o->flags & OPF_ATEN) && !(o->flags & OPF_DEVICE);
	int comm = (o->flags & OPF_COMM) && !(o->flags & OPF_DEVICE);
	/* parent points into t->stack, which growing may move: read it first */
	int in_aten = parent && parent->in_aten, in_comm = parent && parent->in_comm;
	if (aten && !in_aten)
		a->cpu_aten = add_ns(a, a->cpu_aten, dur);
	if (comm && !in_comm)
		a->cpu_comm = add_ns(a, a->cpu_comm, dur);
	if (amd_grow_to(&t->stack, t->depth + 1, &t->cap, sizeof *t->stack, 16) < 0)
		return -1;
	struct open_iv *iv = &t->stack[t->depth++];
	*iv = (struct open_iv){.start = e->start, .end = e->end, .op = e->op};
	iv->in_aten = aten || in_aten;
	iv->in_comm = comm || in_comm;
	return note_innermost(a, t, e->start, e->op + 1);
}

/* ---- GPU phase sweep over intervals taken in start order (gpu_sweep.h) ---- */

static enum amd_gpu_class gpu_class(const struct amd_trace_agg *a, const struct op *o)
{
	const char *name = a->names.s[o->name];
	return amd_gpu_class_of(name, cat_is(o->cat ? a->names.s[o->cat] : NULL, memory_cats) ||
				      has_prefix(name, "Memcpy") || has_prefix(name, "Memset"));
}

static void sweep_take(struct amd_trace_agg *a, const struct hev *e)
{
	amd_gpu_sweep_take(&a->sweep, e->start, e->end, gpu_class(a, &a->ops[e->op]));
}

/* ---- events in ---- */

static long track_index(struct amd_trace_agg *a, const struct amd_trace_event *e, char lane)
{
	size_t need = e->pid_len + e->tid_len + 3;
	if (amd_grow_to(&a->keybuf, need, &a->keycap, 1, 16) < 0)
		return -1;
	if (e->pid_len)
		memcpy(a->keybuf, e->pid, e->pid_len);
	a->keybuf[e->pid_len] = '\x1f';
	if (e->tid_len)
		memcpy(a->keybuf + e->pid_len + 1, e->tid, e->tid_len);
	a->keybuf[e->pid_len + 1 + e->tid_len] = lane;
	if (a->last_len == need - 1 && memcmp(a->last_key, a->keybuf, need - 1) == 0)
		return a->last_track; /* consecutive events mostly share a track */
	uint32_t id = amd_strtab_intern(&a->tracks_by_key, a->keybuf, need - 1);
	if (!id || amd_grow_to(&a->last_key, need, &a->last_cap, 1, 16) < 0)
		return -1;
	memcpy(a->last_key, a->keybuf, need - 1);
	a->last_len = need - 1;
	a->last_track = (long)id - 1;
	if (id > a->n_tracks) {
		if (amd_grow_to(&a->tracks, id, &a->cap_tracks, sizeof *a->tracks, 16) < 0)
			return -1;
		memset(&a->tracks[a->n_tracks], 0, sizeof *a->tracks);
		a->tracks[a->n_tracks].lane = lane;
		if (a->spill_steps) { /* spill as soon as possible (tests) */
			struct amd_innermost *in = &a->tracks[a->n_tracks].inner;
			in->block_steps = a->spill_steps;
			in->mem_blocks = in->cache_blocks = 1;
		}
		a->n_tracks = id;
	}
	return (long)id - 1;
}

static int dtype_size(const char *d, size_t n)
{
	static const struct { const char *name; int size; } sizes[] = {
		{"Float", 4}, {"Double", 8}, {"Half", 2}, {"BFloat16", 2}, {"Long", 8},
		{"Int", 4}, {"Short", 2}, {"Char", 1}, {"Byte", 1}, {"Bool", 1},
		{"ComplexFloat", 8}, {"ComplexDouble", 16}, {"ComplexHalf", 4},
		{"UInt16", 2}, {"UInt32", 4}, {"UInt64", 8},
		{"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}, {"Float8_e4m3fnuz", 1},
		{"Float8_e5m2fnuz", 1},
	};
	for (size_t i = 0; d && i < sizeof sizes / sizeof sizes[0]; i++)
		if (strlen(sizes[i].name) == n && memcmp(sizes[i].name, d, n) == 0)
			return sizes[i].size;
	return 0;
}

static int note_collective(struct amd_trace_agg *a, const struct amd_trace_event *e,
			   const struct op *o)
{
	const char *name = a->names.s[o->name];
	int on_gpu = (o->flags & OPF_DEVICE) && strncasecmp(name, "nccl", 4) == 0;
	if (!on_gpu && ((o->flags & (OPF_COMM | OPF_DEVICE)) != OPF_COMM))
		return 0;
	if (amd_grow_to(&a->colls, a->n_colls + 1, &a->cap_colls, sizeof *a->colls, 16) < 0)
		return -1;
	struct coll *c = &a->colls[a->n_colls++];
	c->name = e->coll_name_len ? amd_strtab_intern(&a->names, e->coll_name, e->coll_name_len) : o->name;
	if (!c->name)
		return -1;
	c->pg = e->pg_name_len ? amd_strtab_intern(&a->names, e->pg_name, e->pg_name_len) : 0;
	if (e->pg_name_len && !c->pg)
		return -1;
	c->on_gpu = on_gpu;
	c->start = e->ts;
	c->dur = e->dur;
	c->group = e->group_size;
	int64_t nel = e->in_nelems > e->out_nelems ? e->in_nelems : e->out_nelems;
	int size = dtype_size(e->dtype, e->dtype_len);
	c->bytes = e->msg_bytes >= 0 ? e->msg_bytes : nel >= 0 && size ? nel * size : -1;
	return 0;
}

static int note_step(struct amd_trace_agg *a, const struct amd_trace_event *e, const struct op *o)
{
	const char *name = a->names.s[o->name];
	if (!has_prefix(name, "ProfilerStep#") || (o->flags & (OPF_DEVICE | OPF_GPU_ANNOT)))
		return 0;
	char *end;
	long long n = strtoll(name + 13, &end, 10);
	if (end == name + 13 || *end)
		return 0;
	if (amd_grow_to(&a->steps, a->n_steps + 1, &a->cap_steps, sizeof *a->steps, 16) < 0)
		return -1;
	a->steps[a->n_steps++] = (struct amd_trace_step){n, e->ts, e->dur};
	return 0;
}

/* ingest --events: a device event or a collective goes to the buffer. */
static int keep_event(struct amd_trace_agg *a, const struct amd_trace_event *e,
		      const struct op *o, int collective)
{
	int device = (o->flags & OPF_DEVICE) != 0;
	if (!collective && !device)
		return 0;
	enum amd_trace_event_kind kind = AMD_EVENT_COLLECTIVE;
	if (!collective)
		kind = gpu_class(a, o) != AMD_GPU_MEMORY ? AMD_EVENT_KERNEL
		     : has_prefix(a->names.s[o->name], "Memset") ||
				       (o->cat && strstr(a->names.s[o->cat], "memset"))
			     ? AMD_EVENT_MEMSET : AMD_EVENT_MEMCPY;
	int64_t bytes = collective ? a->colls[a->n_colls - 1].bytes : e->copy_bytes;
	return amd_trace_evbuf_add(a->evbuf, e, kind, bytes, device);
}

void amd_trace_agg_keep_events(struct amd_trace_agg *a, struct amd_trace_evbuf *b)
{
	a->evbuf = b;
}

static int release_one(struct amd_trace_agg *a, struct track *t)
{
	struct hev e = window_pop(&t->pending);
	return take_in_order(a, t, &e);
}

int amd_trace_agg_event(struct amd_trace_agg *a, const struct amd_trace_event *e)
{
	a->events++;
	if (e->ph == 'i')
		return amd_trace_memory_event(a->memory, e);
	if (e->ph != 'X' || !e->has_ts)
		return 0;
	if (amd_trace_time_check(e->ts, AMD_TRACE_TIMESTAMP) ||
	    (e->dur > 0 && amd_trace_time_check(e->dur, AMD_TRACE_DURATION))) {
		a->overflow = 1; /* the parser refuses these; other feeders learn at finish */
		return 0;
	}
	int64_t dur = e->dur > 0 ? e->dur : 0;
	int64_t end = e->ts + dur;
	if (!a->has_window || e->ts < a->win_start)
		a->win_start = e->ts;
	if (!a->has_window || end > a->win_end)
		a->win_end = end;
	a->has_window = 1;
	uint32_t name = amd_strtab_intern(&a->names, e->name ? e->name : "", e->name ? e->name_len : 0);
	uint32_t cat = e->cat ? amd_strtab_intern(&a->names, e->cat, e->cat_len) : 0;
	if (!name || (e->cat && !cat))
		return -1;
	long oi = op_index(a, name, cat);
	if (oi < 0)
		return -1;
	struct op *o = &a->ops[oi];
	o->count++;
	o->total = add_ns(a, o->total, dur);
	if (dur < o->min)
		o->min = dur;
	if (dur > o->max)
		o->max = dur;
	char lane = o->flags & OPF_RUNTIME ? 'r' : o->flags & OPF_GPU_ANNOT ? 'g' : 'h';
	long host = lane == 'r' ? track_index(a, e, 'h') : 0;
	long ti = host < 0 ? -1 : track_index(a, e, lane);
	if (ti < 0)
		return -1;
	struct track *t = &a->tracks[ti];
	if (lane == 'r')
		t->host = host + 1;
	struct hev h = {e->ts, end, a->seq++, (uint32_t)oi};
	if (window_push(&t->pending, &h) < 0)
		return -1;
	if (window_size(&t->pending) > LANE_REORDER && release_one(a, t) < 0)
		return -1;
	if (o->flags & OPF_DEVICE) {
		a->has_gpu = 1;
		if (window_push(&a->gpu, &h) < 0)
			return -1;
		if (window_size(&a->gpu) > GPU_REORDER) {
			struct hev g = window_pop(&a->gpu);
			sweep_take(a, &g);
		}
	}
	struct amd_trace_event ev = *e;
	ev.dur = dur;
	size_t colls = a->n_colls;
	if (note_step(a, &ev, o) < 0 || note_collective(a, &ev, o) < 0)
		return -1;
	return a->evbuf ? keep_event(a, &ev, o, a->n_colls > colls) : 0;
}

/* ---- summary out ---- */

static int flush(struct amd_trace_agg *a)
{
	for (size_t i = 0; i < a->n_tracks; i++) {
		struct track *t = &a->tracks[i];
		while (window_size(&t->pending))
			if (release_one(a, t) < 0)
				return -1;
		if (close_until(a, t, INT64_MAX) < 0)
			return -1;
	}
	while (window_size(&a->gpu)) {
		struct hev g = window_pop(&a->gpu);
		sweep_take(a, &g);
	}
	amd_gpu_sweep_end(&a->sweep);
	return 0;
}

static int cmp_step(const void *x, const void *y)
{
	const struct amd_trace_step *p = x, *q = y;
	if (p->step != q->step)
		return p->step < q->step ? -1 : 1;
	return p->start_ns < q->start_ns ? -1 : p->start_ns > q->start_ns;
}

/* The same process group (both unknown counts as the same). */
static int same_group(const struct amd_trace_coll *p, const struct amd_trace_coll *q)
{
	return p->group == q->group || (p->group && q->group && strcmp(p->group, q->group) == 0);
}

static int cmp_coll(const void *x, const void *y)
{
	const struct amd_trace_coll *p = x, *q = y;
	if (!same_group(p, q))
		return !p->group ? -1 : !q->group ? 1 : strcmp(p->group, q->group);
	int c = strcmp(p->name, q->name);
	if (c)
		return c;
	return p->start_ns < q->start_ns ? -1 : p->start_ns > q->start_ns;
}

static void phases(struct amd_trace_agg *a, int64_t window, int64_t *ph)
{
	memset(ph, 0, AMD_PHASE_COUNT * sizeof *ph);
	if (a->has_gpu) {
		amd_gpu_sweep_phases(&a->sweep, window, ph);
	} else {
		ph[AMD_PHASE_COMPUTE] = a->cpu_aten;
		ph[AMD_PHASE_COMM] = a->cpu_comm;
		int64_t rest = window - add_ns(a, a->cpu_aten, a->cpu_comm);
		ph[AMD_PHASE_OTHER] = rest > 0 ? rest : 0;
	}
}

/* itwinai's computation fraction: self time of ops whose name matches
 * its rule over all ops but ProfilerStep*. With GPU activity it is the
 * self device time (kernels, memcpy, memset) as in self_cuda_time_total;
 * a CPU-only trace has no device time, so self CPU time of every op
 * (the profiler's own "Trace" span left out) stands in for it. */
static double comp_fraction(struct amd_trace_agg *a)
{
	int64_t num = 0, den = 0;
	for (size_t i = 0; i < a->n_ops; i++) {
		const struct op *o = &a->ops[i];
		if (o->flags & OPF_STEP)
			continue;
		if (a->has_gpu ? !(o->flags & OPF_DEVICE) : (o->flags & OPF_TRACE) != 0)
			continue;
		den = add_ns(a, den, o->self);
		if (o->flags & OPF_ITWINAI)
			num = add_ns(a, num, o->self);
	}
	return den > 0 ? (double)num / (double)den : NAN;
}

int amd_trace_agg_finish(struct amd_trace_agg *a, int64_t base_ns, struct amd_trace_summary *s)
{
	if (flush(a) < 0)
		return -1;
	memset(s, 0, sizeof *s);
	s->rank = s->world_size = -1;
	s->events = a->events;
	s->has_gpu = a->has_gpu;
	s->start_ns = a->has_window ? base_ns + a->win_start : 0;
	s->end_ns = a->has_window ? base_ns + a->win_end : 0;
	phases(a, a->win_end - a->win_start, s->phase_ns);
	s->comp_fraction = comp_fraction(a);
	if (a->overflow)
		return -1;

	a->out_ops = calloc(a->n_ops ? a->n_ops : 1, sizeof *a->out_ops);
	a->out_colls = calloc(a->n_colls ? a->n_colls : 1, sizeof *a->out_colls);
	if (!a->out_ops || !a->out_colls)
		return -1;
	for (size_t i = 0; i < a->n_ops; i++) {
		const struct op *o = &a->ops[i];
		a->out_ops[i] = (struct amd_trace_op){a->names.s[o->name],
			o->cat ? a->names.s[o->cat] : NULL, o->count, o->total,
			o->self > 0 ? o->self : 0,
			o->count ? o->min : 0, o->max};
	}
	s->ops = a->out_ops;
	s->n_ops = a->n_ops;

	if (a->n_steps)
		qsort(a->steps, a->n_steps, sizeof *a->steps, cmp_step);
	size_t ns = 0;
	for (size_t i = 0; i < a->n_steps; i++)
		if (ns == 0 || a->steps[ns - 1].step != a->steps[i].step) {
			a->steps[ns] = a->steps[i];
			a->steps[ns++].start_ns += base_ns;
		}
	a->n_steps = ns;
	s->steps = a->steps;
	s->n_steps = ns;

	size_t nc = 0;
	for (size_t i = 0; i < a->n_colls; i++) {
		const struct coll *c = &a->colls[i];
		if (c->on_gpu != a->has_gpu)
			continue; /* GPU traces: the kernels; CPU-only: the host calls */
		a->out_colls[nc++] = (struct amd_trace_coll){a->names.s[c->name],
			c->pg ? a->names.s[c->pg] : NULL, 0, base_ns + c->start, c->dur, c->bytes, c->group};
	}
	if (nc)
		qsort(a->out_colls, nc, sizeof *a->out_colls, cmp_coll);
	for (size_t i = 0; i < nc; i++)
		a->out_colls[i].seq = i && same_group(&a->out_colls[i], &a->out_colls[i - 1])
			&& strcmp(a->out_colls[i].name, a->out_colls[i - 1].name) == 0
			? a->out_colls[i - 1].seq + 1 : 0; /* per group and name */
	s->colls = a->out_colls;
	s->n_colls = nc;
	return amd_trace_memory_finish(a->memory, base_ns, &s->memory, &s->n_memory);
}

struct amd_trace_agg *amd_trace_agg_new(void)
{
	struct amd_trace_agg *a = calloc(1, sizeof(struct amd_trace_agg));
	if (a && !(a->memory = amd_trace_memory_new())) {
		free(a);
		return NULL;
	}
	const char *spill = getenv("AMDAHL_TRACE_SPILL");
	if (a && spill && atoi(spill) > 0)
		a->spill_steps = (size_t)atoi(spill);
	return a;
}

int amd_trace_agg_overflowed(const struct amd_trace_agg *a)
{
	return a->overflow;
}

const char *amd_trace_agg_why(const struct amd_trace_agg *a)
{
	return a->why[0] ? a->why : NULL;
}

void amd_trace_agg_free(struct amd_trace_agg *a)
{
	if (!a)
		return;
	amd_strtab_free(&a->names);
	amd_strtab_free(&a->tracks_by_key);
	for (size_t i = 0; i < a->n_tracks; i++) {
		free(a->tracks[i].pending.v);
		free(a->tracks[i].pending.late);
		free(a->tracks[i].stack);
		amd_innermost_free(&a->tracks[i].inner);
	}
	free(a->tracks);
	free(a->ops);
	free(a->op_slots);
	free(a->gpu.v);
	free(a->gpu.late);
	free(a->steps);
	free(a->colls);
	free(a->out_ops);
	free(a->out_colls);
	free(a->keybuf);
	free(a->last_key);
	amd_trace_memory_free(a->memory);
	free(a);
}
