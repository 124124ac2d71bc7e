/* queued_sink.c — the queueing sink and its replay (queued_sink.h). A
 * record is 32 bytes; the queue holds at most 48 chunks of 8,192 (12 MB)
 * and its chunks are reused, so millions of points pass through a few MB
 * of memory that is already mapped. Strings are interned in the parsing
 * thread's table (trace_strtab.h), whose strings stay put until drop; a
 * run's record is copied whole into memory of its own. */
#include "queued_sink.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rec_queue.h"
#include "trace_strtab.h"

enum rec_kind { REC_RUN, REC_PARAM, REC_TAG, REC_LINK }; /* a point: key != OTHER */

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
			const char *key; /* param or tag key */
			union {
				const struct amd_run_rec *run;
				const struct held_link *link;
				const char *value;
			} u;
		} o;
	} u;
};
static const char OTHER[] = "";
_Static_assert(sizeof(struct rec) == 32, "a record is 32 bytes (rec_queue rounds to 16)");

struct queued {
	amd_parse_fn parse;
	struct amd_input in;
	struct amd_rq *q;
	struct amd_strtab str;
	struct held_run *runs;
	struct held_link *links;
	const char *last_key; /* the last key interned: points come in runs of one key */
	pthread_t thread;
	int threaded;
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
	if (key && qs->last_key && strcmp(key, qs->last_key) == 0) {
		*out = qs->last_key;
		return 0;
	}
	if (intern(qs, key, out) < 0)
		return amd_fail(err, "%s: out of memory", qs->in.path);
	if (key)
		qs->last_key = *out;
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
	    intern(qs, r->parent_ext_id, &h->r.parent_ext_id) < 0)
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

/* The parsing thread: the whole input into the queue, then the result. */
static void *parse_all(void *arg)
{
	struct queued *qs = arg;
	struct amd_sink sink = {.ctx = qs, .run = q_run, .param = q_param, .tag = q_tag,
				.metric = q_metric, .link = q_link};
	qs->rc = qs->parse(&qs->in, &sink, &qs->err);
	amd_rq_end(qs->q);
	return NULL;
}

void amd_queued_drop(void *state)
{
	struct queued *qs = state;
	if (!qs)
		return;
	amd_rq_stop(qs->q);
	if (qs->threaded)
		pthread_join(qs->thread, NULL);
	amd_rq_free(qs->q);
	amd_strtab_free(&qs->str);
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

int amd_queued_read(amd_parse_fn parse, const struct amd_input *in, void **state,
		    struct amd_err *err)
{
	struct queued *qs = calloc(1, sizeof *qs);
	if (!qs || !(qs->q = amd_rq_new(sizeof(struct rec), 8192, 48))) {
		free(qs);
		return amd_fail(err, "%s: out of memory", in->path);
	}
	qs->parse = parse;
	qs->in = *in;
	if (pthread_create(&qs->thread, NULL, parse_all, qs) == 0) {
		qs->threaded = 1;
	} else {
		amd_rq_free(qs->q);
		if (!(qs->q = amd_rq_new(sizeof(struct rec), 8192, 0))) {
			free(qs);
			return amd_fail(err, "%s: out of memory", in->path);
		}
		parse_all(qs);
	}
	*state = qs;
	return 0;
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
	}
	return 0;
}

void amd_queued_wait(void *state)
{
	amd_rq_wait_full(((struct queued *)state)->q);
}

int amd_queued_emit(void *state, const struct amd_input *in, struct amd_sink *sink,
		    struct amd_err *err)
{
	(void)in;
	struct queued *qs = state;
	const struct rec *r;
	while ((r = amd_rq_get(qs->q)))
		if (replay(r, sink, err) < 0) {
			amd_rq_stop(qs->q);
			return -1;
		}
	/* the queue ended: the thread set rc and err before it ended it */
	if (qs->rc != 0)
		*err = qs->err;
	return qs->rc;
}
