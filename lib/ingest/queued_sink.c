/* queued_sink.c — the queueing sink and its replay (queued_sink.h). A
 * record is 32 bytes; the queue holds at most 48 chunks of 8,192 (12 MB)
 * and its chunks are reused, so millions of points pass through a few MB
 * of memory that is already mapped. Strings are interned in the parsing
 * thread's table (trace_strtab.h), whose strings stay put until drop; a
 * run's record is copied whole into memory of its own; a stack, region,
 * operator average, GPU sample, caller edge or device event into the
 * records after its header. A trace summary and a unit's names (once a
 * unit) are a call record pointing at the arguments on the parsing
 * thread's stack, which waits until the replay made the call
 * (rec_queue.h's amd_rq_call); handing every fact over that way cost a
 * context switch each: 5 s became 30 s on 330,000 collapsed stacks. */
#include "queued_sink.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rec_queue.h"
#include "trace_strtab.h"

/* a point: key != OTHER. REC_CALL: a fact handed over as a call; the
 * kinds from REC_OP on are copied whole into the records after their
 * header (u.o.more of them). */
enum rec_kind { REC_RUN, REC_PARAM, REC_TAG, REC_LINK, REC_CALL, REC_OP, REC_GPU, REC_STACK,
		REC_EVENT, REC_REGION, REC_REGION_CALL };

/* A fact handed over as a call (once a unit, or a stack too deep for a
 * chunk): the sink callback and its arguments, valid while the parsing
 * thread waits for the replay. */
enum call_kind { CALL_TRACE, CALL_STACK, CALL_NAMES };
struct call {
	enum call_kind kind;
	union {
		const struct amd_trace_summary *trace;
		const struct amd_stack_rec *stack;
		struct {
			const char *const *v;
			size_t n;
			int in_order;
		} names;
	} a;
};

/* An operator average's arguments, copied. */
struct op_rec {
	const char *name;
	int role, rank;
	double self_us, total_us;
	int64_t calls;
};

/* The records copied whole: a new field, above all a pointer, needs its
 * copy below (q_run, copy_region, q_trace_event, q_stack; the GPU sample
 * and the caller edge hold no pointer). */
_Static_assert(sizeof(struct amd_run_rec) == 88, "struct amd_run_rec changed: see q_run");
_Static_assert(sizeof(struct amd_gpu_sample) == 56 && sizeof(struct amd_region_call) == 48,
	       "struct amd_gpu_sample or amd_region_call changed: see q_gpu_sample, q_region_call");
_Static_assert(sizeof(struct amd_region_rec) == 112 && sizeof(struct amd_region_detail) == 32,
	       "struct amd_region_rec or amd_region_detail changed: see copy_region");
_Static_assert(sizeof(struct amd_trace_event_rec) == 56, "struct amd_trace_event_rec changed: see q_trace_event");
_Static_assert(sizeof(struct amd_stack_rec) == 48 && sizeof(struct amd_stack_frame) == 24,
	       "struct amd_stack_rec changed: see q_stack");

struct held_run {
	struct held_run *next; /* every run queued, for drop */
	struct amd_run_rec r;
};
struct held_link {
	struct held_link *next;
	const char *ext_id, *name, *sweep;
};

/* 32 bytes: a point's key and numbers; any other record has key OTHER and
 * its kind, key and value in u.o (points are nearly all records). */
struct rec {
	const char *key; /* a point's metric key, or OTHER */
	union {
		struct {
			int64_t step, ts;
			double v;
		} pt;
		struct {
			enum rec_kind kind;
			uint32_t more; /* records of the copied fact after this one */
			const char *key; /* param or tag key */
			union {
				const struct amd_run_rec *run;
				const struct held_link *link;
				const char *value;
				const struct call *call;
			} u;
		} o;
	} u;
};
static const char OTHER[] = "";
_Static_assert(sizeof(struct rec) == 32, "a record is 32 bytes (rec_queue rounds to 16)");

