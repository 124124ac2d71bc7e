/* store_sink.c — writes what parsers report into the store. The
 * transaction starts lazily at the first fact (so a long trace parse
 * holds no lock), re-checks the source there (another process may have
 * ingested it meanwhile), replaces an older version of the same path,
 * and at the end derives each touched run's strategy, n, nodes, rank and
 * repeat from its params. */
#include "writer.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "num.h"

/* Params that name a run's scaling facts, first match wins; amdahl.yaml
 * can replace each list (run.n_params, run.strategy_params, …). */
static const char *const n_keys[] = {"global_world_size", "world_size", "num_gpus",
				     "n_gpus", "ngpus", "gpus", "num_processes",
				     "nproc", "num_ranks", NULL};
static const char *const strategy_keys[] = {"strategy", "distributed_strategy",
					    "dist_strategy", "backend_strategy", NULL};
static const char *const nodes_keys[] = {"num_nodes", "nnodes", "nodes", NULL};
static const char *const rank_keys[] = {"global_rank", "rank", NULL};
static const char *const repeat_keys[] = {"repeat", "repetition", "rep", "seed_repeat", NULL};

struct prev_frame {
	char *name, *file;
	int line;
	int64_t node;
};

struct amd_store_sink {
	struct amd_sink iface;
	struct amd_store *st;
	char *path, *kind, *sha, *sweep_override;
	uint64_t size;
	const struct amd_config *cfg;
	int begun, skip;
	enum amd_source_state state;
	int64_t source_id;
	int64_t run_id; /* current run, 0 = none */
	int64_t *touched;
	size_t n_touched, cap_touched;
	sqlite3_stmt *ins_metric, *ins_param, *ins_tag;
	sqlite3_stmt *ins_gpu, *ins_op_avg; /* cached: logs have many rows */
	char *metric_key;       /* the last metric key and its dict id: */
	int64_t metric_key_id;  /* parsers send a key's points together */
	struct prev_frame *prev; /* the last stack's path: stacks sharing a */
	size_t n_prev, cap_prev; /* prefix with it reuse its trie nodes */
};

static int sql_fail(struct amd_store_sink *ss, struct amd_err *err)
{
	return amd_fail(err, "%s: store: %s", ss->path, sqlite3_errmsg(ss->st->db));
}

int amd_store_source_state(struct amd_store *st, const char *path, const char *sha,
			   char *other, size_t other_len, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT path, sha256 FROM source WHERE path=?1 OR sha256=?2"
		" ORDER BY path=?1 DESC LIMIT 1", err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, sha, -1, SQLITE_STATIC);
	int state = AMD_SOURCE_NEW;
	if (sqlite3_step(q) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(q, 0);
		const char *h = (const char *)sqlite3_column_text(q, 1);
		if (strcmp(p, path) == 0)
			state = strcmp(h, sha) == 0 ? AMD_SOURCE_SAME : AMD_SOURCE_CHANGED;
		else {
			state = AMD_SOURCE_DUPLICATE;
			if (other)
				snprintf(other, other_len, "%s", p);
		}
	}
	sqlite3_finalize(q);
	return state;
}

/* Deletes every fact that came from source id (before replacing it). */
static int drop_source_facts(struct amd_store_sink *ss, int64_t id, struct amd_err *err)
{
	static const char *const sql[] = {
		"DELETE FROM metric_point WHERE source_id=?1",
		"DELETE FROM param WHERE source_id=?1",
		"DELETE FROM tag WHERE source_id=?1",
		"DELETE FROM trace_phase WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_op WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_step WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace_collective WHERE trace_id IN (SELECT id FROM trace WHERE source_id=?1)",
		"DELETE FROM trace WHERE source_id=?1",
		"DELETE FROM op_average WHERE source_id=?1",
		"DELETE FROM stack_sample WHERE source_id=?1",
		"DELETE FROM stack_node WHERE source_id=?1",
		"DELETE FROM gpu_sample WHERE source_id=?1",
		"UPDATE run SET source_id=NULL WHERE source_id=?1",
	};
	for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++) {
		sqlite3_stmt *q = amd_store_prepare(ss->st, sql[i], err);
		if (!q)
			return -1;
		sqlite3_bind_int64(q, 1, id);
		int rc = sqlite3_step(q);
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE)
			return sql_fail(ss, err);
	}
	return 0;
}

