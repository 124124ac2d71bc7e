/* writer.c — writes what parsers report into the store (writer.h). The
 * transaction starts lazily at the first fact (so a long trace parse
 * holds no lock), re-checks the source there (another process may have
 * ingested it meanwhile) and replaces an older version of the same
 * path; this file writes sources, runs, params, tags and links,
 * writer_metrics.c metric series, writer_profile.c what profilers
 * leave, writer_regions.c the regions readers report; then
 * run_columns.c derives each touched run's strategy, n, nodes, rank and
 * repeat. */
#include "writer.h"
#include "writer_sink.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "file.h"
#include "run_columns.h"
#include "stmt_cache.h"
#include "writer_profile.h"
#include "writer_names.h"
#include "writer_regions.h"

/* ---- helpers the parts of the writer share (writer_sink.h) ---- */

int writer_sql_fail(struct amd_store_sink *ss, struct amd_err *err)
{
	return amd_fail(err, "%s: store: %s", ss->path, sqlite3_errmsg(ss->st->db));
}

int writer_hold(struct amd_store_sink *ss, struct row_batch *b, struct row_table *t,
		const struct row_cell *row, struct amd_err *err)
{
	b->table = t;
	b->path = ss->path;
	return row_batch_add(ss->st, b, row, err);
}

int writer_held_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	return writer_regions_flush(ss, err) < 0 ||
			       writer_calls_flush(ss, err) < 0 ||
			       writer_ops_flush(ss, err) < 0 ||
			       row_batch_flush(ss->st, &ss->region_detail_rows, err) < 0
		       ? -1
		       : 0;
}

struct row_cell writer_run_cell(const struct amd_store_sink *ss)
{
	return row_int_or_null(ss->run_id > 0 ? ss->run_id : 0);
}

sqlite3_stmt *writer_cached(struct amd_store_sink *ss, sqlite3_stmt **slot, const char *sql,
			    struct amd_err *err)
{
	if (!*slot)
		*slot = amd_store_prepare(ss->st, sql, err);
	return *slot;
}

int writer_exec(struct amd_store_sink *ss, sqlite3_stmt *q, struct amd_err *err)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : writer_sql_fail(ss, err);
}

void writer_bind_run(struct amd_store_sink *ss, sqlite3_stmt *q, int i)
{
	if (ss->run_id > 0)
		sqlite3_bind_int64(q, i, ss->run_id);
	else
		sqlite3_bind_null(q, i);
}

void writer_bind_text(sqlite3_stmt *q, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, i);
}

void writer_bind_int(sqlite3_stmt *q, int i, int64_t v)
{
	if (v)
		sqlite3_bind_int64(q, i, v);
	else
		sqlite3_bind_null(q, i);
}

void writer_bind_double(sqlite3_stmt *q, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_double(q, i, v);
}

/* ---- the unit's transaction and source ---- */

/* Identity is place + content (sink.h, enum amd_source_state): a row at
 * path decides (SAME or CHANGED); else a row holding sha at another
 * path the rule same puts in the unit's run makes it a DUPLICATE. */
int amd_store_source_state(struct amd_store *st, const char *path, const char *sha,
			   amd_same_run_fn *same, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT path, sha256 FROM source WHERE path=?1 OR sha256=?2"
		" ORDER BY path=?1 DESC", err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, sha, -1, SQLITE_STATIC);
	int state = AMD_SOURCE_NEW, rc = SQLITE_DONE;
	if (!same)
		same = amd_same_run_folder;
	while (state == AMD_SOURCE_NEW && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(q, 0);
		const char *h = (const char *)sqlite3_column_text(q, 1);
		if (!p || !h)
			state = amd_fail(err, "%s: out of memory", st->path);
		else if (strcmp(p, path) == 0)
			state = strcmp(h, sha) == 0 ? AMD_SOURCE_SAME : AMD_SOURCE_CHANGED;
		else if (same(p, path))
			state = AMD_SOURCE_DUPLICATE;
	}
	if (state == AMD_SOURCE_NEW && rc != SQLITE_DONE)
		state = amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
	amd_store_cached_drop(q);
	return state;
}

