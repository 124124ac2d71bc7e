/* mlflow_sqlite.c — MLflow's SQLite backend (mlflow.db, the default
 * store since MLflow 3.7): experiments, runs, params, tags and metrics,
 * read through a separate read-only connection. New MLflow versions add
 * columns, so columns are selected by name after PRAGMA table_info and
 * optional ones that are missing read as NULL. Metrics logged as NaN are
 * stored by MLflow as is_nan=1 (value 0): they become NAN here. Runs in
 * lifecycle_stage 'deleted' are skipped, as in the file store; a database
 * with no other runs holds nothing to add (AMD_PARSE_NOTHING). `Default`
 * is named after the folder holding the database (mlflow_sweep.h).
 * (This is SQL on a foreign database; amdahl's own SQL is in lib/store*.c.) */
#include <math.h>
#include <stdint.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h" /* amd_err_one_line */
#include "foreign_db.h"
#include "ingest.h"
#include "mlflow_sweep.h"
#include "mlflow_tags.h"
#include "run.h"

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

struct db_ctx {
	sqlite3 *db;
	const char *path;
	struct amd_sink *sink;
	sqlite3_stmt *exp, *param, *tag, *metric, *parent, *run_name;
	sqlite3_stmt *span, *scan; /* NULL: every point through the run index */
	int runs, deleted; /* runs read, runs skipped as deleted */
};

static const char *const exp_cols[] = {"!experiment_id", "!name"};
static const char *const kv_cols[] = {"!key", "value"};
static const char *const metric_cols[] = {"!key", "!value", "timestamp", "step", "is_nan"};
static const char *const run_cols[] = {"!run_uuid", "name", "status", "start_time",
				       "end_time", "experiment_id", "lifecycle_stage"};

/* 1 when metrics has an index on run_uuid alone (MLflow's
 * index_metrics_run_uuid: it gives a run's points in rowid order), 0
 * when not, -1 on a read error. */
static int run_index_of(sqlite3 *db)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(db,
			       "SELECT 1 FROM pragma_index_list('metrics') l"
			       " WHERE (SELECT group_concat(name) FROM pragma_index_info(l.name))"
			       " = 'run_uuid'",
			       -1, &q, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* The statements of a run's points in rowid order (see metrics()): the
 * first and last rowid of the run (through the run index), and the
 * table's rows between two rowids without an index, each with its rowid
 * and whether it is the run's. None when "rowid" names a column of the
 * table (then not the rowid) or the table has none (WITHOUT ROWID). */
static int prepare_scan(struct db_ctx *c, struct amd_err *err)
{
	static const char *const scan_cols[] = {"!key", "!value", "timestamp", "step", "is_nan",
						"!run_uuid"};
	int named = amd_foreign_has_column(c->db, "metrics", "rowid");
	int run_index = run_index_of(c->db);
	if (named < 0 || run_index < 0)
		return amd_fail(err, "%s: %s", c->path, sqlite3_errmsg(c->db));
	if (named || !run_index ||
	    sqlite3_prepare_v2(c->db,
			       "SELECT (SELECT rowid FROM metrics WHERE run_uuid=?1 ORDER BY rowid"
			       " LIMIT 1), (SELECT rowid FROM metrics WHERE run_uuid=?1"
			       " ORDER BY rowid DESC LIMIT 1)",
			       -1, &c->span, NULL) != SQLITE_OK) {
		sqlite3_finalize(c->span);
		c->span = NULL;
		return 0;
	}
	char list[512], sql[1024];
	if (select_list(c->db, c->path, "metrics", scan_cols, 6, list, sizeof list, err) < 0)
		return -1;
	/* the run test in the select list: run_uuid=?1 as the index compares */
	char *last = strrchr(list, ',');
	snprintf(sql, sizeof sql,
		 "SELECT %.*s, rowid, %s=?1 FROM metrics NOT INDEXED"
		 " WHERE rowid BETWEEN ?2 AND ?3 ORDER BY rowid",
		 (int)(last - list), list, last + 2);
	if (sqlite3_prepare_v2(c->db, sql, -1, &c->scan, NULL) != SQLITE_OK)
		return amd_fail(err, "%s: %s", c->path, sqlite3_errmsg(c->db));
	return 0;
}

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
	    prepare_scan(c, err) < 0 ||
	    !(c->metric = prepare(c->db, c->path, "metrics", metric_cols, 5,
				  c->span ? "WHERE run_uuid=?1 AND rowid>?2 ORDER BY rowid"
					  : "WHERE run_uuid=?1",
				  err)))
		return -1;
	return 0;
}