struct frame_texts {
	const char *name, *file; /* name NULL: not interned yet */
};

/* The names of the last names call (in_order 0) as given and as
 * interned: a fact naming one by the same pointer (sink.h: unchanged
 * until the unit ends) takes its interned copy without hashing the text
 * again; facts come mostly in the names' order (at the cursor, or the
 * one before: an op average and its region). */
struct named {
	const char **given, **interned;
	size_t n, at;
};

struct queued {
	amd_parse_fn parse;
	struct amd_input in; /* in.stop: &stop */
	atomic_int stop;
	int events;
	struct amd_rq *q;
	struct amd_strtab str;
	struct held_run *runs;
	struct held_link *links;
	const char *last_key; /* the last key interned: points come in runs of one key */
	const char *last_name, *last_kind, *last_profiler; /* a region's, interned: */
	/* the same in runs (a table's operator and its device time, one name) */
	struct named named; /* the last names call's, for the facts naming them */
	struct frame_texts *frame_texts; /* a numbered frame's (records.h) texts, */
	size_t cap_frame_texts;          /* interned: frame_texts[id - 1] */
	pthread_t thread;
	int joined;
	int rc; /* the parse's result, with err, once the queue ended */
	struct amd_err err;
};

/* s interned in *out (NULL for NULL); -1 out of memory. */
static int intern(struct queued *qs, const char *s, const char **out)
{
	uint32_t id = s ? amd_strtab_intern(&qs->str, s, strlen(s)) : 0;
	*out = id ? qs->str.s[id] : NULL;
	return s && !id ? -1 : 0;
}

/* s interned in *out through *last, the last text so interned: a point's
 * key, a region's kind and profiler are the same run after run
 * (interning a region's again was a twentieth of a py-spy chrometrace's
 * ingest). */
static int intern_last(struct queued *qs, const char *s, const char **last, const char **out)
{
	if (s && *last && strcmp(s, *last) == 0) {
		*out = *last;
		return 0;
	}
	if (intern(qs, s, out) < 0)
		return -1;
	if (s)
		*last = *out;
	return 0;
}

/* s interned in *out as intern does (through *last when last is not
 * NULL: intern_last), by its pointer when it is one of the names given
 * (struct named). */
static int intern_named(struct queued *qs, const char *s, const char **last, const char **out)
{
	struct named *m = &qs->named;
	if (m->at < m->n && s == m->given[m->at]) {
		*out = m->interned[m->at++];
		return 0;
	}
	if (m->at > 0 && s == m->given[m->at - 1]) {
		*out = m->interned[m->at - 1];
		return 0;
	}
	return last ? intern_last(qs, s, last, out) : intern(qs, s, out);
}

static void named_free(struct named *m)
{
	free(m->given);
	free(m->interned);
	*m = (struct named){0};
}

/* Room for the next record; -1 with err when emit stopped the queue or
 * out of memory. */
static int room(struct queued *qs, struct rec **r, struct amd_err *err)
{
	if (!(*r = amd_rq_put(qs->q)))
		return amd_fail(err, "%s: %s", qs->in.path,
				amd_rq_stopped(qs->q) ? "parse stopped" : "out of memory");
	return 0;
}

/* key interned for a point: the last key again, mostly. */
static int point_key(struct queued *qs, const char *key, const char **out,
		     struct amd_err *err)
{
	if (intern_last(qs, key, &qs->last_key, out) < 0)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	return 0;
}

/* Room for a record other than a point, of kind with key interned. */
static int put(struct queued *qs, enum rec_kind kind, const char *key, struct rec **r,
	       struct amd_err *err)
{
	if (room(qs, r, err) < 0)
		return -1;
	(*r)->key = OTHER;
	(*r)->u.o.kind = kind;
	(*r)->u.o.more = 0;
	if (intern(qs, key, &(*r)->u.o.key) < 0)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	return 0;
}