/* Runs each of the n statements sql, with ?1 (where it has one) = id. */
static int exec_each(struct amd_store_sink *ss, const char *const *sql, size_t n, int64_t id,
		     struct amd_err *err)
{
	for (size_t i = 0; i < n; i++) {
		sqlite3_stmt *q = amd_store_prepare(ss->st, sql[i], err);
		if (!q)
			return -1;
		if (sqlite3_bind_parameter_count(q))
			sqlite3_bind_int64(q, 1, id);
		int rc = sqlite3_step(q);
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE)
			return writer_sql_fail(ss, err);
	}
	return 0;
}

/* Deletes every fact that came from source id (before replacing it). */
static int drop_source_facts(struct amd_store_sink *ss, int64_t id, struct amd_err *err)
{
	static const char *const sql[] = {
		"DELETE FROM metric_series WHERE source_id=?1",
		"DELETE FROM param WHERE source_id=?1",
		"DELETE FROM tag WHERE source_id=?1",
		"DELETE FROM trace_phase WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_step WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_collective WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_memory WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_memory_sample WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_event WHERE source_id=?1",
		"DELETE FROM trace WHERE source_id=?1",
		"DELETE FROM op_average_pack WHERE source_id=?1",
		"DELETE FROM stack_sample_pack WHERE source_id=?1",
		"DELETE FROM stack_node_pack WHERE source_id=?1",
		"DELETE FROM gpu_series WHERE source_id=?1",
		"DELETE FROM region_detail WHERE region_id IN (SELECT id FROM region WHERE source_id=?1)",
		"DELETE FROM region_pack_name WHERE pack IN (SELECT id FROM region_pack WHERE source_id=?1)",
		"DELETE FROM region_pack WHERE source_id=?1",
		"DELETE FROM region_call_pack WHERE source_id=?1",
		"UPDATE run SET source_id=NULL WHERE source_id=?1",
	};
	return exec_each(ss, sql, sizeof sql / sizeof sql[0], id, err);
}

/* The id sql (a literal, one text parameter) yields, 0 when none, -1 on
 * an error (sqlite3_errmsg tells it). */
static int64_t lookup_id(struct amd_store *st, const char *sql, const char *text)
{
	struct amd_err ignored;
	sqlite3_stmt *q = amd_store_cached(st, sql, &ignored);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : rc == SQLITE_DONE ? 0 : -1;
	amd_store_cached_drop(q);
	return id;
}

/* Replaces the older version of the unit's path: its facts and row. */
static int drop_old_source(struct amd_store_sink *ss, struct amd_err *err)
{
	int64_t old = lookup_id(ss->st, "SELECT id FROM source WHERE path=?1", ss->path);
	if (old <= 0 || drop_source_facts(ss, old, err) < 0)
		return old <= 0 ? writer_sql_fail(ss, err) : -1;
	sqlite3_stmt *d = amd_store_prepare(ss->st, "DELETE FROM source WHERE id=?1", err);
	if (!d)
		return -1;
	sqlite3_bind_int64(d, 1, old);
	int rc = sqlite3_step(d);
	sqlite3_finalize(d);
	return rc == SQLITE_DONE ? 0 : writer_sql_fail(ss, err);
}

/* The runs source old made that nothing of another source refers to
 * (its params, tags and metrics go with the source); their sweeps when
 * they leave them empty. */
static int drop_own_runs(struct amd_store_sink *ss, int64_t old, struct amd_err *err)
{
	static const char *const sql[] = {
		"CREATE TEMP TABLE IF NOT EXISTS forget_sweep(id INTEGER)",
		"DELETE FROM forget_sweep",
		"INSERT INTO forget_sweep SELECT DISTINCT sweep_id FROM run WHERE source_id=?1",
		"DELETE FROM run WHERE source_id=?1"
		" AND NOT EXISTS (SELECT 1 FROM run c WHERE c.parent_ext_id = run.ext_id)"
		" AND NOT EXISTS (SELECT 1 FROM trace WHERE run_id = run.id)"
		" AND NOT EXISTS (SELECT 1 FROM op_average_pack WHERE run_id = run.id)"
		" AND NOT EXISTS (SELECT 1 FROM gpu_series WHERE run_id = run.id)"
		" AND NOT EXISTS (SELECT 1 FROM stack_sample_pack WHERE run_id = run.id)"
		" AND NOT EXISTS (SELECT 1 FROM region_pack WHERE run_id = run.id)"
		" AND NOT EXISTS (SELECT 1 FROM metric_series WHERE run_id = run.id"
		"  AND source_id != ?1)"
		" AND NOT EXISTS (SELECT 1 FROM param WHERE run_id = run.id AND source_id != ?1)",
		("DELETE FROM sweep WHERE id IN (SELECT id FROM forget_sweep)"
		 " AND NOT EXISTS (SELECT 1 FROM run WHERE sweep_id = sweep.id)"),
	};
	return exec_each(ss, sql, sizeof sql / sizeof sql[0], old, err);
}

