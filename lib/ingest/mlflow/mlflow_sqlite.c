/* mlflow_sqlite.c — MLflow's SQLite backend (mlflow.db, the default
 * store since MLflow 3.7): experiments, runs, params, tags and metrics,
 * read through a separate read-only connection. New MLflow versions add
 * columns, so columns are selected by name after PRAGMA table_info and
 * optional ones that are missing read as NULL. Metrics logged as NaN are
 * stored by MLflow as is_nan=1 (value 0): they become NAN here. Runs in
 * lifecycle_stage 'deleted' are skipped, as in the file store; a database
 * with no other runs holds nothing to add (AMD_PARSE_NOTHING). `Default`
 * is named after the folder holding the database (mlflow_sweep.h).
 * The database is read on a thread of its own into a bounded queue
 * (rec_queue.h) that emit drains into the sink: reading overlaps the
 * engine's hash of the file first, then the store's writing.
 * (This is SQL on a foreign database; amdahl's own SQL is in lib/store*.c.) */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h" /* amd_err_one_line */
#include "foreign_db.h"
#include "ingest.h"
#include "mlflow_sweep.h"
#include "rec_queue.h"
#include "run.h"
#include "trace_strtab.h"

static int detect(const char *path, const unsigned char *head, size_t n)
{
	if (!amd_foreign_is_sqlite(head, n))
		return 0;
	sqlite3 *db = amd_foreign_open(path);
	int runs = db ? amd_foreign_has_table(db, "runs") : -1;
	int metrics = db ? amd_foreign_has_table(db, "metrics") : -1;
	sqlite3_close(db);
	if (runs < 0 || metrics < 0)
		return 20; /* damaged: claimed weakly, so that parse says what is wrong */
	return runs && metrics ? 95 : 0;
}

/* Column list "a, b, NULL, d" for table: each wanted column by name, NULL
 * where the table lacks an optional one; -1 when a required one (marked
 * with a leading '!') is missing. */
static int select_list(sqlite3 *db, const char *path, const char *table,
		       const char *const *cols, size_t ncols, char *out, size_t cap,
		       struct amd_err *err)
{
	out[0] = '\0';
	for (size_t i = 0; i < ncols; i++) {
		int required = cols[i][0] == '!';
		const char *name = cols[i] + required;
		int found = amd_foreign_has_column(db, table, name);
		if (found < 0)
			return amd_fail(err, "%s: %s", path, sqlite3_errmsg(db));
		if (!found && required)
			return amd_fail(err, "%s: table %s has no column %s (not an MLflow database?)",
					path, table, name);
		size_t len = strlen(out);
		snprintf(out + len, cap - len, "%s%s%s%s", i ? ", " : "", found ? "\"" : "",
			 found ? name : "NULL", found ? "\"" : "");
	}
	return 0;
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *path, const char *table,
			     const char *const *cols, size_t ncols, const char *tail,
			     struct amd_err *err)
{
	char list[512], sql[1024];
	if (select_list(db, path, table, cols, ncols, list, sizeof list, err) < 0)
		return NULL;
	snprintf(sql, sizeof sql, "SELECT %s FROM \"%s\" %s", list, table, tail);
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
		amd_fail(err, "%s: %s", path, sqlite3_errmsg(db));
		return NULL;
	}
	return q;
}

static const char *text(sqlite3_stmt *q, int i)
{
	const char *s = (const char *)sqlite3_column_text(q, i);
	return s && *s ? s : NULL;
}

/* What the reading thread hands to emit, in the order the sink gets it:
 * runs (ORDER BY start_time, run_uuid), each followed by its params, tags
 * (by key) and metric points (MLflow's run_uuid index: logged order).
 * Strings are interned in the reader's table, whose strings stay where
 * they are until drop; a record is 40 bytes. */
enum rec_kind { REC_RUN, REC_PARAM, REC_TAG, REC_POINT };
struct mem_run {
	struct mem_run *next; /* every run read, for drop */
	struct amd_run_rec r;
};
struct rec {
	enum rec_kind kind;
	const char *key; /* param, tag or metric key */
	union {
		const struct amd_run_rec *run;
		const char *value;
		struct {
			int64_t step, ts;
			double v;
		} pt;
	} u;
};

