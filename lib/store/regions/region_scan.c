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

/* A scan under way: the batch being filled, handed over when full (to
 * the consumer thread, or to fn here when there is none). */
struct scan {
	struct ring *g;      /* NULL: no consumer thread */
	rs_consume fn;       /* without one: called here */
	void *ctx;
	struct rs_row *b;    /* the batch being filled */
	size_t n;            /* its rows */
	int ncols, failed;
};

/* The batch being filled, full or last (n rows), to its consumer and a
 * free one in s->b; -1 when the consumer failed. */
static int flush(struct scan *s)
{
	struct ring *g = s->g;
	if (!g) {
		int rc = s->fn(s->ctx, s->b, s->n);
		s->n = 0;
		return rc;
	}
	if (hand_over(g, s->n) < 0)
		return -1;
	s->n = 0;
	s->b = g->buf + (g->head % NBUF) * BATCH; /* free: hand_over waited */
	return 0;
}

/* amd_region_scan(RS_ARG, c0, c1, ...): the row's columns into the scan's
 * batch; NULL (count() counts none). Called by SQLite for every row of
 * the scan's one sqlite3_step, so the columns are read as values, not
 * through sqlite3_column_* — a third of the stepping thread's time. */
static void scan_row(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct scan *s = sqlite3_get_auxdata(cx, 0); /* kept for the scan's rows */
	if (!s && (s = sqlite3_value_pointer(argv[0], "amd_region_scan")) != NULL)
		sqlite3_set_auxdata(cx, 0, s, NULL);
	if (!s || argc - 1 != s->ncols) {
		sqlite3_result_error(cx, "amd_region_scan: not a region scan", -1);
		return;
	}
	struct rs_row *r = &s->b[s->n++];
	r->null = 0;
	for (int i = 0; i < s->ncols; i++) {
		r->v[i] = sqlite3_value_int64(argv[i + 1]);
		/* a NULL reads as 0: the type asked only of a 0 */
		if (r->v[i] == 0 && sqlite3_value_type(argv[i + 1]) == SQLITE_NULL)
			r->null |= 1u << i;
	}
	if (s->n == BATCH && flush(s) < 0) {
		s->failed = 1;
		sqlite3_result_error_nomem(cx);
	}
}

int rs_register(sqlite3 *db)
{
	return sqlite3_create_function(db, "amd_region_scan", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
				       NULL, scan_row, NULL, NULL);
}

/* Steps q (one aggregate row, then done) with scan s bound to RS_ARG. */
static int run(sqlite3_stmt *q, struct scan *s)
{
	int at = sqlite3_bind_parameter_index(q, RS_ARG);
	if (!at || sqlite3_bind_pointer(q, at, s, "amd_region_scan", NULL) != SQLITE_OK)
		return SQLITE_MISUSE;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		rc = sqlite3_step(q);
	if (s->failed)
		rc = SQLITE_NOMEM;
	else if (rc == SQLITE_DONE && s->n && flush(s) < 0)
		rc = SQLITE_NOMEM;
	sqlite3_bind_null(q, at);
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
	struct scan s = { .g = &g, .fn = fn, .ctx = ctx, .b = g.buf, .ncols = ncols };
	int rc;
	if (pthread_create(&th, NULL, consumer, &g) != 0) {
		s.g = NULL;
		rc = run(q, &s);
	} else {
		rc = run(q, &s);
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