int amd_store_forget_source(struct amd_store *st, const char *path, struct amd_err *err)
{
	struct amd_store_sink *ss = amd_store_sink_new(st, path, "", "", 0, NULL, NULL);
	if (!ss)
		return amd_fail(err, "%s: out of memory", path);
	int rc = amd_store_begin(st, err) < 0 ? amd_fail_prefix(err, "%s", path) : 0;
	ss->begun = rc == 0;
	int64_t old = rc == 0 ? lookup_id(st, "SELECT id FROM source WHERE path=?1", path) : 0;
	if (old < 0)
		rc = writer_sql_fail(ss, err);
	else if (old > 0 && (drop_own_runs(ss, old, err) < 0 || drop_old_source(ss, err) < 0))
		rc = -1;
	if (rc == 0) {
		ss->begun = 0; /* committed, or rolled back by the failed commit */
		if (amd_store_commit(st, err) < 0)
			rc = amd_fail_prefix(err, "%s", path);
	}
	amd_store_sink_free(ss); /* rolls back what is still open */
	return rc;
}

/* Starts the unit's transaction at its first fact and records its
 * source row; 1 when another process ingested the unit meanwhile. */
int writer_begin(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->begun)
		return ss->skip;
	if (amd_store_begin(ss->st, err) < 0)
		return amd_fail_prefix(err, "%s", ss->path);
	ss->begun = 1;
	int state = amd_store_source_state(ss->st, ss->path, ss->sha, ss->same_run, err);
	if (state < 0)
		return -1;
	ss->state = state;
	if (state == AMD_SOURCE_SAME || state == AMD_SOURCE_DUPLICATE) {
		ss->skip = 1;
		return 1;
	}
	if (state == AMD_SOURCE_CHANGED && drop_old_source(ss, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO source(path, kind, size, sha256, ingested_at) VALUES(?1,?2,?3,?4,?5)",
		err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, ss->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, ss->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)ss->size);
	sqlite3_bind_text(q, 4, ss->sha, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 5, (sqlite3_int64)time(NULL));
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	if (rc != SQLITE_DONE)
		return writer_sql_fail(ss, err);
	ss->source_id = sqlite3_last_insert_rowid(ss->st->db);
	return 0;
}

/* ---- runs, params, tags, metrics, links ---- */

static int64_t sweep_id(struct amd_store_sink *ss, const char *name, const char *ext,
			struct amd_err *err)
{
	if (ss->sweep_override)
		name = ss->sweep_override;
	if (!name || !*name)
		name = "default";
	char capped[AMD_NAME_MAX + 1];
	if (!(name = amd_store_name(ss->st, name, capped, err)))
		return -1;
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO sweep(name, ext_id) VALUES(?1, ?2) ON CONFLICT(name)"
		" DO UPDATE SET ext_id=COALESCE(sweep.ext_id, excluded.ext_id) RETURNING id",
		err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	if (ext)
		sqlite3_bind_text(q, 2, ext, -1, SQLITE_STATIC);
	int64_t id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	amd_store_cached_drop(q);
	if (id < 0)
		return writer_sql_fail(ss, err);
	return id;
}

/* Remembers run, to derive its columns at the end. */
static int touch(struct amd_store_sink *ss, int64_t run, struct amd_err *err)
{
	for (size_t i = 0; i < ss->n_touched; i++)
		if (ss->touched[i] == run)
			return 0;
	if (amd_grow(&ss->touched, ss->n_touched, &ss->cap_touched, sizeof *ss->touched, 8) < 0)
		return amd_fail(err, "%s: out of memory", ss->path);
	ss->touched[ss->n_touched++] = run;
	return 0;
}

/* Drops sweep old when the run moved out of it left it empty: a
 * placeholder run (a trace linked to a run not ingested yet, in a sweep
 * the trace could not name: "default") moves to its own sweep when its
 * unit comes, and the placeholder's sweep must not stay behind empty. */