static int64_t lookup_id(struct amd_store *st, const char *sql, const char *text)
{
	sqlite3_stmt *q;
	int64_t id = 0;
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return id;
}

/* Starts the unit's transaction and records its source row. */
static int begin(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->begun)
		return 0;
	if (amd_store_begin(ss->st, err) < 0)
		return amd_fail_prefix(err, "%s", ss->path);
	ss->begun = 1;
	int state = amd_store_source_state(ss->st, ss->path, ss->sha, NULL, 0, err);
	if (state < 0)
		return -1;
	ss->state = state;
	if (state == AMD_SOURCE_SAME || state == AMD_SOURCE_DUPLICATE) {
		ss->skip = 1;
		return 0;
	}
	if (state == AMD_SOURCE_CHANGED) {
		int64_t old = lookup_id(ss->st, "SELECT id FROM source WHERE path=?1", ss->path);
		if (old <= 0 || drop_source_facts(ss, old, err) < 0)
			return old <= 0 ? sql_fail(ss, err) : -1;
		sqlite3_stmt *d = amd_store_prepare(ss->st, "DELETE FROM source WHERE id=?1", err);
		if (!d)
			return -1;
		sqlite3_bind_int64(d, 1, old);
		int rc = sqlite3_step(d);
		sqlite3_finalize(d);
		if (rc != SQLITE_DONE)
			return sql_fail(ss, err);
	}
	sqlite3_stmt *q = amd_store_prepare(ss->st,
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
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return sql_fail(ss, err);
	ss->source_id = sqlite3_last_insert_rowid(ss->st->db);
	return 0;
}

#define ENTER(ss, err)                                   \
	do {                                             \
		if (begin((ss), (err)) < 0)              \
			return -1;                       \
		if ((ss)->skip)                          \
			return 0;                        \
	} while (0)

static int64_t sweep_id(struct amd_store_sink *ss, const char *name, const char *ext,
			struct amd_err *err)
{
	if (ss->sweep_override)
		name = ss->sweep_override;
	if (!name || !*name)
		name = "default";
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"INSERT INTO sweep(name, ext_id) VALUES(?1, ?2) ON CONFLICT(name)"
		" DO UPDATE SET ext_id=COALESCE(sweep.ext_id, excluded.ext_id) RETURNING id",
		err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	if (ext)
		sqlite3_bind_text(q, 2, ext, -1, SQLITE_STATIC);
	int64_t id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	sqlite3_finalize(q);
	if (id < 0)
		return sql_fail(ss, err);
	return id;
}

static int touch(struct amd_store_sink *ss, int64_t run)
{
	for (size_t i = 0; i < ss->n_touched; i++)
		if (ss->touched[i] == run)
			return 0;
	if (ss->n_touched == ss->cap_touched) {
		size_t cap = ss->cap_touched ? 2 * ss->cap_touched : 8;
		int64_t *t = realloc(ss->touched, cap * sizeof *t);
		if (!t)
			return -1;
		ss->touched = t;
		ss->cap_touched = cap;
	}
	ss->touched[ss->n_touched++] = run;
	return 0;
}

static void bind_opt_text(sqlite3_stmt *q, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, i);
}

static void bind_opt_int(sqlite3_stmt *q, int i, int64_t v)
{
	if (v)
		sqlite3_bind_int64(q, i, v);
	else
		sqlite3_bind_null(q, i);
}

