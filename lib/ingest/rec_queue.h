/* rec_queue.h — fixed-size records handed from one producer thread to
 * one consumer in chunks: at most max chunks exist at once (the producer
 * waits for the consumer to give one back), and a chunk the consumer is
 * done with is reused, so a stream of millions of records lives in a
 * few MB. A record may also be a call the producer waits on: it hands
 * over what it put and sleeps until the consumer acknowledges it
 * (amd_rq_call, amd_rq_ack). Used by queued_sink.c: every format's parse
 * on a second thread while the sink writes. */
#ifndef AMD_REC_QUEUE_H
#define AMD_REC_QUEUE_H

#include <stddef.h>

struct amd_rq;
/* rec bytes a record, per records a chunk, at most max chunks (0: no
 * limit); NULL when out of memory. */
struct amd_rq *amd_rq_new(size_t rec, size_t per, size_t max);
/* Producer: room for the next record; NULL when the consumer stopped
 * the queue or out of memory (amd_rq_stopped tells which). */
void *amd_rq_put(struct amd_rq *q);
int amd_rq_stopped(struct amd_rq *q);
/* Producer: room for n records side by side in one chunk (1 <= n <=
 * per), for a record larger than one; NULL as amd_rq_put, or when n is
 * out of range. */
void *amd_rq_put_n(struct amd_rq *q, size_t n);
/* Producer: hands over what was put (the last record a call) and waits
 * until the consumer has taken it and called amd_rq_ack; 0, or -1 when
 * the consumer stopped the queue first. */
int amd_rq_call(struct amd_rq *q);
/* Consumer: the call record last taken is done; its producer goes on. */
void amd_rq_ack(struct amd_rq *q);
/* Producer: no more records (what was put is handed over). */
void amd_rq_end(struct amd_rq *q);
/* Consumer: the next record, valid until the following call; NULL once
 * the producer ended and every record was taken. */
const void *amd_rq_get(struct amd_rq *q);
/* Consumer: takes the n records after the one amd_rq_get returned with
 * it (they were put with it by amd_rq_put_n). */
void amd_rq_skip(struct amd_rq *q, size_t n);
/* Consumer: waits until the producer ended, or every chunk of a bounded
 * queue is handed over and the producer waits for one back (the queue
 * is full), or the producer waits in amd_rq_call, or the queue was
 * stopped. 1 when the producer has neither ended nor waits in a call
 * (it waits for room), else 0. */
int amd_rq_wait_full(struct amd_rq *q);
/* Consumer: as amd_rq_wait_full, or until a first chunk is handed over;
 * 1 when the producer has neither ended nor waits in a call. */
int amd_rq_wait_ready(struct amd_rq *q);
/* The memory of the chunks the queue has made (they live until it is
 * freed; the region's in whole huge pages): what its records hold. */
size_t amd_rq_held(struct amd_rq *q);
/* Consumer: takes no more; a waiting producer's put returns NULL. */
void amd_rq_stop(struct amd_rq *q);
/* After both sides are done with it. NULL is allowed. */
void amd_rq_free(struct amd_rq *q);

#endif