static int drop_emptied_sweep(struct amd_store_sink *ss, int64_t old, int64_t now,
			      struct amd_err *err)
{
	if (old <= 0 || old == now)
		return 0;
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"DELETE FROM sweep WHERE id=?1 AND NOT EXISTS(SELECT 1 FROM run WHERE sweep_id=?1)",
		err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, old);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : writer_sql_fail(ss, err);
}

/* A run the real store may hold and this (staging) store does not yet
 * is copied in first (the seed hook), so the unit's report of it merges
 * with what other units wrote, as it merges in a store that holds it. */
static int seed_held_run(struct amd_store_sink *ss, const char *ext_id, struct amd_err *err)
{
	if (!ss->seed_run)
		return 0;
	int64_t here = lookup_id(ss->st, "SELECT id FROM run WHERE ext_id=?1", ext_id);
	if (here < 0)
		return writer_sql_fail(ss, err);
	return here ? 0 : ss->seed_run(ss->seed_ctx, ss->st, ext_id, NULL, NULL, err);
}

static int sink_run(struct amd_sink *s, const struct amd_run_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (!r->ext_id || !*r->ext_id)
		return amd_fail(err, "%s: a run without an id", ss->path);
	if (seed_held_run(ss, r->ext_id, err) < 0)
		return -1;
	int64_t old_sweep = lookup_id(ss->st, "SELECT sweep_id FROM run WHERE ext_id=?1", r->ext_id);
	int64_t sw = old_sweep < 0 ? -1 : sweep_id(ss, r->sweep, r->sweep_ext_id, err);
	if (old_sweep < 0)
		return writer_sql_fail(ss, err);
	if (sw < 0)
		return -1;
	char capped[AMD_NAME_MAX + 1];
	const char *name = r->name ? amd_store_name(ss->st, r->name, capped, err) : NULL;
	if (r->name && !name)
		return -1;
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO run(sweep_id, ext_id, name, parent_ext_id, status, start_ms,"
		" end_ms, source_id, entry_point, program) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?10,?11)"
		" ON CONFLICT(ext_id) DO UPDATE SET"
		" sweep_id=excluded.sweep_id, name=COALESCE(excluded.name, name),"
		" parent_ext_id=COALESCE(excluded.parent_ext_id, parent_ext_id),"
		" entry_point=COALESCE(excluded.entry_point, entry_point),"
		" program=COALESCE(excluded.program, program),"
		" status=excluded.status, start_ms=CASE WHEN ?9 THEN min(COALESCE(excluded.start_ms,"
		" start_ms), COALESCE(start_ms, excluded.start_ms)) ELSE COALESCE(excluded.start_ms,"
		" start_ms) END, end_ms=CASE WHEN ?9 THEN max(COALESCE(excluded.end_ms, end_ms),"
		" COALESCE(end_ms, excluded.end_ms)) ELSE COALESCE(excluded.end_ms, end_ms) END,"
		" source_id=excluded.source_id"
		" RETURNING id", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, sw);
	sqlite3_bind_text(q, 2, r->ext_id, -1, SQLITE_STATIC);
	writer_bind_text(q, 3, name);
	writer_bind_text(q, 4, r->parent_ext_id);
	sqlite3_bind_int(q, 5, r->status);
	writer_bind_int(q, 6, r->start_ms);
	writer_bind_int(q, 7, r->end_ms);
	sqlite3_bind_int64(q, 8, ss->source_id);
	sqlite3_bind_int(q, 9, r->span_part != 0);
	writer_bind_text(q, 10, r->entry_point);
	writer_bind_text(q, 11, r->program);
	int64_t id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	amd_store_cached_drop(q);
	if (id < 0)
		return writer_sql_fail(ss, err);
	ss->run_id = id;
	if (drop_emptied_sweep(ss, old_sweep, sw, err) < 0)
		return -1;
	return touch(ss, id, err);
}

static int need_run(struct amd_store_sink *ss, const char *what, struct amd_err *err)
{
	if (ss->run_id > 0)
		return 0;
	return amd_fail(err, "%s: %s before any run", ss->path, what);
}

