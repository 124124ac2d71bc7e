/* region_scan.c — rs_scan (region_scan.h): a scan's rows copied here,
 * handed in batches through a ring of NBUF to one consumer thread. */
#include "region_scan.h"

#include <pthread.h>
#include <stdlib.h>

#define BATCH 1024 /* rows a batch */
#define NBUF 4     /* batches in the ring */

struct ring {
	struct rs_row *buf;  /* NBUF batches of BATCH rows */
	size_t len[NBUF];
	size_t head, tail;   /* batches handed over, batches consumed */
	int done, failed;
	rs_consume fn;
	void *ctx;
	pthread_mutex_t mu;
	pthread_cond_t can_fill, can_take;
};

void rs_read(sqlite3_stmt *q, int ncols, struct rs_row *r)
{
	r->null = 0;
	for (int i = 0; i < ncols; i++) {
		r->v[i] = sqlite3_column_int64(q, i);
		/* a NULL reads as 0: the type asked only of a 0 */
		if (r->v[i] == 0 && sqlite3_column_type(q, i) == SQLITE_NULL)
			r->null |= 1u << i;
	}
}

static void *consumer(void *arg)
{
	struct ring *g = arg;
	pthread_mutex_lock(&g->mu);
	for (;;) {
		while (g->head == g->tail && !g->done)
			pthread_cond_wait(&g->can_take, &g->mu);
		if (g->head == g->tail)
			break;
		size_t k = g->tail % NBUF;
		int failed = g->failed;
		pthread_mutex_unlock(&g->mu);
		int rc = failed ? -1 : g->fn(g->ctx, g->buf + k * BATCH, g->len[k]);
		pthread_mutex_lock(&g->mu);
		g->failed |= rc < 0;
		g->tail++;
		pthread_cond_signal(&g->can_fill);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/* Hands the batch being filled (n rows) over and waits for a free one;
 * -1 when the consumer failed. */
static int hand_over(struct ring *g, size_t n)
{
	pthread_mutex_lock(&g->mu);
	g->len[g->head % NBUF] = n;
	g->head++;
	pthread_cond_signal(&g->can_take);
	while (g->head - g->tail == NBUF && !g->failed)
		pthread_cond_wait(&g->can_fill, &g->mu);
	int failed = g->failed;
	pthread_mutex_unlock(&g->mu);
	return failed ? -1 : 0;
}

/* rs_scan on this thread alone: one batch at a time. */
static int scan_here(sqlite3_stmt *q, int ncols, rs_consume fn, void *ctx, struct rs_row *b)
{
	size_t n = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		rs_read(q, ncols, &b[n++]);
		if (n == BATCH && fn(ctx, b, n) < 0)
			return SQLITE_NOMEM;
		n = n == BATCH ? 0 : n;
	}
	return n && fn(ctx, b, n) < 0 ? SQLITE_NOMEM : rc;
}

static int scan_two(sqlite3_stmt *q, int ncols, struct ring *g)
{
	size_t n = 0;
	int rc;
	struct rs_row *b = g->buf;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		rs_read(q, ncols, &b[n++]);
		if (n < BATCH)
			continue;
		if (hand_over(g, n) < 0)
			return SQLITE_NOMEM;
		n = 0;
		b = g->buf + (g->head % NBUF) * BATCH; /* free: hand_over waited */
	}
	if (n && hand_over(g, n) < 0)
		return SQLITE_NOMEM;
	return rc;
}

int rs_scan(sqlite3_stmt *q, int ncols, rs_consume fn, void *ctx)
{
	struct ring g = { .fn = fn, .ctx = ctx };
	g.buf = malloc((size_t)NBUF * BATCH * sizeof *g.buf);
	if (!g.buf)
		return SQLITE_NOMEM;
	pthread_t th;
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.can_fill, NULL);
	pthread_cond_init(&g.can_take, NULL);
	int rc;
	if (pthread_create(&th, NULL, consumer, &g) != 0) {
		rc = scan_here(q, ncols, fn, ctx, g.buf);
	} else {
		rc = scan_two(q, ncols, &g);
		pthread_mutex_lock(&g.mu);
		g.done = 1;
		pthread_cond_signal(&g.can_take);
		pthread_mutex_unlock(&g.mu);
		pthread_join(th, NULL);
		if (g.failed)
			rc = SQLITE_NOMEM;
	}
	pthread_cond_destroy(&g.can_fill);
	pthread_cond_destroy(&g.can_take);
	pthread_mutex_destroy(&g.mu);
	free(g.buf);
	return rc;
}
