/* rec_queue.c — the producer/consumer chunk queue of rec_queue.h: one
 * mutex and one condition variable; the producer fills a chunk of its
 * own and publishes it whole, the consumer reads a chunk of its own, so
 * the lock is taken once a chunk, not once a record. A bounded queue's
 * chunks past its first four are cut from one region in huge pages
 * (huge_map.h), mapped when the fifth is needed and touched as they are
 * first used: 16 MB of chunks in 4 KB pages were 4,000 page faults, a
 * sixth of the parsing thread's CPU on a 1.2 M-point mlflow.db; the
 * first four come from malloc, so that the queue of a small input (every
 * unit has one) maps no huge page. */
#include "rec_queue.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "huge_map.h"

#define RQ_SMALL 4 /* chunks from malloc before the region is mapped */

struct chunk {
	struct chunk *next;
	size_t n;
	_Alignas(max_align_t) unsigned char data[];
};

struct amd_rq {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t rec, per, max, nchunks;
	unsigned char *region; /* chunks past RQ_SMALL, or NULL: malloc */
	size_t region_len, chunk_bytes;
	int no_region;         /* the region could not be mapped */
	struct chunk *head, *tail; /* published, oldest first */
	struct chunk *spare;       /* given back by the consumer */
	struct chunk *fill;        /* the producer's */
	struct chunk *cur;         /* the consumer's */
	size_t pos;
	int ended, stopped;
	int calling, acked; /* amd_rq_call's producer waits until acked */
};

struct amd_rq *amd_rq_new(size_t rec, size_t per, size_t max)
{
	struct amd_rq *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	q->rec = (rec + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t);
	q->per = per ? per : 1;
	q->max = max;
	q->chunk_bytes = sizeof(struct chunk) + q->rec * q->per;
	q->chunk_bytes = (q->chunk_bytes + 63) / 64 * 64;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv, NULL);
	return q;
}

/* The next new chunk: the first RQ_SMALL from malloc (a small input's
 * queue maps no huge page: every unit of a sweep has a queue), then the
 * region's, mapped when first needed (NULL there: malloc's). */
static struct chunk *new_chunk(struct amd_rq *q)
{
	if (q->nchunks >= RQ_SMALL && q->max && !q->region && !q->no_region &&
	    q->chunk_bytes <= SIZE_MAX / 2 / q->max) {
		q->region_len = (q->chunk_bytes * (q->max - RQ_SMALL) + AMD_HUGE_PAGE - 1) /
				AMD_HUGE_PAGE * AMD_HUGE_PAGE;
		q->region = amd_huge_alloc(q->region_len);
		q->no_region = !q->region;
	}
	if (q->region && q->nchunks >= RQ_SMALL)
		return (struct chunk *)(q->region + q->chunk_bytes * (q->nchunks - RQ_SMALL));
	return malloc(q->chunk_bytes);
}

/* c is one of the region's (not malloc's). */
static int in_region(const struct amd_rq *q, const struct chunk *c)
{
	const unsigned char *p = (const unsigned char *)c;
	return q->region && p >= q->region && p < q->region + q->region_len;
}

/* Under the lock: a chunk for the producer (a spare, or a new one while
 * fewer than max exist), waiting for the consumer otherwise. */
static struct chunk *take_chunk(struct amd_rq *q)
{
	while (!q->stopped && !q->spare && q->max && q->nchunks >= q->max)
		pthread_cond_wait(&q->cv, &q->mu);
	if (q->stopped)
		return NULL;
	struct chunk *c = q->spare;
	if (c)
		q->spare = c->next;
	else if ((c = new_chunk(q)))
		q->nchunks++;
	if (c) {
		c->next = NULL;
		c->n = 0;
	}
	return c;
}

/* Under the lock: the producer's chunk to the consumer. */
static void publish(struct amd_rq *q)
{
	struct chunk *c = q->fill;
	q->fill = NULL;
	if (!c)
		return;
	if (q->tail)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	pthread_cond_broadcast(&q->cv);
}

void *amd_rq_put(struct amd_rq *q)
{
	if (!q->fill || q->fill->n == q->per) {
		pthread_mutex_lock(&q->mu);
		if (q->fill)
			publish(q);
		q->fill = take_chunk(q);
		pthread_mutex_unlock(&q->mu);
		if (!q->fill)
			return NULL;
	}
	return q->fill->data + q->rec * q->fill->n++;
}

