/* mlflow_sqlite_points.c — a run's metric points out of mlflow.db, on
 * two connections when the run is long (mlflow_sqlite_points.h).
 *
 * Why: SQLite's stepping through MLflow's metrics (index, then the row:
 * ~270 ns a point, the same with mmap or a rowid-range scan) was the
 * critical path of a 1.2 M-point mlflow.db's ingest once the engine had
 * hashed the file. A run spanning SPLIT_SPAN rowids or more is cut at
 * the middle rowid: the first half streams into the sink from this
 * thread while a second connection reads the second half on a thread of
 * its own into a bounded queue (48 chunks of 8,192 points, 12 MB), which
 * is handed to the sink after the first half: the same points in the
 * same (rowid) order as one query. Split only when one snapshot is sure:
 * not in WAL mode (the first connection's shared lock, held through the
 * parse, keeps writers from committing; the second takes its own before
 * its thread starts, without waiting) and with an index on run_uuid (the
 * halves' bounds are two index seeks), and no column hiding the rowid.
 * When the second connection cannot start, this thread reads the whole
 * run. */
#include "mlflow_sqlite_points.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foreign_db.h"
#include "rec_queue.h"
#include "trace_strtab.h"

/* a run spanning at least this many rowids is read on two connections */
#define SPLIT_SPAN 131072

struct point {
	const char *key; /* in the reading half's key table */
	int64_t step, ts;
	double value;
};

/* q's current row as a point: 1, 0 for a row without key (skipped), -1
 * with err for a value that is text. */
static int row_point(sqlite3_stmt *q, const char *path, const char *run, struct point *pt,
		     struct amd_err *err)
{
	const char *k = (const char *)sqlite3_column_text(q, 0);
	if (!k)
		return 0;
	if (sqlite3_column_type(q, 1) == SQLITE_TEXT)
		return amd_fail(err, "%s: metric %s of run %s: value '%s' is not a number", path, k,
				run, sqlite3_column_text(q, 1));
	pt->key = k;
	pt->value = sqlite3_column_int(q, 4) ? NAN : sqlite3_column_double(q, 1);
	pt->step = sqlite3_column_int64(q, 3);
	pt->ts = sqlite3_column_int64(q, 2);
	return 1;
}

static int to_sink(struct amd_sink *sink, const struct point *pt, struct amd_err *err)
{
	return sink->metric ? sink->metric(sink, pt->key, pt->step, pt->ts, pt->value, err) : 0;
}

/* Every row of q (bound, not yet stepped) into the sink. */
static int stream(struct amd_mlpoints *p, sqlite3_stmt *q, const char *run,
		  struct amd_err *err)
{
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct point pt;
		int got = row_point(q, p->path, run, &pt, err);
		if (got < 0 || (got && to_sink(p->sink, &pt, err) < 0))
			return -1;
	}
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: reading metrics: %s", p->path, sqlite3_errmsg(p->db));
	return 0;
}

/* The second half: its own connection, statement, queue and keys. */
struct half {
	sqlite3 *db;
	sqlite3_stmt *q;
	int first; /* the first step's result, taken before the thread starts */
	const char *path, *run;
	struct amd_rq *rq;
	struct amd_strtab keys;
	const char *last; /* the last key interned: rows repeat it often */
	pthread_t th;
	int started, ret;
	struct amd_err err;
};

static const char *intern(struct half *h, const char *k)
{
	if (h->last && strcmp(h->last, k) == 0)
		return h->last;
	uint32_t id = amd_strtab_intern(&h->keys, k, strlen(k));
	return h->last = id ? h->keys.s[id] : NULL;
}

/* One row into the queue: 0, 1 when the consumer stopped, -1 with err. */
static int half_row(struct half *h)
{
	struct point pt;
	int got = row_point(h->q, h->path, h->run, &pt, &h->err);
	if (got <= 0)
		return got;
	struct point *slot;
	if (!(pt.key = intern(h, pt.key)) || !(slot = amd_rq_put(h->rq)))
		return pt.key && amd_rq_stopped(h->rq)
			       ? 1
			       : amd_fail(&h->err, "%s: out of memory", h->path);
	*slot = pt;
	return 0;
}

static void *half_main(void *arg)
{
	struct half *h = arg;
	int rc = h->first, got = 0;
	while (rc == SQLITE_ROW && (got = half_row(h)) == 0)
		rc = sqlite3_step(h->q);
	if (got < 0)
		h->ret = -1;
	else if (got == 0 && rc != SQLITE_DONE)
		h->ret = amd_fail(&h->err, "%s: reading metrics: %s", h->path, sqlite3_errmsg(h->db));
	amd_rq_end(h->rq);
	return NULL;
}

/* Stops the thread (when it still runs) and frees everything. */
static void half_free(struct half *h)
{
	if (!h)
		return;
	if (h->started) {
		amd_rq_stop(h->rq);
		pthread_join(h->th, NULL);
	}
	amd_rq_free(h->rq);
	sqlite3_finalize(h->q);
	sqlite3_close(h->db);
	amd_strtab_free(&h->keys);
	free(h);
}

/* Starts the rows of run from rowid mid on a connection of its own;
 * NULL when it cannot (busy, out of memory...): the caller reads them. */