static int sink_run(struct amd_sink *s, const struct amd_run_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	if (!r->ext_id || !*r->ext_id)
		return amd_fail(err, "%s: a run without an id", ss->path);
	int64_t sw = sweep_id(ss, r->sweep, r->sweep_ext_id, err);
	if (sw < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"INSERT INTO run(sweep_id, ext_id, name, parent_ext_id, status, start_ms,"
		" end_ms, source_id) VALUES(?1,?2,?3,?4,?5,?6,?7,?8) ON CONFLICT(ext_id) DO UPDATE SET"
		" sweep_id=excluded.sweep_id, name=COALESCE(excluded.name, name),"
		" parent_ext_id=COALESCE(excluded.parent_ext_id, parent_ext_id),"
		" status=excluded.status, start_ms=COALESCE(excluded.start_ms, start_ms),"
		" end_ms=COALESCE(excluded.end_ms, end_ms), source_id=excluded.source_id"
		" RETURNING id", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, sw);
	sqlite3_bind_text(q, 2, r->ext_id, -1, SQLITE_STATIC);
	bind_opt_text(q, 3, r->name);
	bind_opt_text(q, 4, r->parent_ext_id);
	sqlite3_bind_int(q, 5, r->status);
	bind_opt_int(q, 6, r->start_ms);
	bind_opt_int(q, 7, r->end_ms);
	sqlite3_bind_int64(q, 8, ss->source_id);
	int64_t id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	sqlite3_finalize(q);
	if (id < 0)
		return sql_fail(ss, err);
	ss->run_id = id;
	return touch(ss, id);
}

static int need_run(struct amd_store_sink *ss, const char *what, struct amd_err *err)
{
	if (ss->run_id > 0)
		return 0;
	return amd_fail(err, "%s: %s before any run", ss->path, what);
}

/* The statement in *slot, prepared on first use and kept until the end. */
static sqlite3_stmt *cached(struct amd_store_sink *ss, sqlite3_stmt **slot, const char *sql,
			    struct amd_err *err)
{
	if (!*slot)
		*slot = amd_store_prepare(ss->st, sql, err);
	return *slot;
}

static void finalize_cached(struct amd_store_sink *ss)
{
	sqlite3_finalize(ss->ins_metric);
	sqlite3_finalize(ss->ins_param);
	sqlite3_finalize(ss->ins_tag);
	sqlite3_finalize(ss->ins_gpu);
	sqlite3_finalize(ss->ins_op_avg);
	ss->ins_metric = ss->ins_param = ss->ins_tag = ss->ins_gpu = ss->ins_op_avg = NULL;
}

/* A param or tag (what: "a param", "a tag") of the current run. */
static int key_value(struct amd_sink *s, const char *what, int is_tag, const char *key,
		     const char *value, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	if (need_run(ss, what, err) < 0)
		return -1;
	int64_t kid = amd_store_intern(ss->st, key, err);
	if (kid < 0)
		return -1;
	sqlite3_stmt *q = is_tag
		? cached(ss, &ss->ins_tag, "INSERT OR REPLACE INTO tag(run_id, key_id, value,"
			 " source_id) VALUES(?1,?2,?3,?4)", err)
		: cached(ss, &ss->ins_param, "INSERT OR REPLACE INTO param(run_id, key_id, value,"
			 " source_id) VALUES(?1,?2,?3,?4)", err);
	if (!q)
		return -1;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, ss->run_id);
	sqlite3_bind_int64(q, 2, kid);
	bind_opt_text(q, 3, value);
	sqlite3_bind_int64(q, 4, ss->source_id);
	if (sqlite3_step(q) != SQLITE_DONE)
		return sql_fail(ss, err);
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