static void finalize_cached(struct amd_store_sink *ss)
{
	sqlite3_finalize(ss->ins_metric);
	sqlite3_finalize(ss->ins_param);
	sqlite3_finalize(ss->ins_tag);
	sqlite3_finalize(ss->ins_gpu);
	ss->ins_metric = ss->ins_param = ss->ins_tag = ss->ins_gpu = NULL;
	sqlite3_finalize(ss->ins_event);
	sqlite3_finalize(ss->sel_name);
	ss->ins_event = ss->sel_name = NULL;
	sqlite3_finalize(ss->sel_frame);
	ss->sel_frame = NULL;
}

/* A param or tag (what: "a param", "a tag") of the current run. */
static int key_value(struct amd_sink *s, const char *what, int is_tag, const char *key,
		     const char *value, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (need_run(ss, what, err) < 0)
		return -1;
	int64_t kid = amd_store_intern(ss->st, key, err);
	if (kid < 0)
		return -1;
	sqlite3_stmt *q = is_tag
		? writer_cached(ss, &ss->ins_tag, "INSERT OR REPLACE INTO tag(run_id, key_id, value,"
			 " source_id) VALUES(?1,?2,?3,?4)", err)
		: writer_cached(ss, &ss->ins_param, "INSERT OR REPLACE INTO param(run_id, key_id, value,"
			 " source_id) VALUES(?1,?2,?3,?4)", err);
	if (!q)
		return -1;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, ss->run_id);
	sqlite3_bind_int64(q, 2, kid);
	writer_bind_text(q, 3, value);
	sqlite3_bind_int64(q, 4, ss->source_id);
	if (sqlite3_step(q) != SQLITE_DONE)
		return writer_sql_fail(ss, err);
	return 0;
}

static int sink_param(struct amd_sink *s, const char *key, const char *value,
		      struct amd_err *err)
{
	return key_value(s, "a param", 0, key, value, err);
}

static int sink_tag(struct amd_sink *s, const char *key, const char *value,
		    struct amd_err *err)
{
	return key_value(s, "a tag", 1, key, value, err);
}

int64_t amd_store_sink_find_run(struct amd_store *st, const char *ext_id, const char *name,
				const char *sweep, struct amd_err *err)
{
	int64_t id = 0;
	if (ext_id)
		id = lookup_id(st, "SELECT id FROM run WHERE ext_id=?1", ext_id);
	if (id == 0 && name) {
		/* by name: the newest run of that name (in the sweep when named) */
		char cn[AMD_NAME_MAX + 1], cs[AMD_NAME_MAX + 1];
		const char *n = amd_store_name(st, name, cn, err);
		if (!n || (sweep && !(sweep = amd_store_name(st, sweep, cs, err))))
			return -1;
		sqlite3_stmt *q = amd_store_prepare(st,
			"SELECT run.id FROM run LEFT JOIN sweep ON sweep.id=run.sweep_id"
			" WHERE (run.name=?1 OR run.ext_id=?1) AND (?2 IS NULL OR sweep.name=?2)"
			" ORDER BY run.start_ms DESC LIMIT 1", err);
		if (!q)
			return -1;
		sqlite3_bind_text(q, 1, n, -1, SQLITE_STATIC);
		writer_bind_text(q, 2, sweep);
		int rc = sqlite3_step(q);
		id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : rc == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(q);
	}
	if (id < 0)
		return amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
	return id;
}

void amd_store_sink_same_run(struct amd_store_sink *ss, amd_same_run_fn *fn)
{
	ss->same_run = fn;
}

void amd_store_sink_seed_runs(struct amd_store_sink *ss, amd_seed_run_fn *fn, void *ctx)
{
	ss->seed_run = fn;
	ss->seed_ctx = ctx;
}