static int key_values(struct db_ctx *c, sqlite3_stmt *q, const char *run, int is_tag,
		      struct amd_err *err)
{
	char where[600];
	snprintf(where, sizeof where, "%s: run %s", c->path, run);
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
		if (k && amd_sink_key_value(c->sink, is_tag, where, k, v ? v : "",
					    v ? (size_t)sqlite3_column_bytes(q, 1) : 0, err) < 0)
			return -1;
	}
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: reading %s: %s", c->path, is_tag ? "tags" : "params",
				sqlite3_errmsg(c->db));
	return 0;
}

/* NULL when column i of q's row is a number (any number for the value,
 * an integer or NULL — 0 — for timestamp and step), else what it is, in
 * buf: "a BLOB of 8 bytes", "text 'x'", "NULL", "the real 1.5". */
static const char *not_number(sqlite3_stmt *q, int i, int integer, char *buf, size_t len)
{
	switch (sqlite3_column_type(q, i)) {
	case SQLITE_INTEGER:
		return NULL;
	case SQLITE_FLOAT:
		if (!integer)
			return NULL;
		snprintf(buf, len, "the real %.17g", sqlite3_column_double(q, i));
		return buf;
	case SQLITE_NULL:
		return integer ? NULL : "NULL";
	case SQLITE_TEXT:
		snprintf(buf, len, "text '%.40s'", (const char *)sqlite3_column_text(q, i));
		return buf;
	default:
		snprintf(buf, len, "a BLOB of %d bytes", sqlite3_column_bytes(q, i));
		return buf;
	}
}

/* 1 when a point's value, timestamp and step (v ignored for a NaN) are
 * of types point accepts: the one test a row takes, where not_number's
 * three column_type calls, column_double and two column_int64 (one
 * column call each, now, and the values read directly: the connection is
 * one thread's, amd_foreign_open, so unprotected values need no mutex)
 * were ~8% of an mlflow.db ingest's CPU. */
static int numbers(sqlite3_value *v, sqlite3_value *ts, sqlite3_value *step, int nan)
{
	int tv = sqlite3_value_type(v), tt = sqlite3_value_type(ts), tstep = sqlite3_value_type(step);
	return (nan || tv == SQLITE_INTEGER || tv == SQLITE_FLOAT) &&
	       (tt == SQLITE_INTEGER || tt == SQLITE_NULL) &&
	       (tstep == SQLITE_INTEGER || tstep == SQLITE_NULL);
}

/* The row's point refused naming the metric k, the run and the step: a
 * value that is no number (a BLOB, text, NULL without is_nan), a
 * timestamp or step that is no integer; 0 when none is. */
static int refused(struct db_ctx *c, sqlite3_stmt *q, const char *k, const char *run, int nan,
		   struct amd_err *err)
{
	static const char *const what[] = {"value", "timestamp", "step"};
	for (int i = nan ? 2 : 1; i <= 3; i++) {
		char buf[96];
		const char *bad = not_number(q, i, i > 1, buf, sizeof buf);
		if (bad)
			return amd_fail(err, "%s: metric %s of run %s, step %s: %s is %s, not %s",
					c->path, k, run,
					sqlite3_column_type(q, 3) == SQLITE_INTEGER
						? (const char *)sqlite3_column_text(q, 3) : "?",
					what[i - 1], bad, i > 1 ? "an integer" : "a number");
	}
	return 0;
}