static int sink_metric(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		       double value, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	if (need_run(ss, "a metric", err) < 0)
		return -1;
	int64_t kid = ss->metric_key_id;
	if (!ss->metric_key || strcmp(ss->metric_key, key) != 0) {
		if ((kid = amd_store_intern(ss->st, key, err)) < 0)
			return -1;
		free(ss->metric_key);
		if (!(ss->metric_key = strdup(key)))
			return amd_fail(err, "%s: out of memory", ss->path);
		ss->metric_key_id = kid;
	}
	sqlite3_stmt *q = cached(ss, &ss->ins_metric,
		"INSERT INTO metric_point(run_id, key_id, step, ts_ms, value, source_id)"
		" VALUES(?1,?2,?3,?4,?5,?6)", err);
	if (!q)
		return -1;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, ss->run_id);
	sqlite3_bind_int64(q, 2, kid);
	sqlite3_bind_int64(q, 3, step);
	sqlite3_bind_int64(q, 4, ts_ms);
	if (isnan(value))
		sqlite3_bind_null(q, 5); /* SQLite has no NaN: NULL is "logged as NaN" */
	else
		sqlite3_bind_double(q, 5, value);
	sqlite3_bind_int64(q, 6, ss->source_id);
	if (sqlite3_step(q) != SQLITE_DONE)
		return sql_fail(ss, err);
	return 0;
}

static int sink_link(struct amd_sink *s, const char *ext_id, const char *name,
		     const char *sweep, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	ss->run_id = 0;
	if (!ext_id && !name)
		return 0;
	int64_t id = 0;
	if (ext_id)
		id = lookup_id(ss->st, "SELECT id FROM run WHERE ext_id=?1", ext_id);
	if (id == 0 && name) {
		/* by name: the newest run of that name (in the sweep when named) */
		sqlite3_stmt *q = amd_store_prepare(ss->st,
			"SELECT run.id FROM run LEFT JOIN sweep ON sweep.id=run.sweep_id"
			" WHERE (run.name=?1 OR run.ext_id=?1) AND (?2 IS NULL OR sweep.name=?2)"
			" ORDER BY run.start_ms DESC LIMIT 1", err);
		if (!q)
			return -1;
		sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
		bind_opt_text(q, 2, ss->sweep_override ? ss->sweep_override : sweep);
		if (sqlite3_step(q) == SQLITE_ROW)
			id = sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
	}
	if (id < 0)
		return sql_fail(ss, err);
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
		sqlite3_step(q);
		sqlite3_finalize(q);
		ss->source_id = keep_source;
		return 0;
	}
	ss->run_id = id;
	return touch(ss, id);
}

static int exec_bound(struct amd_store_sink *ss, sqlite3_stmt *q, struct amd_err *err)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : sql_fail(ss, err);
}

static void bind_run(struct amd_store_sink *ss, sqlite3_stmt *q, int i)
{
	if (ss->run_id > 0)
		sqlite3_bind_int64(q, i, ss->run_id);
	else
		sqlite3_bind_null(q, i);
}

static void bind_opt_double(sqlite3_stmt *q, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_double(q, i, v);
}