/* The reading thread's side and what emit and drop share with it. */
struct db_ctx {
	sqlite3 *db;
	const char *path;
	struct amd_rq *q;
	struct amd_strtab str;
	struct mem_run *runs_read;
	sqlite3_stmt *exp, *param, *tag, *metric;
	int runs, deleted; /* runs read, runs skipped as deleted */
	pthread_t thread;
	int threaded;
	int rc; /* the reading's result, with err, once the queue ended */
	struct amd_err err;
};

static const char *const exp_cols[] = {"!experiment_id", "!name"};
static const char *const kv_cols[] = {"!key", "value"};
static const char *const metric_cols[] = {"!key", "!value", "timestamp", "step", "is_nan"};
static const char *const run_cols[] = {"!run_uuid", "name", "status", "start_time",
				       "end_time", "experiment_id", "lifecycle_stage"};

static int prepare_all(struct db_ctx *c, struct amd_err *err)
{
	static const char *const tables[] = {"runs", "metrics", "experiments", "params", "tags"};
	for (size_t i = 0; i < 5; i++) {
		int has = amd_foreign_has_table(c->db, tables[i]);
		if (has < 0)
			return amd_fail(err, "%s: byte 0: not a readable SQLite database: %s", c->path,
					sqlite3_errmsg(c->db));
		if (!has)
			return amd_fail(err, "%s: an MLflow database has a table %s; this one has not",
					c->path, tables[i]);
	}
	const char *by_run = "WHERE run_uuid=?1 ORDER BY \"key\"";
	if (!(c->exp = prepare(c->db, c->path, "experiments", exp_cols, 2,
			       "WHERE experiment_id=?1", err)) ||
	    !(c->param = prepare(c->db, c->path, "params", kv_cols, 2, by_run, err)) ||
	    !(c->tag = prepare(c->db, c->path, "tags", kv_cols, 2, by_run, err)) ||
	    !(c->metric = prepare(c->db, c->path, "metrics", metric_cols, 5,
				  "WHERE run_uuid=?1", err)))
		return -1;
	return 0;
}

/* s[0..n) interned in *out (NULL for NULL); -1 out of memory. */
static int intern(struct db_ctx *c, const char *s, size_t n, const char **out)
{
	uint32_t id = s ? amd_strtab_intern(&c->str, s, n) : 0;
	*out = id ? c->str.s[id] : NULL;
	return s && !id ? -1 : 0;
}

static int intern_str(struct db_ctx *c, const char *s, const char **out)
{
	return intern(c, s, s ? strlen(s) : 0, out);
}

/* Room for the next record; -1 with err when the queue was stopped
 * (emit gave up) or out of memory. */
static int put(struct db_ctx *c, enum rec_kind kind, struct rec **r, struct amd_err *err)
{
	if (!(*r = amd_rq_put(c->q)))
		return amd_fail(err, "%s: %s", c->path,
				amd_rq_stopped(c->q) ? "reading stopped" : "out of memory");
	(*r)->kind = kind;
	return 0;
}

static int key_values(struct db_ctx *c, sqlite3_stmt *q, const char *run, int is_tag,
		      struct amd_err *err)
{
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(q, 0);
		const char *v = (const char *)sqlite3_column_text(q, 1);
		/* a BLOB (or text) with a NUL byte would be cut there: refused,
		 * as the file store refuses a NUL byte */
		if ((k && strlen(k) != (size_t)sqlite3_column_bytes(q, 0)) ||
		    (v && strlen(v) != (size_t)sqlite3_column_bytes(q, 1)))
			return amd_fail(err, "%s: run %s: %s '%s' holds a NUL byte", c->path, run,
					is_tag ? "tag" : "param", k ? k : "");
		if (!k)
			continue;
		struct rec *r;
		if (put(c, is_tag ? REC_TAG : REC_PARAM, &r, err) < 0)
			return -1;
		if (intern_str(c, k, &r->key) < 0 || intern_str(c, v ? v : "", &r->u.value) < 0)
			return amd_fail(err, "%s: out of memory", c->path);
	}
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: reading %s: %s", c->path, is_tag ? "tags" : "params",
				sqlite3_errmsg(c->db));
	return 0;
}

