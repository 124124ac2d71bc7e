/* trace_par.c — the worker pool of trace_par.h and its event lists. The
 * pool holds NSLOT pieces per worker; each piece is free, being filled
 * by the reader, queued, parsed, or done; a queued piece carries a
 * sequence number, workers take the lowest and the reader takes pieces
 * back in sequence order; while the oldest is not parsed yet the reader
 * parses queued pieces itself. One mutex and one condition for all. */
#include "trace_par.h"

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define SLOTS_PER_WORKER 3
#define MAX_WORKERS 16
#define NFIELD 6

enum state { FREE, FILLING, QUEUED, PARSING, DONE };

struct slot {
	struct amd_trace_piece pc;
	enum state state;
	uint64_t seq;
};

struct amd_trace_par {
	amd_trace_piece_fn fn;
	void *ctx;
	int nworkers, started, stop;
	struct slot *slot;
	int nslot;
	uint64_t next_seq, next_back; /* sequence numbers: next queued, next taken back */
	pthread_t th[MAX_WORKERS];
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

int amd_trace_evlist_put(struct amd_trace_evlist *l, const struct amd_trace_event *e)
{
	if (amd_grow_to((char **)&l->ev, l->n + 1, &l->cap, sizeof *l->ev, 1024) < 0)
		return -1;
	struct amd_trace_event *d = &l->ev[l->n];
	*d = *e;
	for (int i = 0; i < NFIELD; i++) {
		size_t *len;
		const char **s = field(d, i, &len);
		if (!*s)
			continue;
		if (amd_grow_to(&l->text, l->used + *len + 1, &l->text_cap, 1, 1 << 16) < 0)
			return -1;
		memcpy(l->text + l->used, *s, *len);
		l->text[l->used + *len] = '\0';
		l->used += *len + 1;
	}
	l->n++;
	return 0;
}

int amd_trace_evlist_replay(struct amd_trace_evlist *l, struct amd_trace_agg *agg)
{
	size_t at = 0;
	int rc = 0;
	for (size_t k = 0; k < l->n && rc == 0; k++) {
		struct amd_trace_event *e = &l->ev[k];
		for (int i = 0; i < NFIELD; i++) {
			size_t *len;
			const char **s = field(e, i, &len);
			if (*s) {
				*s = l->text + at;
				at += *len + 1;
			}
		}
		rc = amd_trace_agg_event(agg, e);
	}
	l->n = l->used = 0;
	return rc;
}

void amd_trace_evlist_free(struct amd_trace_evlist *l)
{
	free(l->ev);
	free(l->text);
	memset(l, 0, sizeof *l);
}

int amd_trace_piece_append(struct amd_trace_piece *pc, const unsigned char *p, size_t n)
{
	if (n == 0) /* nothing, and buf may still be NULL */
		return 0;
	if (amd_grow_to((char **)&pc->buf, pc->len + n, &pc->cap, 1, 1 << 20) < 0)
		return -1;
	memcpy(pc->buf + pc->len, p, n);
	pc->len += n;
	return 0;
}

/* The queued slot with the lowest sequence number, or NULL. */
static struct slot *next_queued(struct amd_trace_par *p)
{
	struct slot *best = NULL;
	for (int i = 0; i < p->nslot; i++)
		if (p->slot[i].state == QUEUED && (!best || p->slot[i].seq < best->seq))
			best = &p->slot[i];
	return best;
}

static void *work(void *arg)
{
	struct amd_trace_par *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct slot *s = NULL;
		while (!p->stop && !(s = next_queued(p)))
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop)
			break;
		s->state = PARSING;
		pthread_mutex_unlock(&p->mu);
		p->fn(p->ctx, &s->pc);
		pthread_mutex_lock(&p->mu);
		s->state = DONE;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* With the lock held, while the reader waits for the oldest piece: it
 * parses the next queued one itself, if any (on a loaded machine a
 * worker may wait long for a core; the reader never sleeps while there
 * is work). 1 when it parsed one. */
static int help(struct amd_trace_par *p)
{
	struct slot *s = next_queued(p);
	if (!s)
		return 0;
	s->state = PARSING;
	pthread_mutex_unlock(&p->mu);
	p->fn(p->ctx, &s->pc);
	pthread_mutex_lock(&p->mu);
	s->state = DONE;
	pthread_cond_broadcast(&p->cv);
	return 1;
}

struct amd_trace_par *amd_trace_par_new(int nworkers, amd_trace_piece_fn fn, void *ctx)
{
	struct amd_trace_par *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->fn = fn;
	p->ctx = ctx;
	p->nworkers = nworkers < 1 ? 1 : nworkers > MAX_WORKERS ? MAX_WORKERS : nworkers;
	p->nslot = p->nworkers * SLOTS_PER_WORKER + 1; /* +1: the piece being filled */
	p->slot = calloc((size_t)p->nslot, sizeof *p->slot);
	if (!p->slot) {
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	return p;
}

struct amd_trace_piece *amd_trace_par_piece(struct amd_trace_par *p)
{
	struct amd_trace_piece *pc = NULL;
	pthread_mutex_lock(&p->mu);
	for (int i = 0; i < p->nslot && !pc; i++)
		if (p->slot[i].state == FREE) {
			p->slot[i].state = FILLING;
			pc = &p->slot[i].pc;
		}
	pthread_mutex_unlock(&p->mu);
	return pc;
}

static struct slot *slot_of(struct amd_trace_piece *pc)
{
	return (struct slot *)((char *)pc - offsetof(struct slot, pc));
}

static int start_workers(struct amd_trace_par *p)
{
	for (; p->started < p->nworkers; p->started++)
		if (pthread_create(&p->th[p->started], NULL, work, p) != 0)
			break;
	return p->started > 0 ? 0 : -1;
}

int amd_trace_par_submit(struct amd_trace_par *p, struct amd_trace_piece *pc)
{
	if (!p->started && start_workers(p) < 0)
		return -1;
	struct slot *s = slot_of(pc);
	pthread_mutex_lock(&p->mu);
	s->seq = p->next_seq++;
	s->state = QUEUED;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return 0;
}

struct amd_trace_piece *amd_trace_par_oldest(struct amd_trace_par *p)
{
	struct slot *s = NULL;
	pthread_mutex_lock(&p->mu);
	if (p->next_back < p->next_seq) {
		for (int i = 0; i < p->nslot && !s; i++)
			if (p->slot[i].state >= QUEUED && p->slot[i].seq == p->next_back)
				s = &p->slot[i];
		while (s->state != DONE)
			if (!help(p))
				pthread_cond_wait(&p->cv, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return s ? &s->pc : NULL;
}

void amd_trace_par_release(struct amd_trace_par *p, struct amd_trace_piece *pc)
{
	struct slot *s = slot_of(pc);
	pthread_mutex_lock(&p->mu);
	if (s->state == DONE)
		p->next_back++;
	s->state = FREE;
	pc->len = 0;
	pc->n_events = 0;
	pc->kineto = pc->accel = pc->blank = pc->failed = 0;
	pthread_mutex_unlock(&p->mu);
}

void amd_trace_par_free(struct amd_trace_par *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->started; i++)
		pthread_join(p->th[i], NULL);
	for (int i = 0; i < p->nslot; i++) {
		free(p->slot[i].pc.buf);
		amd_trace_evlist_free(&p->slot[i].pc.events);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p->slot);
	free(p);
}

int amd_trace_par_workers(void)
{
	const char *env = getenv("AMDAHL_TRACE_WORKERS");
	if (env && *env) {
		long v = strtol(env, NULL, 10);
		return v < 1 ? 1 : v > MAX_WORKERS ? MAX_WORKERS : (int)v;
	}
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	int n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}