static int trace_rows(struct amd_store_sink *ss, int64_t tid, const struct amd_trace_summary *t,
		      struct amd_err *err)
{
	int rc = 0;
	sqlite3_stmt *ph = amd_store_prepare(ss->st,
		"INSERT INTO trace_phase(trace_id, phase_id, ns) VALUES(?1,?2,?3)", err);
	sqlite3_stmt *op = amd_store_prepare(ss->st,
		"INSERT INTO trace_op(trace_id, name_id, cat_id, count, total_ns, self_ns,"
		" min_ns, max_ns) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)", err);
	sqlite3_stmt *sp = amd_store_prepare(ss->st,
		"INSERT INTO trace_step(trace_id, step, start_ns, dur_ns) VALUES(?1,?2,?3,?4)", err);
	sqlite3_stmt *co = amd_store_prepare(ss->st,
		"INSERT INTO trace_collective(trace_id, name_id, seq, start_ns, dur_ns, bytes,"
		" group_size) VALUES(?1,?2,?3,?4,?5,?6,?7)", err);
	if (!ph || !op || !sp || !co) {
		rc = -1;
		goto out;
	}
	for (int p = 0; p < AMD_PHASE_COUNT && rc == 0; p++) {
		int64_t pid = amd_store_intern(ss->st, amd_phase_names[p], err);
		if (pid < 0) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(ph, 1, tid);
		sqlite3_bind_int64(ph, 2, pid);
		sqlite3_bind_int64(ph, 3, t->phase_ns[p]);
		rc = exec_bound(ss, ph, err);
	}
	for (size_t i = 0; i < t->n_ops && rc == 0; i++) {
		const struct amd_trace_op *o = &t->ops[i];
		int64_t nid = amd_store_intern(ss->st, o->name, err);
		int64_t cid = o->cat ? amd_store_intern(ss->st, o->cat, err) : 0;
		if (nid < 0 || cid < 0) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(op, 1, tid);
		sqlite3_bind_int64(op, 2, nid);
		bind_opt_int(op, 3, cid);
		sqlite3_bind_int64(op, 4, o->count);
		sqlite3_bind_int64(op, 5, o->total_ns);
		sqlite3_bind_int64(op, 6, o->self_ns);
		sqlite3_bind_int64(op, 7, o->min_ns);
		sqlite3_bind_int64(op, 8, o->max_ns);
		rc = exec_bound(ss, op, err);
	}
	for (size_t i = 0; i < t->n_steps && rc == 0; i++) {
		sqlite3_bind_int64(sp, 1, tid);
		sqlite3_bind_int64(sp, 2, t->steps[i].step);
		sqlite3_bind_int64(sp, 3, t->steps[i].start_ns);
		sqlite3_bind_int64(sp, 4, t->steps[i].dur_ns);
		rc = exec_bound(ss, sp, err);
	}
	for (size_t i = 0; i < t->n_colls && rc == 0; i++) {
		const struct amd_trace_coll *c = &t->colls[i];
		int64_t nid = amd_store_intern(ss->st, c->name, err);
		if (nid < 0) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(co, 1, tid);
		sqlite3_bind_int64(co, 2, nid);
		sqlite3_bind_int64(co, 3, c->seq);
		sqlite3_bind_int64(co, 4, c->start_ns);
		sqlite3_bind_int64(co, 5, c->dur_ns);
		sqlite3_bind_int64(co, 6, c->bytes);
		sqlite3_bind_int(co, 7, c->group_size);
		rc = exec_bound(ss, co, err);
	}
out:
	sqlite3_finalize(ph);
	sqlite3_finalize(op);
	sqlite3_finalize(sp);
	sqlite3_finalize(co);
	return rc;
}

static int sink_trace(struct amd_sink *s, const struct amd_trace_summary *t,
		      struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"INSERT INTO trace(run_id, source_id, rank, world_size, backend, device,"
		" start_ns, end_ns, events, has_gpu, comp_fraction)"
		" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)", err);
	if (!q)
		return -1;
	bind_run(ss, q, 1);
	sqlite3_bind_int64(q, 2, ss->source_id);
	if (t->rank >= 0)
		sqlite3_bind_int(q, 3, t->rank);
	if (t->world_size > 0)
		sqlite3_bind_int(q, 4, t->world_size);
	bind_opt_text(q, 5, t->backend);
	bind_opt_text(q, 6, t->device);
	sqlite3_bind_int64(q, 7, t->start_ns);
	sqlite3_bind_int64(q, 8, t->end_ns);
	sqlite3_bind_int64(q, 9, t->events);
	sqlite3_bind_int(q, 10, t->has_gpu);
	bind_opt_double(q, 11, t->comp_fraction);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return sql_fail(ss, err);
	return trace_rows(ss, sqlite3_last_insert_rowid(ss->st->db), t, err);
}