static int sink_link(struct amd_sink *s, const char *ext_id, const char *name,
		     const char *sweep, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	ss->run_id = 0;
	if (!ext_id && !name)
		return 0;
	const char *sw = ss->sweep_override ? ss->sweep_override : sweep;
	int64_t id = amd_store_sink_find_run(ss->st, ext_id, name, sw, err);
	if (id == 0 && ss->seed_run) {
		/* the run may be held where this store is only staging */
		if (ss->seed_run(ss->seed_ctx, ss->st, ext_id, name, sw, err) < 0)
			return -1;
		id = amd_store_sink_find_run(ss->st, ext_id, name, sw, err);
	}
	if (id < 0)
		return -1;
	if (id == 0) {
		/* not ingested yet: a placeholder the run's own unit fills in */
		char synth[512];
		if (!ext_id) {
			snprintf(synth, sizeof synth, "name:%s/%s",
				 ss->sweep_override ? ss->sweep_override : sweep ? sweep : "default",
				 name);
			ext_id = synth;
		}
		struct amd_run_rec r = {.ext_id = ext_id, .name = name, .sweep = sweep};
		int64_t keep_source = ss->source_id;
		if (sink_run(s, &r, err) < 0)
			return -1;
		/* a placeholder is not owned by this source */
		sqlite3_stmt *q = amd_store_prepare(ss->st,
			"UPDATE run SET source_id=NULL WHERE id=?1", err);
		if (!q)
			return -1;
		sqlite3_bind_int64(q, 1, ss->run_id);
		int rc = sqlite3_step(q);
		sqlite3_finalize(q);
		ss->source_id = keep_source;
		return rc == SQLITE_DONE ? 0 : writer_sql_fail(ss, err);
	}
	ss->run_id = id;
	return touch(ss, id, err);
}

/* ---- the sink ---- */

struct amd_store_sink *amd_store_sink_new(struct amd_store *st, const char *path,
					  const char *kind, const char *sha,
					  uint64_t size, const char *sweep_override,
					  const struct amd_config *cfg)
{
	struct amd_store_sink *ss = calloc(1, sizeof *ss);
	if (!ss)
		return NULL;
	ss->st = st;
	ss->path = strdup(path);
	ss->kind = strdup(kind);
	ss->sha = strdup(sha);
	ss->sweep_override = sweep_override ? strdup(sweep_override) : NULL;
	if (!ss->path || !ss->kind || !ss->sha || (sweep_override && !ss->sweep_override)) {
		amd_store_sink_free(ss);
		return NULL;
	}
	ss->size = size;
	ss->cfg = cfg;
	ss->iface = (struct amd_sink){
		.ctx = ss,
		.run = sink_run,
		.param = sink_param,
		.tag = sink_tag,
		.metric = writer_metric,
		.link = sink_link,
		.trace = writer_trace,
		.trace_event = writer_trace_event,
		.op_average = writer_op_average,
		.gpu_sample = writer_gpu_sample,
		.stack = writer_stack,
		.region = writer_region,
		.region_call = writer_region_call,
		.names = writer_names,
	};
	return ss;
}

struct amd_sink *amd_store_sink_iface(struct amd_store_sink *ss)
{
	return &ss->iface;
}

int amd_store_sink_finish(struct amd_store_sink *ss, enum amd_source_state *state,
			  struct amd_err *err)
{
	if (writer_begin(ss, err) < 0) {
		amd_store_sink_abort(ss);
		return -1;
	}
	if (!ss->skip && (writer_metrics_flush(ss, err) < 0 || writer_gpus_flush(ss, err) < 0 ||
			  writer_held_flush(ss, err) < 0 || writer_stacks_flush(ss, err) < 0)) {
		amd_store_sink_abort(ss);
		return -1;
	}
	if (!ss->skip)
		for (size_t i = 0; i < ss->n_touched; i++)
			if (amd_run_columns_derive(ss->st, ss->cfg, ss->touched[i], ss->path,
						   err) < 0) {
				amd_store_sink_abort(ss);
				return -1;
			}
	finalize_cached(ss);
	ss->begun = 0; /* committed, or rolled back by the failed commit */
	if (amd_store_commit(ss->st, err) < 0) {
		amd_fail_prefix(err, "%s", ss->path);
		amd_store_sink_free(ss);
		return -1;
	}
	*state = ss->state;
	amd_store_sink_free(ss);
	return 0;
}

void amd_store_sink_abort(struct amd_store_sink *ss)
{
	amd_store_sink_free(ss); /* it rolls back an open transaction */
}

void amd_store_sink_free(struct amd_store_sink *ss)
{
	if (!ss)
		return;
	finalize_cached(ss);
	if (ss->begun)
		amd_store_rollback(ss->st);
	free(ss->path);
	free(ss->kind);
	free(ss->sha);
	free(ss->sweep_override);
	free(ss->touched);
	writer_metrics_free(ss);
	writer_gpus_free(ss);
	writer_names_free(ss);
	writer_regions_free(ss);
	writer_calls_free(ss);
	writer_ops_free(ss);
	row_batch_free(&ss->region_detail_rows);
	writer_forget_stack(ss);
	free(ss);
}