/* One point of the row q holds (columns key, value, timestamp, step,
 * is_nan) to the sink, unless refused. */
static int point(struct db_ctx *c, sqlite3_stmt *q, const char *run, struct amd_err *err)
{
	const char *k = (const char *)sqlite3_column_text(q, 0);
	if (!k)
		return 0;
	int nan = sqlite3_column_int(q, 4) != 0;
	sqlite3_value *v = sqlite3_column_value(q, 1), *ts = sqlite3_column_value(q, 2),
		      *step = sqlite3_column_value(q, 3);
	if (!numbers(v, ts, step, nan) && refused(c, q, k, run, nan, err) < 0)
		return -1;
	double x = nan ? NAN : sqlite3_value_double(v);
	return c->sink->metric ? c->sink->metric(c->sink, k, sqlite3_value_int64(step),
						 sqlite3_value_int64(ts), x, err)
			       : 0;
}

/* The run's points through the run index from the row after rowid from
 * (all of them, in the index's order, without the scan statements). */
static int indexed(struct db_ctx *c, const char *run, sqlite3_int64 from,
		   struct amd_err *err)
{
	sqlite3_stmt *q = c->metric;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_TRANSIENT);
	if (c->span)
		sqlite3_bind_int64(q, 2, from);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (point(c, q, run, err) < 0)
			return -1;
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: reading metrics: %s", c->path, sqlite3_errmsg(c->db));
	return 0;
}

/* The table's rows from rowid lo to hi in order, the run's to the sink,
 * while at most a quarter of them (and 64) are other runs'; *upto: the
 * last rowid scanned (hi when the scan got there). */
static int scanned(struct db_ctx *c, const char *run, sqlite3_int64 lo, sqlite3_int64 hi,
		   sqlite3_int64 *upto, struct amd_err *err)
{
	sqlite3_stmt *q = c->scan;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, lo);
	sqlite3_bind_int64(q, 3, hi);
	size_t mine = 0, other = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (sqlite3_column_int(q, 6) == 1) {
			if (mine++, point(c, q, run, err) < 0)
				return -1;
		} else if (++other > 64 + mine / 4) {
			*upto = sqlite3_column_int64(q, 5);
			return 0;
		}
	}
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: reading metrics: %s", c->path, sqlite3_errmsg(c->db));
	*upto = hi;
	return 0;
}

/* The run's points in rowid order, the order of the run index (MLflow's
 * index_metrics_run_uuid). A run that holds most rows between its first
 * and last is read as a table scan between them (no index entry and no
 * seek a point: 0.22 s instead of 0.30 s for 1.2 M points); once more
 * than a quarter of the rows scanned are other runs', the rest come
 * through the index. */
static int metrics(struct db_ctx *c, const char *run, struct amd_err *err)
{
	if (!c->span)
		return indexed(c, run, INT64_MIN, err);
	sqlite3_reset(c->span);
	sqlite3_bind_text(c->span, 1, run, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(c->span) != SQLITE_ROW)
		return amd_fail(err, "%s: reading metrics: %s", c->path, sqlite3_errmsg(c->db));
	if (sqlite3_column_type(c->span, 0) == SQLITE_NULL)
		return 0; /* no points */
	sqlite3_int64 lo = sqlite3_column_int64(c->span, 0), hi = sqlite3_column_int64(c->span, 1);
	sqlite3_reset(c->span);
	sqlite3_int64 upto = lo - 1;
	if (scanned(c, run, lo, hi, &upto, err) < 0)
		return -1;
	return upto < hi ? indexed(c, run, upto, err) : 0;
}

/* Value of tag key for run as key_values reports it (NULL text is ""),
 * a copy in *out; *out is NULL when the run has no such tag. -1 on a
 * database error or out of memory. */
static int tag_value(struct db_ctx *c, const char *run, const char *key, char **out)
{
	*out = NULL;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(c->db, "SELECT value FROM tags WHERE run_uuid=?1 AND \"key\"=?2",
			       -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q), ret = 0;
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(q, 0);
		if (!(*out = strdup(v ? v : "")))
			ret = -1;
	} else if (rc != SQLITE_DONE)
		ret = -1;
	sqlite3_finalize(q);
	return ret;
}