static int sink_op_average(struct amd_sink *s, const char *name, int rank,
			   double self_cuda_us, double cuda_total_us, int64_t calls,
			   struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	int64_t nid = amd_store_intern(ss->st, name, err);
	if (nid < 0)
		return -1;
	sqlite3_stmt *q = cached(ss, &ss->ins_op_avg,
		"INSERT INTO op_average(run_id, source_id, name_id, rank, self_cuda_us,"
		" cuda_total_us, calls) VALUES(?1,?2,?3,?4,?5,?6,?7)", err);
	if (!q)
		return -1;
	sqlite3_clear_bindings(q);
	bind_run(ss, q, 1);
	sqlite3_bind_int64(q, 2, ss->source_id);
	sqlite3_bind_int64(q, 3, nid);
	if (rank >= 0)
		sqlite3_bind_int(q, 4, rank);
	bind_opt_double(q, 5, self_cuda_us);
	bind_opt_double(q, 6, cuda_total_us);
	sqlite3_bind_int64(q, 7, calls);
	return exec_bound(ss, q, err);
}

static int sink_gpu_sample(struct amd_sink *s, const struct amd_gpu_sample *g,
			   struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	sqlite3_stmt *q = cached(ss, &ss->ins_gpu,
		"INSERT INTO gpu_sample(source_id, run_id, gpu, ts_ms, util_pct, mem_util_pct,"
		" power_w, mem_used_mib, temp_c) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, ss->source_id);
	bind_run(ss, q, 2);
	sqlite3_bind_int(q, 3, g->gpu);
	sqlite3_bind_int64(q, 4, g->ts_ms);
	bind_opt_double(q, 5, g->util_pct);
	bind_opt_double(q, 6, g->mem_util_pct);
	bind_opt_double(q, 7, g->power_w);
	bind_opt_double(q, 8, g->mem_used_mib);
	bind_opt_double(q, 9, g->temp_c);
	return exec_bound(ss, q, err);
}

static int64_t frame_id(struct amd_store_sink *ss, const struct amd_stack_frame *f,
			struct amd_err *err)
{
	int64_t nid = amd_store_intern(ss->st, f->name, err);
	int64_t fid = f->file ? amd_store_intern(ss->st, f->file, err) : 0;
	if (nid < 0 || fid < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"INSERT INTO frame(name_id, file_id, line) VALUES(?1,?2,?3)"
		" ON CONFLICT(name_id, file_id, line) DO UPDATE SET line=excluded.line"
		" RETURNING id", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, nid);
	sqlite3_bind_int64(q, 2, fid);
	sqlite3_bind_int(q, 3, f->line);
	int64_t id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
	sqlite3_finalize(q);
	return id < 0 ? sql_fail(ss, err) : id;
}

/* The trie node under parent for frame, created when new. */
static int64_t stack_node(struct amd_store_sink *ss, int64_t parent, int64_t frame,
			  struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"SELECT id FROM stack_node WHERE source_id=?1 AND parent_id IS ?2 AND frame_id=?3",
		err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, ss->source_id);
	if (parent)
		sqlite3_bind_int64(q, 2, parent);
	sqlite3_bind_int64(q, 3, frame);
	int64_t id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	if (id)
		return id;
	q = amd_store_prepare(ss->st,
		"INSERT INTO stack_node(parent_id, frame_id, source_id) VALUES(?1,?2,?3)", err);
	if (!q)
		return -1;
	if (parent)
		sqlite3_bind_int64(q, 1, parent);
	sqlite3_bind_int64(q, 2, frame);
	sqlite3_bind_int64(q, 3, ss->source_id);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return sql_fail(ss, err);
	return sqlite3_last_insert_rowid(ss->st->db);
}

static int same_frame(const struct prev_frame *p, const struct amd_stack_frame *f)
{
	return p->line == f->line && strcmp(p->name, f->name) == 0 &&
	       (p->file && f->file ? strcmp(p->file, f->file) == 0 : p->file == f->file);
}