static int q_run(struct amd_sink *s, const struct amd_run_rec *r, struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct held_run *h = calloc(1, sizeof *h);
	if (!h)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	h->next = qs->runs;
	qs->runs = h;
	h->r = *r;
	struct rec *rec;
	if (intern(qs, r->ext_id, &h->r.ext_id) < 0 || intern(qs, r->name, &h->r.name) < 0 ||
	    intern(qs, r->sweep, &h->r.sweep) < 0 ||
	    intern(qs, r->sweep_ext_id, &h->r.sweep_ext_id) < 0 ||
	    intern(qs, r->parent_ext_id, &h->r.parent_ext_id) < 0 ||
	    intern(qs, r->entry_point, &h->r.entry_point) < 0 ||
	    intern(qs, r->program, &h->r.program) < 0)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	if (put(qs, REC_RUN, NULL, &rec, err) < 0)
		return -1;
	rec->u.o.u.run = &h->r;
	return 0;
}

static int q_kv(struct amd_sink *s, enum rec_kind kind, const char *key, const char *value,
		struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct rec *rec;
	if (put(qs, kind, key, &rec, err) < 0)
		return -1;
	return intern(qs, value, &rec->u.o.u.value) < 0
		       ? amd_fail(err, "%s: out of memory", qs->in.path)
		       : 0;
}

static int q_param(struct amd_sink *s, const char *key, const char *value, struct amd_err *err)
{
	return q_kv(s, REC_PARAM, key, value, err);
}

static int q_tag(struct amd_sink *s, const char *key, const char *value, struct amd_err *err)
{
	return q_kv(s, REC_TAG, key, value, err);
}

static int q_metric(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		    double value, struct amd_err *err)
{
	struct rec *rec;
	if (room(s->ctx, &rec, err) < 0 || point_key(s->ctx, key, &rec->key, err) < 0)
		return -1;
	rec->u.pt.step = step;
	rec->u.pt.ts = ts_ms;
	rec->u.pt.v = value;
	return 0;
}

static int q_link(struct amd_sink *s, const char *ext_id, const char *name, const char *sweep,
		  struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct held_link *h = calloc(1, sizeof *h);
	if (!h)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	h->next = qs->links;
	qs->links = h;
	struct rec *rec;
	if (intern(qs, ext_id, &h->ext_id) < 0 || intern(qs, name, &h->name) < 0 ||
	    intern(qs, sweep, &h->sweep) < 0)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	if (put(qs, REC_LINK, NULL, &rec, err) < 0)
		return -1;
	rec->u.o.u.link = h;
	return 0;
}

/* A fact handed to the replay as a call; the parse waits for it. */
static int forward(struct amd_sink *s, const struct call *c, struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct rec *rec;
	if (put(qs, REC_CALL, NULL, &rec, err) < 0)
		return -1;
	rec->u.o.u.call = c;
	if (amd_rq_call(qs->q) < 0)
		return amd_fail(err, "%s: parse stopped", qs->in.path);
	return 0;
}

/* Room for a fact of kind copied into bytes after its header record:
 * *body, side by side with it in one chunk. 1 when the fact is too large
 * for a chunk (hand it over as a call), -1 with err. */
static int put_body(struct queued *qs, enum rec_kind kind, size_t bytes, void **body,
		    struct amd_err *err)
{
	size_t more = (bytes + sizeof(struct rec) - 1) / sizeof(struct rec);
	if (more >= 8192)
		return 1;
	struct rec *r = amd_rq_put_n(qs->q, 1 + more);
	if (!r)
		return amd_fail(err, "%s: %s", qs->in.path,
				amd_rq_stopped(qs->q) ? "parse stopped" : "out of memory");
	r->key = OTHER;
	r->u.o.kind = kind;
	r->u.o.more = (uint32_t)more;
	*body = r + 1;
	return 0;
}

static int oom(const struct queued *qs, struct amd_err *err)
{
	return amd_fail(err, "%s: out of memory", qs->in.path);
}

