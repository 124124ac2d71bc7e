/* trace_par.c — the worker pool of trace_par.h and its event lists. The
 * pool holds NSLOT pieces per worker; each piece is free, being filled
 * by the reader, queued, parsed, or done; a queued piece carries a
 * sequence number, workers take the lowest and the reader takes pieces
 * back in sequence order; while the oldest is not parsed yet the reader
 * parses queued pieces itself. One mutex and one condition for all. */
#include "trace_par.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"

#define SLOTS_PER_WORKER 3
#define MAX_WORKERS 16

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

/* With the lock held: parses queued piece s without the lock, marks it
 * done and wakes whoever waits for it (a worker's or the reader's turn). */
static void parse_unlocked(struct amd_trace_par *p, struct slot *s)
{
	s->state = PARSING;
	pthread_mutex_unlock(&p->mu);
	p->fn(p->ctx, &s->pc);
	pthread_mutex_lock(&p->mu);
	s->state = DONE;
	pthread_cond_broadcast(&p->cv);
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
		parse_unlocked(p, s);
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
	parse_unlocked(p, s);
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

uint64_t amd_trace_json_bytes(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	if (fd < 0)
		return 0;
	uint64_t size = fstat(fd, &sb) == 0 && sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
	unsigned char magic[2], tail[4];
	if (size >= 18 && pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b &&
	    pread(fd, tail, 4, (off_t)size - 4) == 4) {
		uint64_t isize = (uint64_t)tail[0] | (uint64_t)tail[1] << 8 |
				 (uint64_t)tail[2] << 16 | (uint64_t)tail[3] << 24;
		size = isize > size ? isize : size;
	}
	close(fd);
	return size;
}

int amd_trace_par_workers(const char *path)
{
	const char *env = getenv("AMDAHL_TRACE_WORKERS");
	if (env && *env) {
		long v = strtol(env, NULL, 10);
		return v < 1 ? 1 : v > MAX_WORKERS ? MAX_WORKERS : (int)v;
	}
	if (amd_trace_json_bytes(path) < AMD_TRACE_PAR_MIN_BYTES)
		return 1;
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	int n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}