static struct half *half_start(struct amd_mlpoints *p, const char *run, sqlite3_int64 mid)
{
	char sql[sizeof p->select + 64];
	struct half *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->path = p->path;
	h->run = run;
	snprintf(sql, sizeof sql, "%s WHERE run_uuid=?1 AND rowid>=?2", p->select);
	if (!(h->db = amd_foreign_open(p->path)) || sqlite3_busy_timeout(h->db, 0) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, sql, -1, &h->q, NULL) != SQLITE_OK) {
		half_free(h);
		return NULL;
	}
	sqlite3_bind_text(h->q, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_int64(h->q, 2, mid);
	/* its shared lock now, beside the first connection's: one snapshot */
	h->first = sqlite3_step(h->q);
	if ((h->first != SQLITE_ROW && h->first != SQLITE_DONE) ||
	    !(h->rq = amd_rq_new(sizeof(struct point), 8192, 48)) ||
	    pthread_create(&h->th, NULL, half_main, h) != 0) {
		half_free(h);
		return NULL;
	}
	h->started = 1;
	return h;
}

/* The second half's points into the sink once the first half is in,
 * then its result. */
static int half_drain(struct amd_mlpoints *p, struct half *h, struct amd_err *err)
{
	const struct point *pt;
	while ((pt = amd_rq_get(h->rq)))
		if (to_sink(p->sink, pt, err) < 0)
			return -1;
	pthread_join(h->th, NULL);
	h->started = 0;
	if (h->ret < 0)
		*err = h->err;
	return h->ret;
}

/* The run's first (desc 0) or last rowid: 1 with *v, 0 none or error. */
static int end_rowid(sqlite3_stmt *q, const char *run, sqlite3_int64 *v)
{
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_TRANSIENT);
	int found = sqlite3_step(q) == SQLITE_ROW;
	if (found)
		*v = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	return found;
}

int amd_mlpoints_run(struct amd_mlpoints *p, const char *run, struct amd_err *err)
{
	sqlite3_int64 lo, hi, mid = 0;
	struct half *h = NULL;
	if (p->can_split && end_rowid(p->lo, run, &lo) && end_rowid(p->hi, run, &hi)) {
		/* unsigned: rowids may be anywhere in int64 (no overflow) */
		sqlite3_uint64 span = (sqlite3_uint64)hi - (sqlite3_uint64)lo;
		if (span >= SPLIT_SPAN) /* then lo < mid <= hi */
			h = half_start(p, run, mid = lo + (sqlite3_int64)(span / 2) + 1);
	}
	sqlite3_stmt *q = h ? p->below : p->all;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_TRANSIENT);
	if (h)
		sqlite3_bind_int64(q, 2, mid);
	int ret = stream(p, q, run, err);
	if (ret == 0 && h)
		ret = half_drain(p, h, err);
	half_free(h);
	return ret;
}

/* 1 when db's metrics can be read in halves (see the top), 0 when not. */
static int splittable(sqlite3 *db)
{
	sqlite3_stmt *q;
	int ok = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
		ok = strcmp((const char *)sqlite3_column_text(q, 0), "wal") != 0;
	sqlite3_finalize(q);
	/* a whole (not partial) index led by run_uuid, and no column named
	 * rowid (it would hide the rowid: halves by its values, rows where
	 * it is NULL in neither) */
	if (!ok || sqlite3_prepare_v2(db,
				      "SELECT (SELECT count(*) FROM pragma_index_list('metrics') l,"
				      " pragma_index_info(l.name) i WHERE l.partial=0 AND i.seqno=0"
				      " AND i.name='run_uuid'),"
				      " (SELECT count(*) FROM pragma_table_info('metrics')"
				      " WHERE lower(name)='rowid')",
				      -1, &q, NULL) != SQLITE_OK)
		return 0;
	ok = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) > 0 &&
	     sqlite3_column_int(q, 1) == 0;
	sqlite3_finalize(q);
	return ok;
}

int amd_mlpoints_prepare(struct amd_mlpoints *p, struct amd_err *err)
{
	char sql[sizeof p->select + 64];
	snprintf(sql, sizeof sql, "%s WHERE run_uuid=?1", p->select);
	if (sqlite3_prepare_v2(p->db, sql, -1, &p->all, NULL) != SQLITE_OK)
		return amd_fail(err, "%s: %s", p->path, sqlite3_errmsg(p->db));
	snprintf(sql, sizeof sql, "%s WHERE run_uuid=?1 AND rowid<?2", p->select);
	/* a metrics table without rowids (not MLflow's) is read in one */
	p->can_split =
		splittable(p->db) &&
		sqlite3_prepare_v2(p->db, sql, -1, &p->below, NULL) == SQLITE_OK &&
		sqlite3_prepare_v2(p->db,
				   "SELECT rowid FROM metrics WHERE run_uuid=?1 ORDER BY rowid LIMIT 1",
				   -1, &p->lo, NULL) == SQLITE_OK &&
		sqlite3_prepare_v2(p->db,
				   "SELECT rowid FROM metrics WHERE run_uuid=?1 ORDER BY rowid DESC LIMIT 1",
				   -1, &p->hi, NULL) == SQLITE_OK;
	return 0;
}

void amd_mlpoints_free(struct amd_mlpoints *p)
{
	sqlite3_finalize(p->all);
	sqlite3_finalize(p->below);
	sqlite3_finalize(p->lo);
	sqlite3_finalize(p->hi);
}