static int q_trace(struct amd_sink *s, const struct amd_trace_summary *t, struct amd_err *err)
{
	return forward(s, &(struct call){.kind = CALL_TRACE, .a.trace = t}, err);
}

/* The names interned here too, as every string of a copied fact is: a
 * fact then names one by the same pointer (sink.h), and no pointer the
 * writer holds is one the parse freed and the table reused. Names in
 * the order given need not outlive the call: handed over as they are. */
static int q_names(struct amd_sink *s, const char *const *names, size_t n, int in_order,
		   struct amd_err *err)
{
	struct queued *qs = s->ctx;
	if (in_order)
		return forward(s, &(struct call){.kind = CALL_NAMES, .a.names = {names, n, 1}}, err);
	named_free(&qs->named);
	const char **v = malloc((n ? n : 1) * sizeof *v);
	const char **given = malloc((n ? n : 1) * sizeof *given);
	if (!v || !given) {
		free(v);
		free(given);
		return oom(qs, err);
	}
	qs->named = (struct named){.given = given, .interned = v, .n = n};
	memcpy(given, names, n * sizeof *given);
	for (size_t i = 0; i < n; i++)
		if (intern(qs, names[i], &v[i]) < 0) {
			qs->named.n = 0;
			return oom(qs, err);
		}
	return forward(s, &(struct call){.kind = CALL_NAMES, .a.names = {v, n, in_order}}, err);
}

static int q_op_average(struct amd_sink *s, const char *name, int role, int rank,
			double self_us, double total_us, int64_t calls, struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct op_rec *o = NULL;
	if (put_body(qs, REC_OP, sizeof *o, (void **)&o, err) != 0)
		return -1;
	*o = (struct op_rec){.role = role, .rank = rank, .self_us = self_us,
			     .total_us = total_us, .calls = calls};
	return intern_named(qs, name, NULL, &o->name) < 0 ? oom(qs, err) : 0;
}

static int q_gpu_sample(struct amd_sink *s, const struct amd_gpu_sample *g, struct amd_err *err)
{
	struct amd_gpu_sample *c = NULL;
	if (put_body(s->ctx, REC_GPU, sizeof *c, (void **)&c, err) != 0)
		return -1;
	*c = *g;
	return 0;
}

static int q_region_call(struct amd_sink *s, const struct amd_region_call *rc,
			 struct amd_err *err)
{
	struct amd_region_call *c = NULL;
	if (put_body(s->ctx, REC_REGION_CALL, sizeof *c, (void **)&c, err) != 0)
		return -1;
	*c = *rc;
	return 0;
}

static int q_trace_event(struct amd_sink *s, const struct amd_trace_event_rec *e,
			 struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct amd_trace_event_rec *c = NULL;
	if (put_body(qs, REC_EVENT, sizeof *c, (void **)&c, err) != 0)
		return -1;
	*c = *e;
	return intern(qs, e->name, &c->name) < 0 ? oom(qs, err) : 0;
}

/* c has room for a detail right after it when r has one (q_region). */
static int copy_region(struct queued *qs, const struct amd_region_rec *r,
		       struct amd_region_rec *c)
{
	*c = *r;
	if (r->detail) {
		struct amd_region_detail *d = (struct amd_region_detail *)(c + 1);
		*d = *r->detail;
		c->detail = d;
		if (intern(qs, r->detail->category, &d->category) < 0)
			return -1;
	}
	return intern_named(qs, r->name, &qs->last_name, &c->name) < 0 ||
			       intern_last(qs, r->kind, &qs->last_kind, &c->kind) < 0 ||
			       intern_last(qs, r->profiler, &qs->last_profiler, &c->profiler) < 0 ||
			       intern(qs, r->file, &c->file) < 0
		       ? -1
		       : 0;
}

/* A region and, when it has one, its detail side by side. */
static int q_region(struct amd_sink *s, const struct amd_region_rec *r, struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct amd_region_rec *c = NULL;
	size_t bytes = sizeof *c + (r->detail ? sizeof *r->detail : 0);
	if (put_body(qs, REC_REGION, bytes, (void **)&c, err) != 0)
		return -1;
	return copy_region(qs, r, c) < 0 ? oom(qs, err) : 0;
}