static int metrics(struct db_ctx *c, const char *run, struct amd_err *err)
{
	sqlite3_stmt *q = c->metric;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_TRANSIENT);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(q, 0);
		if (!k)
			continue;
		if (sqlite3_column_type(q, 1) == SQLITE_TEXT)
			return amd_fail(err, "%s: metric %s of run %s: value '%s' is not a number",
					c->path, k, run, sqlite3_column_text(q, 1));
		struct rec *r;
		if (put(c, REC_POINT, &r, err) < 0)
			return -1;
		r->u.pt.step = sqlite3_column_int64(q, 3);
		r->u.pt.ts = sqlite3_column_int64(q, 2);
		r->u.pt.v = sqlite3_column_int(q, 4) ? NAN : sqlite3_column_double(q, 1);
		if (intern(c, k, (size_t)sqlite3_column_bytes(q, 0), &r->key) < 0)
			return amd_fail(err, "%s: out of memory", c->path);
	}
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: reading metrics: %s", c->path, sqlite3_errmsg(c->db));
	return 0;
}

/* Value of tag key for run, copied into buf (empty when absent). */
static const char *tag_value(struct db_ctx *c, const char *run, const char *key, char *buf,
			     size_t cap)
{
	buf[0] = '\0';
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(c->db, "SELECT value FROM tags WHERE run_uuid=?1 AND \"key\"=?2",
			       -1, &q, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
		snprintf(buf, cap, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return buf[0] ? buf : NULL;
}

/* The run's experiment name in *name (NULL when it has none); -1 out
 * of memory. */
static int experiment_name(struct db_ctx *c, sqlite3_stmt *runs, char **name)
{
	sqlite3_reset(c->exp);
	sqlite3_bind_value(c->exp, 1, sqlite3_column_value(runs, 5));
	*name = NULL;
	if (sqlite3_step(c->exp) != SQLITE_ROW)
		return 0;
	const char *s = text(c->exp, 1);
	return s && !(*name = strdup(s)) ? -1 : 0;
}

/* The run row's own fields into r (strings interned); -1 out of memory. */
static int run_fields(struct db_ctx *c, sqlite3_stmt *runs, const char *id, struct amd_run_rec *r)
{
	char parent[256], tag_name[512], holder[256];
	char *sweep;
	if (experiment_name(c, runs, &sweep) < 0)
		return -1;
	const char *name = text(runs, 1) ? text(runs, 1)
					 : tag_value(c, id, "mlflow.runName", tag_name, sizeof tag_name);
	int rc = intern_str(c, id, &r->ext_id) < 0 || intern_str(c, name, &r->name) < 0 ||
			 intern_str(c, amd_mlflow_sweep_name(sweep, c->path, holder, sizeof holder),
				    &r->sweep) < 0 ||
			 intern_str(c, text(runs, 5), &r->sweep_ext_id) < 0 ||
			 intern_str(c, tag_value(c, id, "mlflow.parentRunId", parent, sizeof parent),
				    &r->parent_ext_id) < 0
		 ? -1
		 : 0;
	free(sweep);
	r->status = amd_status_of_text(text(runs, 2));
	r->start_ms = sqlite3_column_int64(runs, 3);
	r->end_ms = sqlite3_column_int64(runs, 4);
	return rc;
}

static int one_run(struct db_ctx *c, sqlite3_stmt *runs, struct amd_err *err)
{
	const char *id = text(runs, 0);
	const char *stage = text(runs, 6);
	if (!id)
		return amd_fail(err, "%s: a run with an empty run_uuid", c->path);
	if (stage && strcmp(stage, "deleted") == 0) {
		c->deleted++;
		return 0;
	}
	c->runs++;
	struct mem_run *m = calloc(1, sizeof *m);
	if (!m)
		return amd_fail(err, "%s: out of memory", c->path);
	m->next = c->runs_read;
	c->runs_read = m;
	if (run_fields(c, runs, id, &m->r) < 0)
		return amd_fail(err, "%s: out of memory", c->path);
	struct rec *r;
	if (put(c, REC_RUN, &r, err) < 0)
		return -1;
	r->u.run = &m->r;
	if (key_values(c, c->param, id, 0, err) < 0 || key_values(c, c->tag, id, 1, err) < 0)
		return -1;
	return metrics(c, id, err);
}

static int read_runs(struct db_ctx *c, struct amd_err *err)
{
	sqlite3_stmt *runs = NULL;
	int ret = prepare_all(c, err);
	if (ret == 0 && !(runs = prepare(c->db, c->path, "runs", run_cols, 7,
					 "ORDER BY start_time, run_uuid", err)))
		ret = -1;
	int rc = SQLITE_DONE;
	while (ret == 0 && (rc = sqlite3_step(runs)) == SQLITE_ROW)
		ret = one_run(c, runs, err);
	if (ret == 0 && rc != SQLITE_DONE)
		ret = amd_fail(err, "%s: reading runs: %s", c->path, sqlite3_errmsg(c->db));
	if (ret == 0 && c->runs == 0) { /* MLflow makes an empty mlflow.db on its first start */
		amd_fail(err, "no runs in this MLflow database (%d deleted)", c->deleted);
		ret = AMD_PARSE_NOTHING;
	}
	sqlite3_finalize(runs);
	sqlite3_finalize(c->exp);
	sqlite3_finalize(c->param);
	sqlite3_finalize(c->tag);
	sqlite3_finalize(c->metric);
	return ret;
}

/* The reading thread: the database into the queue, then the result. */
static void *read_all(void *arg)
{
	struct db_ctx *c = arg;
	c->db = amd_foreign_open(c->path);
	int ret = c->db ? read_runs(c, &c->err)
			: amd_fail(&c->err, "%s: cannot open as a read-only SQLite database",
				   c->path);
	sqlite3_close(c->db);
	c->db = NULL;
	c->rc = ret < 0 ? amd_err_one_line(&c->err) : ret;
	amd_rq_end(c->q);
	return NULL;
}

static void drop(void *state)
{
	struct db_ctx *c = state;
	if (!c)
		return;
	amd_rq_stop(c->q);
	if (c->threaded)
		pthread_join(c->thread, NULL);
	amd_rq_free(c->q);
	amd_strtab_free(&c->str);
	while (c->runs_read) {
		struct mem_run *next = c->runs_read->next;
		free(c->runs_read);
		c->runs_read = next;
	}
	free(c);
}

/* Starts reading the database on a thread of its own, into a queue of
 * at most 16 MB that emit drains: the engine hashes the file meanwhile
 * (engine_overlap.h), and the sink writes while the rest is read. When
 * no thread starts, the whole database is read here, unbounded. */
static int read_db(const struct amd_input *in, int events, atomic_int *cancel, void **state,
		   struct amd_err *err)
{
	(void)events;
	(void)cancel; /* drop stops the thread */
	struct db_ctx *c = calloc(1, sizeof *c);
	if (!c || !(c->q = amd_rq_new(sizeof(struct rec), 8192, 48))) {
		free(c);
		return amd_fail(err, "%s: out of memory", in->path);
	}
	c->path = in->path;
	if (pthread_create(&c->thread, NULL, read_all, c) == 0) {
		c->threaded = 1;
	} else {
		amd_rq_free(c->q);
		if (!(c->q = amd_rq_new(sizeof(struct rec), 8192, 0))) {
			free(c);
			return amd_fail(err, "%s: out of memory", in->path);
		}
		read_all(c);
	}
	*state = c;
	return 0;
}

static int emit_rec(const struct rec *r, struct amd_sink *sink, struct amd_err *err)
{
	switch (r->kind) {
	case REC_RUN:
		return sink->run ? sink->run(sink, r->u.run, err) : 0;
	case REC_PARAM:
		return sink->param ? sink->param(sink, r->key, r->u.value, err) : 0;
	case REC_TAG:
		return sink->tag ? sink->tag(sink, r->key, r->u.value, err) : 0;
	case REC_POINT:
		return sink->metric ? sink->metric(sink, r->key, r->u.pt.step, r->u.pt.ts,
						   r->u.pt.v, err)
				    : 0;
	}
	return 0;
}

/* Drains the queue into the sink; the reading's error (bad input, or
 * AMD_PARSE_NOTHING) once it ended, or the sink's. */
static int emit(void *state, const struct amd_input *in, struct amd_sink *sink,
		struct amd_err *err)
{
	(void)in;
	struct db_ctx *c = state;
	const struct rec *r;
	while ((r = amd_rq_get(c->q)))
		if (emit_rec(r, sink, err) < 0) {
			amd_rq_stop(c->q);
			return amd_err_one_line(err);
		}
	/* the queue ended: the thread wrote rc and err before it ended it */
	if (c->rc != 0)
		*err = c->err;
	return c->rc;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	void *state;
	if (read_db(in, 0, NULL, &state, err) < 0)
		return -1;
	int rc = emit(state, in, sink, err);
	drop(state);
	return rc;
}

const struct amd_format amd_fmt_mlflow_sqlite = {
	.name = "mlflow-sqlite",
	.variants = "an MLflow SQLite backend (mlflow.db), read-only; one without runs: nothing to add",
	.detect = detect,
	.parse = parse,
	.read = read_db,
	.emit = emit,
	.drop = drop,
};
