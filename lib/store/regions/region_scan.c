/* region_scan.c — rs_scan (region_scan.h): the region packs read in id
 * order, a scan's columns decoded and its rows kept here, handed in
 * batches through a ring of NBUF to one consumer thread. */
#include "region_scan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sqlite_int.h"

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

/* The packs in id order: their ranges never overlap, so this is the
 * order of the region virtual table's scan. The packs of one run
 * (rs_query's runs): through region_pack_run. */
static const char packs_sql[] =
	"SELECT rowid, n, regions, source_id, run_id, id_lo FROM main.region_pack ORDER BY id_lo";
static const char run_packs_sql[] =
	"SELECT rowid, n, regions, source_id, run_id, id_lo FROM main.region_pack"
	" WHERE run_id = ?1 ORDER BY id_lo";

#define CHUNK 256 /* records decoded at a time */

/* A pack being read: its keys, its checked blob, and a chunk of its
 * records decoded column by column. */
struct pack {
	const void *blob;
	size_t n;
	int64_t rowid, source, run, id_lo, prev_id;
	int no_run;
	const char *path; /* the store's */
	char what[1100]; /* "STORE: region_pack row N", for a message */
	int64_t nulls[CHUNK], ids[CHUNK];
	int64_t x[AMD_RG_FIELDS][CHUNK]; /* the fields the scan reads */
	/* a row of the pack: the scan's columns of the pack itself (its
	 * rowid, source, run: kc[k] is kv[k], their null bits knull), then
	 * those of its records (fc[k] is field ff[k]) */
	int nk, nf;
	signed char kc[RS_COLS], fc[RS_COLS], ff[RS_COLS];
	int64_t kv[RS_COLS];
	uint32_t knull;
};

/* p's columns for q's rows: the pack's own, then its fields', so that
 * a row is not a test of every column's kind (make_row was 1.5 G
 * instructions over the 5.18 M regions of a 1,000 x 64 sweep, issue 38
 * item 4). */
static void plan_rows(struct pack *p, const struct rs_query *q)
{
	p->nk = p->nf = 0;
	p->knull = 0;
	for (int c = 0; c < q->ncols; c++) {
		int f = q->cols[c];
		if (f >= 0) {
			p->fc[p->nf] = (signed char)c;
			p->ff[p->nf++] = (signed char)f;
			continue;
		}
		p->kc[p->nk] = (signed char)c;
		p->kv[p->nk++] = f == RS_PACK ? p->rowid : f == RS_SOURCE ? p->source : p->run;
		if (f == RS_RUN)
			p->knull |= (uint32_t)p->no_run << c;
	}
}

/* Checks records [at, at + k) of p (null bits, ids ascending). */
static int check_chunk(struct pack *p, size_t at, size_t k, struct amd_err *err)
{
	amd_regions_column(p->blob, p->n, 0, at, k, p->nulls);
	amd_regions_column(p->blob, p->n, 1, at, k, p->ids);
	for (size_t i = 0; i < k; i++) {
		int64_t id = (int64_t)((uint64_t)p->id_lo + (uint64_t)p->ids[i]);
		if (amd_region_record_ok((uint32_t)p->nulls[i], id, p->prev_id, at + i, p->what,
					 err) < 0)
			return -1;
		p->prev_id = id;
	}
	return 0;
}

/* Record i of p's chunk as the row r (plan_rows' columns). */
static void make_row(const struct pack *p, size_t i, struct rs_row *r)
{
	uint32_t nulls = (uint32_t)p->nulls[i], null = p->knull;
	for (int k = 0; k < p->nk; k++)
		r->v[p->kc[k]] = p->kv[k];
	for (int k = 0; k < p->nf; k++) {
		int c = p->fc[k], f = p->ff[k];
		r->v[c] = p->x[f][i]; /* a NULL is stored as 0 */
		null |= (nulls >> f & 1u) << c;
	}
	r->null = null;
}