/* Frame f's texts interned, a numbered frame's (records.h) once: the
 * stacks the py-spy readers send share their frames, each stack's
 * frames were hashed again. -1 out of memory. */
static int copy_frame(struct queued *qs, struct amd_stack_frame *f)
{
	struct frame_texts *t = f->id && f->id <= qs->cap_frame_texts
					? &qs->frame_texts[f->id - 1] : NULL;
	if (t && t->name) {
		f->name = t->name;
		f->file = t->file;
		return 0;
	}
	if (intern(qs, f->name, &f->name) < 0 || intern(qs, f->file, &f->file) < 0)
		return -1;
	if (!f->id)
		return 0;
	if (amd_grow_zeroed(&qs->frame_texts, f->id, &qs->cap_frame_texts,
			    sizeof *qs->frame_texts, 256) < 0)
		return -1;
	qs->frame_texts[f->id - 1] = (struct frame_texts){f->name, f->file};
	return 0;
}

/* A stack and its frames side by side; a deeper one than a chunk holds
 * is handed over as a call. */
static int q_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err)
{
	struct queued *qs = s->ctx;
	struct amd_stack_rec *c = NULL;
	size_t bytes = sizeof *c + r->depth * sizeof(struct amd_stack_frame);
	int rc = r->depth < 8192 ? put_body(qs, REC_STACK, bytes, (void **)&c, err) : 1;
	if (rc != 0)
		return rc < 0 ? -1 : forward(s, &(struct call){.kind = CALL_STACK, .a.stack = r}, err);
	struct amd_stack_frame *f = (struct amd_stack_frame *)(c + 1);
	*c = *r;
	c->frames = f;
	if (intern(qs, r->process, &c->process) < 0 || intern(qs, r->thread, &c->thread) < 0)
		return oom(qs, err);
	for (size_t i = 0; i < r->depth; i++) {
		f[i] = r->frames[i];
		if (copy_frame(qs, &f[i]) < 0)
			return oom(qs, err);
	}
	return 0;
}

/* The parsing thread: the whole input into the queue, then the result. */
static void *parse_all(void *arg)
{
	struct queued *qs = arg;
	struct amd_sink sink = {
		.ctx = qs, .run = q_run, .param = q_param, .tag = q_tag, .metric = q_metric,
		.link = q_link, .trace = q_trace, .op_average = q_op_average,
		.gpu_sample = q_gpu_sample, .stack = q_stack,
		.trace_event = qs->events ? q_trace_event : NULL, .region = q_region,
		.region_call = q_region_call, .names = q_names,
	};
	qs->rc = qs->parse(&qs->in, &sink, &qs->err);
	amd_rq_end(qs->q);
	return NULL;
}

static void queued_free(struct queued *qs)
{
	amd_rq_free(qs->q);
	amd_strtab_free(&qs->str);
	named_free(&qs->named);
	free(qs->frame_texts);
	while (qs->runs) {
		struct held_run *next = qs->runs->next;
		free(qs->runs);
		qs->runs = next;
	}
	while (qs->links) {
		struct held_link *next = qs->links->next;
		free(qs->links);
		qs->links = next;
	}
	free(qs);
}

void amd_queued_drop(void *state)
{
	struct queued *qs = state;
	if (!qs)
		return;
	atomic_store(&qs->stop, 1);
	amd_rq_stop(qs->q);
	if (!qs->joined)
		pthread_join(qs->thread, NULL);
	queued_free(qs);
}

