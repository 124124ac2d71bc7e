/* trace_pipe.c — the aggregator's thread of trace_pipe.h. Batches of
 * events cycle through a ring of NSLOT slots: the reader's thread fills
 * one (the event copied, its strings appended to the batch's text), the
 * aggregator's thread empties the oldest full one; the lock is taken once
 * a batch, not once an event. Until the thread starts, events go
 * straight to the aggregator. */
#include "trace_pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine_overlap.h"

#define NSLOT 4
#define NBATCH 512
#define NFIELD 6
#define THREAD_AFTER 8192 /* events */

struct batch {
	struct amd_trace_event ev[NBATCH];
	size_t n;
	char *text; /* the events' strings, each NUL-terminated, in field order */
	size_t used, cap;
};

enum mode { UNDECIDED, THREADED, INLINE };

struct amd_trace_pipe {
	struct amd_trace_agg *agg;
	struct batch *slot[NSLOT];
	int fill;  /* the reader's slot */
	int take;  /* the oldest full slot */
	int full;  /* slots handed to the aggregator and not yet emptied */
	int ended; /* no more batches: the thread ends when none is full */
	int stop;  /* full batches are dropped */
	int failed;
	enum mode mode;
	size_t events; /* handed on so far, until the thread starts */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* The i-th string field of e (its pointer; *len its length). */
static const char **field(struct amd_trace_event *e, int i, size_t **len)
{
	switch (i) {
	case 0: *len = &e->name_len; return &e->name;
	case 1: *len = &e->cat_len; return &e->cat;
	case 2: *len = &e->pid_len; return &e->pid;
	case 3: *len = &e->tid_len; return &e->tid;
	case 4: *len = &e->dtype_len; return &e->dtype;
	default: *len = &e->coll_name_len; return &e->coll_name;
	}
}

static int batch_put(struct batch *b, const struct amd_trace_event *e)
{
	struct amd_trace_event *d = &b->ev[b->n];
	*d = *e;
	for (int i = 0; i < NFIELD; i++) {
		size_t *len;
		const char **s = field(d, i, &len);
		if (!*s)
			continue;
		if (amd_grow_to(&b->text, b->used + *len + 1, &b->cap, 1, 1 << 16) < 0)
			return -1;
		memcpy(b->text + b->used, *s, *len);
		b->text[b->used + *len] = '\0';
		b->used += *len + 1;
	}
	b->n++;
	return 0;
}

/* Every event of b into agg, in order (strings pointed at b's text);
 * b is then empty. */
static int batch_drain(struct batch *b, struct amd_trace_agg *agg)
{
	size_t at = 0;
	int rc = 0;
	for (size_t k = 0; k < b->n; k++) {
		struct amd_trace_event *e = &b->ev[k];
		for (int i = 0; i < NFIELD; i++) {
			size_t *len;
			const char **s = field(e, i, &len);
			if (*s) {
				*s = b->text + at;
				at += *len + 1;
			}
		}
		if (rc == 0 && amd_trace_agg_event(agg, e) < 0)
			rc = -1;
	}
	b->n = b->used = 0;
	return rc;
}

static void *drain_loop(void *arg)
{
	struct amd_trace_pipe *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->full && !p->ended)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->full)
			break;
		struct batch *b = p->slot[p->take];
		int skip = p->stop || p->failed;
		pthread_mutex_unlock(&p->mu);
		int rc = 0;
		if (skip)
			b->n = b->used = 0;
		else
			rc = batch_drain(b, p->agg);
		pthread_mutex_lock(&p->mu);
		p->failed |= rc < 0;
		p->take = (p->take + 1) % NSLOT;
		p->full--;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct amd_trace_pipe *amd_trace_pipe_new(struct amd_trace_agg *agg)
{
	struct amd_trace_pipe *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->agg = agg;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	return p;
}

/* Past the first THREAD_AFTER events: the thread, unless AMDAHL_OVERLAP=0
 * asks for one thread or it cannot start. */
static void decide(struct amd_trace_pipe *p)
{
	p->mode = INLINE;
	if (!amd_overlap_allowed())
		return;
	if (!(p->slot[0] = calloc(1, sizeof *p->slot[0])))
		return;
	if (pthread_create(&p->th, NULL, drain_loop, p) == 0)
		p->mode = THREADED;
}

/* The reader's batch to the aggregator's thread. */
static void publish(struct amd_trace_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->full++;
	p->fill = (p->fill + 1) % NSLOT;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* The full batch in the reader's slot to the aggregator; the reader then
 * gets the next slot once it is free. */
static int hand_on(struct amd_trace_pipe *p)
{
	publish(p);
	pthread_mutex_lock(&p->mu);
	while (p->full == NSLOT)
		pthread_cond_wait(&p->cv, &p->mu);
	int failed = p->failed;
	pthread_mutex_unlock(&p->mu);
	if (!p->slot[p->fill] && !(p->slot[p->fill] = calloc(1, sizeof *p->slot[0])))
		return -1;
	return failed ? -1 : 0;
}

int amd_trace_pipe_event(struct amd_trace_pipe *p, const struct amd_trace_event *e)
{
	if (p->mode == UNDECIDED && ++p->events > THREAD_AFTER)
		decide(p);
	if (p->mode != THREADED)
		return amd_trace_agg_event(p->agg, e);
	struct batch *b = p->slot[p->fill];
	if (batch_put(b, e) < 0)
		return -1;
	return b->n == NBATCH ? hand_on(p) : 0;
}

static void join(struct amd_trace_pipe *p, int stop)
{
	pthread_mutex_lock(&p->mu);
	p->ended = 1;
	p->stop |= stop;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	p->mode = INLINE;
}

int amd_trace_pipe_finish(struct amd_trace_pipe *p)
{
	if (p->mode != THREADED)
		return 0;
	if (p->slot[p->fill]->n)
		publish(p);
	join(p, 0);
	return p->failed ? -1 : 0;
}

void amd_trace_pipe_free(struct amd_trace_pipe *p)
{
	if (!p)
		return;
	if (p->mode == THREADED)
		join(p, 1);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	for (int i = 0; i < NSLOT; i++) {
		if (p->slot[i])
			free(p->slot[i]->text);
		free(p->slot[i]);
	}
	free(p);
}