/* p's records, chunk by chunk, into s's batches (those q keeps). */
static int pack_rows(struct pack *p, const struct rs_query *q, struct scan *s,
		     struct amd_err *err)
{
	p->prev_id = 0;
	plan_rows(p, q);
	for (size_t at = 0; at < p->n; at += CHUNK) {
		size_t k = p->n - at < CHUNK ? p->n - at : CHUNK;
		if (check_chunk(p, at, k, err) < 0)
			return -1;
		for (int c = 0; c < q->ncols; c++)
			if (q->cols[c] >= 0)
				amd_regions_column(p->blob, p->n, 2 + q->cols[c], at, k,
						   p->x[q->cols[c]]);
		for (size_t i = 0; i < k; i++) {
			struct rs_row *r = &s->b[s->n];
			make_row(p, i, r);
			if (q->keep && !q->keep(q->arg, r))
				continue;
			if (++s->n == BATCH && flush(s) < 0)
				return amd_fail(err, "%s: out of memory", p->path);
		}
	}
	return 0;
}

/* The pack of row t of packs_sql into p: its keys, its blob checked. */
static int read_pack(struct amd_store *st, sqlite3_stmt *t, struct pack *p, struct amd_err *err)
{
	int64_t n = sqlite3_column_int64(t, 1);
	size_t len = (size_t)sqlite3_column_bytes(t, 2);
	p->blob = sqlite3_column_blob(t, 2);
	if (len && !p->blob)
		return amd_store_step_fail(st, SQLITE_NOMEM, err);
	p->path = amd_store_path(st);
	p->rowid = sqlite3_column_int64(t, 0);
	snprintf(p->what, sizeof p->what, "%s: region_pack row %lld", p->path,
		 (long long)p->rowid);
	if (amd_region_pack_check(p->blob, len, n, p->what, err) < 0) /* the virtual table's */
		return -1;
	p->n = (size_t)n;
	p->source = sqlite3_column_int64(t, 3);
	p->no_run = sqlite3_column_type(t, 4) == SQLITE_NULL;
	p->run = sqlite3_column_int64(t, 4);
	p->id_lo = sqlite3_column_int64(t, 5);
	return 0;
}

/* The packs t yields (its parameters bound) through q into s; t reset. */
static int step_packs(struct amd_store *st, sqlite3_stmt *t, struct pack *p,
		      const struct rs_query *q, struct scan *s, struct amd_err *err)
{
	int rc;
	while ((rc = sqlite3_step(t)) == SQLITE_ROW) {
		if (q->with_run && sqlite3_column_type(t, 4) == SQLITE_NULL)
			continue;
		if (read_pack(st, t, p, err) < 0 || pack_rows(p, q, s, err) < 0) {
			sqlite3_reset(t);
			return -1;
		}
	}
	sqlite3_reset(t);
	return rc == SQLITE_DONE ? 0 : amd_store_step_fail(st, rc, err);
}

/* Every pack of the store (or of q's runs) through q into s. */
static int run(struct amd_store *st, const struct rs_query *q, struct scan *s,
	       struct amd_err *err)
{
	struct pack *p = malloc(sizeof *p);
	sqlite3_stmt *t = p ? amd_store_prepare(st, q->nruns ? run_packs_sql : packs_sql, err)
			    : NULL;
	if (!t) {
		free(p);
		return p ? -1 : amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < (q->nruns ? q->nruns : 1); i++) {
		if (q->nruns)
			sqlite3_bind_int64(t, 1, q->runs[i]);
		rc = step_packs(st, t, p, q, s, err);
	}
	sqlite3_finalize(t);
	free(p);
	if (rc < 0)
		return -1;
	if (s->n && flush(s) < 0)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	return 0;
}

int rs_scan(struct amd_store *st, const struct rs_query *q, rs_consume fn, void *ctx,
	    struct amd_err *err)
{
	struct ring g = { .fn = fn, .ctx = ctx };
	g.buf = malloc((size_t)NBUF * BATCH * sizeof *g.buf);
	if (!g.buf)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	pthread_t th;
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.can_fill, NULL);
	pthread_cond_init(&g.can_take, NULL);
	struct scan s = { .g = &g, .fn = fn, .ctx = ctx, .b = g.buf };
	int rc;
	if (pthread_create(&th, NULL, consumer, &g) != 0) {
		s.g = NULL;
		rc = run(st, q, &s, err);
	} else {
		rc = run(st, q, &s, err);
		pthread_mutex_lock(&g.mu);
		g.done = 1;
		pthread_cond_signal(&g.can_take);
		pthread_mutex_unlock(&g.mu);
		pthread_join(th, NULL);
		if (g.failed && rc == 0)
			rc = amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	pthread_cond_destroy(&g.can_fill);
	pthread_cond_destroy(&g.can_take);
	pthread_mutex_destroy(&g.mu);
	free(g.buf);
	return rc;
}
