/* test_rec_queue.c — the producer/consumer record queue (lib/ingest/
 * rec_queue.h): records arrive in order and whole across threads, the
 * producer never runs more than max chunks ahead, stopping releases a
 * producer waiting for room, an unbounded queue works on one thread,
 * amd_rq_wait_full returns once the queue is full, the producer ended or
 * waits in a call, records of several slots (amd_rq_put_n, amd_rq_skip)
 * and calls (amd_rq_call, amd_rq_ack) keep their order past the chunks
 * from malloc into the huge-page region. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "rec_queue.h"

#define PER 100
#define MAX 3
#define N 200000

struct rec {
	uint64_t i, twice;
};

struct producer {
	struct amd_rq *q;
	uint64_t limit; /* records to put (UINT64_MAX: until refused) */
	atomic_ulong made;
	int refused, stopped;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	for (uint64_t i = 0; i < p->limit; i++) {
		struct rec *r = amd_rq_put(p->q);
		if (!r) {
			p->refused = 1;
			p->stopped = amd_rq_stopped(p->q);
			break;
		}
		r->i = i;
		r->twice = 2 * i;
		atomic_fetch_add(&p->made, 1);
	}
	amd_rq_end(p->q);
	return NULL;
}

/* p->q bounded to MAX chunks, filled by produce() on a thread of its own */
static pthread_t start_producer(struct producer *p)
{
	p->q = amd_rq_new(sizeof(struct rec), PER, MAX);
	assert_non_null(p->q);
	atomic_init(&p->made, 0);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, produce, p), 0);
	return t;
}

static void in_order_within_the_bound(void **state)
{
	(void)state;
	struct producer p = {.limit = N};
	pthread_t t = start_producer(&p);
	uint64_t got = 0;
	const struct rec *r;
	while ((r = amd_rq_get(p.q))) {
		assert_int_equal(r->i, got);
		assert_int_equal(r->twice, 2 * got);
		got++;
		/* what was put and not yet taken fits in MAX chunks */
		assert_true(atomic_load(&p.made) - got <= (uint64_t)PER * MAX);
	}
	pthread_join(t, NULL);
	assert_int_equal(got, N);
	assert_int_equal(p.refused, 0);
	assert_null(amd_rq_get(p.q));
	amd_rq_free(p.q);
}

static void stop_releases_a_waiting_producer(void **state)
{
	(void)state;
	struct producer p = {.limit = UINT64_MAX};
	pthread_t t = start_producer(&p);
	for (uint64_t i = 0; i < 5; i++) {
		const struct rec *r = amd_rq_get(p.q);
		assert_non_null(r);
		assert_int_equal(r->i, i);
	}
	amd_rq_stop(p.q);
	pthread_join(t, NULL); /* would hang if the producer kept waiting */
	assert_int_equal(p.refused, 1);
	assert_int_equal(p.stopped, 1);
	assert_true(atomic_load(&p.made) <= (uint64_t)PER * MAX);
	amd_rq_free(p.q);
}

static void unbounded_on_one_thread(void **state)
{
	(void)state;
	struct producer p = {.q = amd_rq_new(sizeof(struct rec), PER, 0), .limit = 10 * PER + 7};
	assert_non_null(p.q);
	atomic_init(&p.made, 0);
	produce(&p);
	assert_int_equal(p.refused, 0);
	uint64_t got = 0;
	const struct rec *r;
	while ((r = amd_rq_get(p.q)))
		assert_int_equal(r->i, got++);
	assert_int_equal(got, 10 * PER + 7);
	amd_rq_free(p.q);
}

/* The consumer waits without taking: it returns when MAX chunks are
 * handed over and the producer waits for room — every record it can put
 * is put, none is taken. */
static void wait_full_returns_when_the_producer_waits(void **state)
{
	(void)state;
	struct producer p = {.limit = UINT64_MAX};
	pthread_t t = start_producer(&p);
	amd_rq_wait_full(p.q);
	assert_int_equal(atomic_load(&p.made), (uint64_t)PER * MAX);
	for (uint64_t i = 0; i < (uint64_t)PER * MAX; i++) {
		const struct rec *r = amd_rq_get(p.q);
		assert_non_null(r);
		assert_int_equal(r->i, i);
	}
	amd_rq_stop(p.q);
	pthread_join(t, NULL);
	amd_rq_free(p.q);
}