static void forget_frames(struct amd_store_sink *ss, size_t from)
{
	for (size_t i = from; i < ss->cap_prev; i++) {
		free(ss->prev[i].name);
		free(ss->prev[i].file);
		ss->prev[i].name = ss->prev[i].file = NULL;
	}
}

/* Appends f (at node) to the remembered path; on out of memory the
 * path is just not remembered. */
static void remember_frame(struct amd_store_sink *ss, const struct amd_stack_frame *f,
			   int64_t node)
{
	if (ss->n_prev == ss->cap_prev) {
		size_t cap = ss->cap_prev ? 2 * ss->cap_prev : 64;
		struct prev_frame *v = realloc(ss->prev, cap * sizeof *v);
		if (!v)
			return;
		memset(v + ss->cap_prev, 0, (cap - ss->cap_prev) * sizeof *v);
		ss->prev = v;
		ss->cap_prev = cap;
	}
	struct prev_frame *p = &ss->prev[ss->n_prev];
	free(p->name);
	free(p->file);
	p->name = strdup(f->name);
	p->file = f->file ? strdup(f->file) : NULL;
	p->line = f->line;
	p->node = node;
	if (p->name && (p->file || !f->file))
		ss->n_prev++;
}

static int sink_stack(struct amd_sink *s, const struct amd_stack_rec *r, struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	ENTER(ss, err);
	if (r->depth == 0)
		return amd_fail(err, "%s: an empty stack", ss->path);
	int64_t node = 0;
	size_t i = 0;
	for (; i < r->depth && i < ss->n_prev && same_frame(&ss->prev[i], &r->frames[i]); i++)
		node = ss->prev[i].node;
	ss->n_prev = i;
	for (; i < r->depth; i++) {
		int64_t f = frame_id(ss, &r->frames[i], err);
		if (f < 0 || (node = stack_node(ss, node, f, err)) < 0)
			return -1;
		remember_frame(ss, &r->frames[i], node);
	}
	int64_t pid = r->process ? amd_store_intern(ss->st, r->process, err) : 0;
	int64_t tid = r->thread ? amd_store_intern(ss->st, r->thread, err) : 0;
	if (pid < 0 || tid < 0)
		return -1;
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"INSERT INTO stack_sample(source_id, run_id, leaf_id, process_id, thread_id,"
		" samples, seconds) VALUES(?1,?2,?3,?4,?5,?6,?7)", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, ss->source_id);
	bind_run(ss, q, 2);
	sqlite3_bind_int64(q, 3, node);
	bind_opt_int(q, 4, pid);
	bind_opt_int(q, 5, tid);
	sqlite3_bind_int64(q, 6, r->samples);
	sqlite3_bind_double(q, 7, r->seconds);
	int rc = exec_bound(ss, q, err);
	sqlite3_finalize(q);
	return rc;
}

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
	ss->size = size;
	ss->cfg = cfg;
	ss->iface = (struct amd_sink){
		.ctx = ss,
		.run = sink_run,
		.param = sink_param,
		.tag = sink_tag,
		.metric = sink_metric,
		.link = sink_link,
		.trace = sink_trace,
		.op_average = sink_op_average,
		.gpu_sample = sink_gpu_sample,
		.stack = sink_stack,
	};
	return ss;
}

struct amd_sink *amd_store_sink_iface(struct amd_store_sink *ss)
{
	return &ss->iface;
}

/* First param of run whose key is in the list (amdahl.yaml may name
 * another list under run.<what>), copied into out. */