int amd_queued_start(amd_parse_fn parse, const struct amd_input *in, int events,
		     void **state)
{
	struct queued *qs = calloc(1, sizeof *qs);
	if (!qs || !(qs->q = amd_rq_new(sizeof(struct rec), 8192, 48))) {
		free(qs);
		return -1;
	}
	qs->parse = parse;
	qs->in = *in;
	atomic_init(&qs->stop, 0);
	qs->in.stop = &qs->stop;
	qs->events = events;
	if (pthread_create(&qs->thread, NULL, parse_all, qs) != 0) {
		queued_free(qs);
		return -1;
	}
	*state = qs;
	return 0;
}

/* A call record made on sink (a NULL callback ignores its fact). */
static int call(const struct call *c, struct amd_sink *s, struct amd_err *err)
{
	switch (c->kind) {
	case CALL_TRACE:
		return s->trace ? s->trace(s, c->a.trace, err) : 0;
	case CALL_STACK:
		return s->stack ? s->stack(s, c->a.stack, err) : 0;
	case CALL_NAMES:
		return s->names ? s->names(s, c->a.names.v, c->a.names.n, c->a.names.in_order, err)
				: 0;
	}
	return 0;
}

/* A copied fact (body: the records after its header) made on sink. */
static int copied(enum rec_kind kind, const void *body, struct amd_sink *s, struct amd_err *err)
{
	const struct op_rec *o = body;
	switch (kind) {
	case REC_OP:
		return s->op_average ? s->op_average(s, o->name, o->role, o->rank, o->self_us, o->total_us,
						     o->calls, err)
				     : 0;
	case REC_GPU:
		return s->gpu_sample ? s->gpu_sample(s, body, err) : 0;
	case REC_STACK:
		return s->stack ? s->stack(s, body, err) : 0;
	case REC_EVENT:
		return s->trace_event ? s->trace_event(s, body, err) : 0;
	case REC_REGION:
		return s->region ? s->region(s, body, err) : 0;
	case REC_REGION_CALL:
		return s->region_call ? s->region_call(s, body, err) : 0;
	default:
		return 0;
	}
}

static int replay(const struct rec *r, struct amd_sink *sink, struct amd_err *err)
{
	if (r->key != OTHER)
		return sink->metric ? sink->metric(sink, r->key, r->u.pt.step, r->u.pt.ts, r->u.pt.v,
						   err)
				    : 0;
	switch (r->u.o.kind) {
	case REC_RUN:
		return sink->run ? sink->run(sink, r->u.o.u.run, err) : 0;
	case REC_PARAM:
		return sink->param ? sink->param(sink, r->u.o.key, r->u.o.u.value, err) : 0;
	case REC_TAG:
		return sink->tag ? sink->tag(sink, r->u.o.key, r->u.o.u.value, err) : 0;
	case REC_LINK:
		return sink->link ? sink->link(sink, r->u.o.u.link->ext_id, r->u.o.u.link->name,
					       r->u.o.u.link->sweep, err)
				  : 0;
	case REC_CALL:
		return call(r->u.o.u.call, sink, err);
	default:
		return copied(r->u.o.kind, r + 1, sink, err);
	}
}

int amd_queued_wait(void *state, int whole)
{
	struct amd_rq *q = ((struct queued *)state)->q;
	return whole ? amd_rq_wait_full(q) : amd_rq_wait_ready(q);
}

size_t amd_queued_held(void *state)
{
	return amd_rq_held(((struct queued *)state)->q);
}

int amd_queued_emit(void *state, struct amd_sink *sink, struct amd_err *err)
{
	struct queued *qs = state;
	const struct rec *r;
	while ((r = amd_rq_get(qs->q))) {
		if (replay(r, sink, err) < 0) {
			amd_rq_stop(qs->q);
			return -1;
		}
		if (r->key == OTHER && r->u.o.kind == REC_CALL)
			amd_rq_ack(qs->q);
		else if (r->key == OTHER && r->u.o.more)
			amd_rq_skip(qs->q, r->u.o.more);
	}
	pthread_join(qs->thread, NULL);
	qs->joined = 1;
	/* the queue ended: the thread set rc and err before it ended it */
	if (qs->rc != 0)
		*err = qs->err;
	return qs->rc;
}