/* Fewer records than a chunk: it returns when the producer ended, with
 * all of them there. */
static void wait_full_returns_at_the_end(void **state)
{
	(void)state;
	struct producer p = {.limit = PER / 2};
	pthread_t t = start_producer(&p);
	amd_rq_wait_full(p.q);
	assert_int_equal(atomic_load(&p.made), PER / 2);
	uint64_t got = 0;
	while (amd_rq_get(p.q))
		got++;
	assert_int_equal(got, PER / 2);
	pthread_join(t, NULL);
	amd_rq_free(p.q);
}

/* A wide record: its first slot says how many follow; every slot holds
 * the record's number. A call: slot count 0, the producer waits. */
#define WIDE_N 50000
#define WIDE_MAX 16 /* chunks: past the first four (malloc) into the region */
struct wide {
	struct amd_rq *q;
	atomic_long seen; /* the consumer's last record taken */
	int call_rc;
};

static void *produce_wide(void *arg)
{
	struct wide *w = arg;
	for (uint64_t i = 0; i < WIDE_N; i++) {
		size_t more = i % 1000 == 999 ? 0 : i % 5;
		struct rec *r = amd_rq_put_n(w->q, 1 + more);
		if (!r)
			break;
		for (size_t k = 0; k <= more; k++)
			r[k] = (struct rec){.i = i, .twice = k == 0 ? (more ? more : UINT64_MAX) : 2 * i};
		if (r->twice == UINT64_MAX && (w->call_rc |= amd_rq_call(w->q)) == 0 &&
		    atomic_load(&w->seen) != (long)i)
			w->call_rc = -2; /* went on before the consumer took the call */
	}
	amd_rq_end(w->q);
	return NULL;
}

static void wide_records_and_calls_in_order(void **state)
{
	(void)state;
	struct wide w = {.q = amd_rq_new(sizeof(struct rec), PER, WIDE_MAX)};
	assert_non_null(w.q);
	atomic_init(&w.seen, -1);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, produce_wide, &w), 0);
	const struct rec *r;
	uint64_t want = 0;
	while ((r = amd_rq_get(w.q))) {
		assert_int_equal(r->i, want);
		atomic_store(&w.seen, (long)want);
		if (r->twice == UINT64_MAX) {
			amd_rq_ack(w.q);
		} else {
			for (size_t k = 1; k <= r->twice; k++)
				assert_int_equal(r[k].twice, 2 * want);
			amd_rq_skip(w.q, r->twice);
		}
		want++;
	}
	pthread_join(t, NULL);
	assert_int_equal(want, WIDE_N);
	assert_int_equal(w.call_rc, 0);
	amd_rq_free(w.q);
}

static void *call_once(void *arg)
{
	struct wide *w = arg;
	struct rec *r = amd_rq_put(w->q);
	if (r)
		*r = (struct rec){.i = 7, .twice = UINT64_MAX};
	w->call_rc = r ? amd_rq_call(w->q) : -1;
	amd_rq_end(w->q);
	return NULL;
}

/* A producer waiting in a call is not waiting for room: wait_full
 * returns (0: it neither ended nor waits for room) with the call there;
 * stopping the queue releases the producer with -1. */
static void wait_full_returns_when_the_producer_calls(void **state)
{
	(void)state;
	struct wide w = {.q = amd_rq_new(sizeof(struct rec), PER, MAX)};
	assert_non_null(w.q);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, call_once, &w), 0);
	assert_int_equal(amd_rq_wait_full(w.q), 0);
	const struct rec *r = amd_rq_get(w.q);
	assert_non_null(r);
	assert_int_equal(r->i, 7);
	amd_rq_stop(w.q);
	pthread_join(t, NULL);
	assert_int_equal(w.call_rc, -1);
	amd_rq_free(w.q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order_within_the_bound),
		cmocka_unit_test(stop_releases_a_waiting_producer),
		cmocka_unit_test(unbounded_on_one_thread),
		cmocka_unit_test(wait_full_returns_when_the_producer_waits),
		cmocka_unit_test(wait_full_returns_at_the_end),
		cmocka_unit_test(wide_records_and_calls_in_order),
		cmocka_unit_test(wait_full_returns_when_the_producer_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
