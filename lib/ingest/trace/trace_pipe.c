/* trace_pipe.c — the aggregator's thread of trace_pipe.h. Batches of
 * events cycle through a ring of NSLOT slots: the reader's thread fills
 * one (an event list, trace_evlist.h), the
 * aggregator's thread empties the oldest full one; the lock is taken once
 * a batch, not once an event. Until the thread starts, events go
 * straight to the aggregator. */
#include "trace_pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine_overlap.h"
#include "trace_evlist.h"

#define NSLOT 4
#define NBATCH 512
#define THREAD_AFTER 8192 /* events */

enum mode { UNDECIDED, THREADED, INLINE };

struct amd_trace_pipe {
	struct amd_trace_agg *agg;
	struct amd_trace_evlist *slot[NSLOT];
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

static void *drain_loop(void *arg)
{
	struct amd_trace_pipe *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->full && !p->ended)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->full)
			break;
		struct amd_trace_evlist *b = p->slot[p->take];
		int skip = p->stop || p->failed;
		pthread_mutex_unlock(&p->mu);
		int rc = 0;
		if (skip)
			amd_trace_evlist_clear(b);
		else
			rc = amd_trace_evlist_replay(b, p->agg);
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
	struct amd_trace_evlist *b = p->slot[p->fill];
	if (amd_trace_evlist_put(b, e) < 0)
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
			amd_trace_evlist_free(p->slot[i]);
		free(p->slot[i]);
	}
	free(p);
}