static int first_param(struct amd_store_sink *ss, int64_t run, const char *what,
		       const char *const *dflt, char *out, size_t len)
{
	const struct amd_node *list = amd_config_get(ss->cfg, what);
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(ss->st->db,
			       "SELECT value FROM param JOIN dict ON dict.id=param.key_id"
			       " WHERE run_id=?1 AND dict.s=?2", -1, &q, NULL) != SQLITE_OK)
		return 0;
	int found = 0;
	const struct amd_node *n = amd_node_first(list);
	for (size_t i = 0; !found; i++) {
		const char *key;
		if (list) {
			if (!n)
				break;
			key = n->value ? n->value : "";
			n = n->next;
		} else {
			if (!dflt[i])
				break;
			key = dflt[i];
		}
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run);
		sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0)) {
			snprintf(out, len, "%s", (const char *)sqlite3_column_text(q, 0));
			found = 1;
		}
	}
	sqlite3_finalize(q);
	return found;
}

static void bind_int_text(sqlite3_stmt *q, int i, const char *s, int found)
{
	int64_t v;
	double d;
	if (found && amd_parse_int64(s, &v) == 0)
		sqlite3_bind_int64(q, i, v);
	else if (found && amd_parse_double(s, &d) == 0 && d == floor(d) && fabs(d) < 1e15)
		sqlite3_bind_int64(q, i, (int64_t)d);
	else
		sqlite3_bind_null(q, i);
}

/* Fills strategy, n, nodes, rank, repeat (and the run name from the
 * mlflow.runName tag, the parent from mlflow.parentRunId). */
static int derive_run(struct amd_store_sink *ss, int64_t run, struct amd_err *err)
{
	char strategy[256], n[64], nodes[64], rank[64], repeat[64];
	int has_s = first_param(ss, run, "run.strategy_params", strategy_keys, strategy,
				sizeof strategy);
	int has_n = first_param(ss, run, "run.n_params", n_keys, n, sizeof n);
	int has_nodes = first_param(ss, run, "run.nodes_params", nodes_keys, nodes, sizeof nodes);
	int has_rank = first_param(ss, run, "run.rank_params", rank_keys, rank, sizeof rank);
	int has_rep = first_param(ss, run, "run.repeat_params", repeat_keys, repeat,
				  sizeof repeat);
	sqlite3_stmt *q = amd_store_prepare(ss->st,
		"UPDATE run SET strategy=COALESCE(?2, strategy), n=COALESCE(?3, n),"
		" nodes=COALESCE(?4, nodes), rank=COALESCE(?5, rank), repeat=COALESCE(?6, repeat),"
		" name=COALESCE(name, (SELECT value FROM tag JOIN dict ON dict.id=tag.key_id"
		"   WHERE run_id=?1 AND dict.s='mlflow.runName')),"
		" parent_ext_id=COALESCE(parent_ext_id, (SELECT value FROM tag JOIN dict"
		"   ON dict.id=tag.key_id WHERE run_id=?1 AND dict.s='mlflow.parentRunId'))"
		" WHERE id=?1", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	if (has_s)
		sqlite3_bind_text(q, 2, strategy, -1, SQLITE_STATIC);
	bind_int_text(q, 3, n, has_n);
	bind_int_text(q, 4, nodes, has_nodes);
	bind_int_text(q, 5, rank, has_rank);
	bind_int_text(q, 6, repeat, has_rep);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : sql_fail(ss, err);
}

int amd_store_sink_finish(struct amd_store_sink *ss, enum amd_source_state *state,
			  struct amd_err *err)
{
	if (begin(ss, err) < 0) {
		amd_store_sink_abort(ss);
		return -1;
	}
	if (!ss->skip)
		for (size_t i = 0; i < ss->n_touched; i++)
			if (derive_run(ss, ss->touched[i], err) < 0) {
				amd_store_sink_abort(ss);
				return -1;
			}
	finalize_cached(ss);
	if (amd_store_commit(ss->st, err) < 0) {
		amd_fail_prefix(err, "%s", ss->path);
		amd_store_sink_free(ss);
		return -1;
	}
	ss->begun = 0;
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
	free(ss->metric_key);
	forget_frames(ss, 0);
	free(ss->prev);
	free(ss);
}