void *amd_rq_put_n(struct amd_rq *q, size_t n)
{
	if (n == 0 || n > q->per)
		return NULL;
	if (!q->fill || q->fill->n + n > q->per) {
		pthread_mutex_lock(&q->mu);
		if (q->fill)
			publish(q); /* a chunk's n says where its records end */
		q->fill = take_chunk(q);
		pthread_mutex_unlock(&q->mu);
		if (!q->fill)
			return NULL;
	}
	void *p = q->fill->data + q->rec * q->fill->n;
	q->fill->n += n;
	return p;
}

void amd_rq_skip(struct amd_rq *q, size_t n)
{
	q->pos += n;
}

int amd_rq_stopped(struct amd_rq *q)
{
	pthread_mutex_lock(&q->mu);
	int s = q->stopped;
	pthread_mutex_unlock(&q->mu);
	return s;
}

int amd_rq_call(struct amd_rq *q)
{
	pthread_mutex_lock(&q->mu);
	if (q->fill && q->fill->n)
		publish(q);
	q->calling = 1;
	q->acked = 0;
	pthread_cond_broadcast(&q->cv);
	while (!q->acked && !q->stopped)
		pthread_cond_wait(&q->cv, &q->mu);
	int rc = q->acked ? 0 : -1;
	q->calling = 0;
	pthread_mutex_unlock(&q->mu);
	return rc;
}

void amd_rq_ack(struct amd_rq *q)
{
	pthread_mutex_lock(&q->mu);
	q->acked = 1;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

void amd_rq_end(struct amd_rq *q)
{
	pthread_mutex_lock(&q->mu);
	if (q->fill && q->fill->n)
		publish(q);
	q->ended = 1;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

const void *amd_rq_get(struct amd_rq *q)
{
	if (q->cur && q->pos < q->cur->n)
		return q->cur->data + q->rec * q->pos++;
	pthread_mutex_lock(&q->mu);
	if (q->cur) { /* given back: the producer may be waiting for it */
		q->cur->next = q->spare;
		q->spare = q->cur;
		q->cur = NULL;
		pthread_cond_broadcast(&q->cv);
	}
	while (!q->head && !q->ended)
		pthread_cond_wait(&q->cv, &q->mu);
	if ((q->cur = q->head)) {
		q->head = q->cur->next;
		if (!q->head)
			q->tail = NULL;
		q->pos = 0;
	}
	pthread_mutex_unlock(&q->mu);
	return q->cur && q->cur->n ? q->cur->data + q->rec * q->pos++ : NULL;
}

/* Under the lock: every chunk of a bounded queue handed over, none back. */
static int full(const struct amd_rq *q)
{
	return q->max && q->nchunks >= q->max && !q->spare && !q->fill;
}

/* Waits until the producer ended, waits in a call, or the queue is full
 * (or, with any, holds a chunk handed over); 1 when the producer has
 * neither ended nor waits in a call: it still produces, or waits for room. */
static int wait_for(struct amd_rq *q, int any)
{
	pthread_mutex_lock(&q->mu);
	while (!q->ended && !q->stopped && !q->calling && !full(q) && !(any && q->head))
		pthread_cond_wait(&q->cv, &q->mu);
	int rc = !q->ended && !q->stopped && !q->calling;
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int amd_rq_wait_full(struct amd_rq *q)
{
	return wait_for(q, 0);
}

int amd_rq_wait_ready(struct amd_rq *q)
{
	return wait_for(q, 1);
}

size_t amd_rq_held(struct amd_rq *q)
{
	pthread_mutex_lock(&q->mu);
	size_t small = q->nchunks < RQ_SMALL ? q->nchunks : RQ_SMALL;
	size_t big = (q->nchunks - small) * q->chunk_bytes;
	if (q->region) /* touched in huge pages */
		big = (big + AMD_HUGE_PAGE - 1) / AMD_HUGE_PAGE * AMD_HUGE_PAGE;
	pthread_mutex_unlock(&q->mu);
	return small * q->chunk_bytes + big;
}

void amd_rq_stop(struct amd_rq *q)
{
	pthread_mutex_lock(&q->mu);
	q->stopped = 1;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
}

static void free_chunk(struct amd_rq *q, struct chunk *c)
{
	if (c && !in_region(q, c))
		free(c);
}

static void free_list(struct amd_rq *q, struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;
		free_chunk(q, c);
		c = next;
	}
}

void amd_rq_free(struct amd_rq *q)
{
	if (!q)
		return;
	free_list(q, q->head);
	free_list(q, q->spare);
	free_chunk(q, q->fill);
	free_chunk(q, q->cur);
	amd_huge_free(q->region, q->region_len);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->cv);
	free(q);
}