/* The run facts MLflow keeps in run's tags into r (mlflow_tags.h); the
 * copies in facts, for the caller to free. */
static int tag_facts(struct db_ctx *c, const char *run, struct amd_run_rec *r,
		     char *facts[AMD_MLFLOW_FACTS], struct amd_err *err)
{
	for (int f = 0; f < AMD_MLFLOW_FACTS; f++)
		if (tag_value(c, run, amd_mlflow_tag_key[f], &facts[f]) < 0)
			return amd_fail(err, "%s: reading tags: %s", c->path, sqlite3_errmsg(c->db));
	amd_mlflow_run_facts(r, (const char *const *)facts);
	return 0;
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
	char holder[256], *facts[AMD_MLFLOW_FACTS] = {0};
	char *sweep;
	if (experiment_name(c, runs, &sweep) < 0)
		return amd_fail(err, "%s: out of memory", c->path);
	struct amd_run_rec r = {
		.ext_id = id,
		.name = text(runs, 1),
		.sweep = amd_mlflow_sweep_name(sweep, c->path, holder, sizeof holder),
		.sweep_ext_id = text(runs, 5),
		.status = amd_status_of_text(text(runs, 2)),
		.start_ms = sqlite3_column_int64(runs, 3),
		.end_ms = sqlite3_column_int64(runs, 4),
	};
	int ret = tag_facts(c, id, &r, facts, err);
	if (ret == 0 && c->sink->run)
		ret = c->sink->run(c->sink, &r, err);
	free(sweep);
	for (int f = 0; f < AMD_MLFLOW_FACTS; f++)
		free(facts[f]);
	if (ret == 0)
		ret = key_values(c, c->param, id, 0, err);
	if (ret == 0)
		ret = key_values(c, c->tag, id, 1, err);
	if (ret == 0)
		ret = metrics(c, id, err);
	return ret;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct db_ctx c = {.path = in->path, .sink = sink};
	c.db = amd_foreign_open(in->path);
	if (!c.db)
		return amd_fail(err, "%s: cannot open as a read-only SQLite database", in->path);
	/* every page is read once, in order: 64 pages of cache instead of
	 * SQLite's 2 MB, each of them fresh memory (docs/design.md) */
	sqlite3_exec(c.db, "PRAGMA cache_size=64", NULL, NULL, NULL);
	sqlite3_stmt *runs = NULL;
	int ret = prepare_all(&c, err);
	if (ret == 0 && !(runs = prepare(c.db, in->path, "runs", run_cols, 7,
					 "ORDER BY start_time, run_uuid", err)))
		ret = -1;
	int rc = SQLITE_DONE;
	while (ret == 0 && (rc = sqlite3_step(runs)) == SQLITE_ROW)
		ret = one_run(&c, runs, err);
	if (ret == 0 && rc != SQLITE_DONE)
		ret = amd_fail(err, "%s: reading runs: %s", in->path, sqlite3_errmsg(c.db));
	if (ret == 0 && c.runs == 0) { /* MLflow makes an empty mlflow.db on its first start */
		amd_fail(err, "no runs in this MLflow database (%d deleted)", c.deleted);
		ret = AMD_PARSE_NOTHING;
	}
	sqlite3_finalize(runs);
	sqlite3_finalize(c.exp);
	sqlite3_finalize(c.param);
	sqlite3_finalize(c.tag);
	sqlite3_finalize(c.metric);
	sqlite3_finalize(c.span);
	sqlite3_finalize(c.scan);
	sqlite3_close(c.db);
	return ret < 0 ? amd_err_one_line(err) : ret;
}

const struct amd_format amd_fmt_mlflow_sqlite = {
	.name = "mlflow-sqlite",
	.variants = "an MLflow SQLite backend (mlflow.db), read-only; one without runs: nothing to add",
	.detect = detect,
	.parse = parse,
};
