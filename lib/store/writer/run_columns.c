/* run_columns.c — deriving a run's strategy, n, nodes, rank and repeat
 * from its params (n, without a param, from its traces' world size; see
 * run_columns.h), and deriving them again when the configuration's lists
 * changed after the ingest (writer.h). */
#include "run_columns.h"
#include "writer.h"
#include "sqlite_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "name_cap.h"
#include "num.h"
#include "stmt_cache.h"

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

/* A derived column: the params that may hold it, its text when found. */
struct column {
	const struct amd_cfg_list *setting; /* amdahl.yaml's list of param names, if set */
	const char *const *dflt;   /* the list when amdahl.yaml names none */
	size_t len;                /* text kept (longer numbers are cut) */
	char text[AMD_NAME_MAX + 1]; /* a strategy capped by amd_name_cap */
	int found;
};

/* Param name i of c's list, NULL past its end. */
static const char *key_at(const struct column *c, size_t i)
{
	if (c->setting && c->setting->set)
		return i < c->setting->n ? c->setting->items[i] : NULL;
	return c->dflt[i];
}

/* First param of run whose key is in c's list, copied into c->text. */
static int first_param(struct amd_store *st, int64_t run, struct column *c, const char *unit,
		       struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT value FROM param JOIN dict ON dict.id=param.key_id"
		" WHERE run_id=?1 AND dict.s=?2", err);
	if (!q)
		return amd_fail_prefix(err, "%s", unit);
	int rc = SQLITE_DONE;
	const char *key;
	c->found = 0;
	for (size_t i = 0; !c->found && (key = key_at(c, i)) != NULL; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, run);
		sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(q);
		if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL) {
			char capped[AMD_NAME_MAX + 1];
			const char *v = (const char *)sqlite3_column_text(q, 0);
			if (!v || !(v = amd_name_cap(v, capped))) {
				rc = SQLITE_NOMEM;
				break;
			}
			snprintf(c->text, c->len, "%s", v);
			c->found = 1;
		} else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
	}
	amd_store_cached_drop(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return amd_fail(err, "%s: store: %s", unit, sqlite3_errstr(rc));
	return 0;
}

static void bind_int_text(sqlite3_stmt *q, int i, const struct column *c)
{
	int64_t v;
	double d;
	if (c->found && amd_parse_int64(c->text, &v) == 0)
		sqlite3_bind_int64(q, i, v);
	else if (c->found && amd_parse_double(c->text, &d) == 0 && d == floor(d) &&
		 fabs(d) < 1e15)
		sqlite3_bind_int64(q, i, (int64_t)d);
	else
		sqlite3_bind_null(q, i);
}

/* A run with no world-size param: the world size its traces report
 * (Kineto's distributedInfo.world_size; the largest when ranks disagree)
 * in c, found or not. The params win when both exist: they are what the
 * user logged for the run, a trace only what one profiled step saw. */
static int trace_world_size(struct amd_store *st, int64_t run, struct column *c,
			    const char *unit, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT max(world_size) FROM trace WHERE run_id=?1 AND world_size > 0", err);
	if (!q)
		return amd_fail_prefix(err, "%s", unit);
	sqlite3_bind_int64(q, 1, run);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL) {
		snprintf(c->text, c->len, "%lld", (long long)sqlite3_column_int64(q, 0));
		c->found = 1;
	}
	amd_store_cached_drop(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return amd_fail(err, "%s: store: %s", unit, sqlite3_errstr(rc));
	return 0;
}

#define NCOLUMNS 5

/* The five columns, nothing found yet, with cfg's lists: strategy, n,
 * nodes, rank, repeat. */
static void columns_init(const struct amd_config *cfg, struct column col[NCOLUMNS])
{
	const struct amd_cfg_run *r = cfg ? &cfg->run : NULL;
	const struct column c[NCOLUMNS] = {
		{r ? &r->strategy_params : NULL, strategy_keys, AMD_NAME_MAX + 1, "", 0},
		{r ? &r->n_params : NULL, n_keys, 64, "", 0},
		{r ? &r->nodes_params : NULL, nodes_keys, 64, "", 0},
		{r ? &r->rank_params : NULL, rank_keys, 64, "", 0},
		{r ? &r->repeat_params : NULL, repeat_keys, 64, "", 0},
	};
	memcpy(col, c, sizeof c);
}

/* The five columns of run as its params give them under cfg's lists (n,
 * without a param, from its traces). */
static int columns_of(struct amd_store *st, const struct amd_config *cfg, int64_t run,
		      struct column col[NCOLUMNS], const char *unit, struct amd_err *err)
{
	columns_init(cfg, col);
	for (size_t i = 0; i < NCOLUMNS; i++)
		if (first_param(st, run, &col[i], unit, err) < 0)
			return -1;
	if (!col[1].found && trace_world_size(st, run, &col[1], unit, err) < 0)
		return -1;
	return 0;
}

/* Fills strategy, n, nodes, rank, repeat. (A run's name and parent are
 * the reader's facts: the MLflow readers take them from MLflow's tags.) */
int amd_run_columns_derive(struct amd_store *st, const struct amd_config *cfg, int64_t run,
			   const char *unit, struct amd_err *err)
{
	struct column col[NCOLUMNS];
	if (columns_of(st, cfg, run, col, unit, err) < 0)
		return -1;
	sqlite3_stmt *q = amd_store_cached(st,
		"UPDATE run SET strategy=COALESCE(?2, strategy), n=COALESCE(?3, n),"
		" nodes=COALESCE(?4, nodes), rank=COALESCE(?5, rank), repeat=COALESCE(?6, repeat)"
		" WHERE id=?1", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	if (col[0].found)
		sqlite3_bind_text(q, 2, col[0].text, -1, SQLITE_STATIC);
	for (int i = 1; i < 5; i++)
		bind_int_text(q, i + 2, &col[i]);
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: store: %s", unit, sqlite3_errmsg(st->db));
	return 0;
}

/* 1 when a column found under the lists differs from the stored value
 * (q's columns 1..5: strategy, n, nodes, rank, repeat). A column its
 * params do not give keeps what is stored, as amd_run_columns_derive
 * keeps it. */
static int differs(sqlite3_stmt *q, const struct column col[NCOLUMNS])
{
	if (col[0].found && (sqlite3_column_type(q, 1) == SQLITE_NULL ||
			     strcmp(col[0].text, (const char *)sqlite3_column_text(q, 1)) != 0))
		return 1;
	for (int i = 1; i < NCOLUMNS; i++) {
		int64_t v;
		double d;
		int whole = col[i].found && (amd_parse_int64(col[i].text, &v) == 0 ||
					     (amd_parse_double(col[i].text, &d) == 0 &&
					      d == floor(d) && fabs(d) < 1e15 && (v = (int64_t)d, 1)));
		if (whole && (sqlite3_column_type(q, i + 1) == SQLITE_NULL ||
			      sqlite3_column_int64(q, i + 1) != v))
			return 1;
	}
	return 0;
}

/* Every param name of the five lists, flat: name k is item pos[k] of
 * column col[k]'s list. */
struct flat_keys {
	const char *name[256];
	int col[256];
	size_t pos[256];
	size_t n;
};

static void flatten(const struct column col[NCOLUMNS], struct flat_keys *f)
{
	const char *key;
	f->n = 0;
	for (int c = 0; c < NCOLUMNS; c++)
		for (size_t i = 0; f->n < 256 && (key = key_at(&col[c], i)) != NULL; i++) {
			f->name[f->n] = key;
			f->col[f->n] = c;
			f->pos[f->n++] = i;
		}
}

/* The params of the lists, every run's, in run order (one query). */
static sqlite3_stmt *list_params(struct amd_store *st, const struct flat_keys *f,
				 struct amd_err *err)
{
	struct amd_buf sql = {0};
	int rc = amd_buf_printf(&sql, "SELECT p.run_id, d.s, p.value FROM param p JOIN dict d"
				" ON d.id = p.key_id WHERE p.value IS NOT NULL AND d.s IN (");
	for (size_t k = 0; rc == 0 && k < f->n; k++)
		rc = amd_buf_printf(&sql, "%s?", k ? "," : "");
	if (rc == 0)
		rc = amd_buf_printf(&sql, "%s) ORDER BY p.run_id", f->n ? "" : "NULL");
	sqlite3_stmt *q = rc == 0 ? amd_store_prepare(st, sql.data, err) : NULL;
	if (rc < 0)
		amd_fail(err, "out of memory");
	for (size_t k = 0; q && k < f->n; k++)
		sqlite3_bind_text(q, (int)k + 1, f->name[k], -1, SQLITE_STATIC);
	amd_buf_free(&sql);
	return q;
}

/* The param row at p (if it is run's) sets the columns whose lists hold
 * its name, when it comes earlier on the list than what set them. */
static void take_param(sqlite3_stmt *p, const struct flat_keys *f, struct column col[NCOLUMNS],
		       size_t best[NCOLUMNS])
{
	const char *key = (const char *)sqlite3_column_text(p, 1);
	const char *v = (const char *)sqlite3_column_text(p, 2);
	for (size_t k = 0; key && v && k < f->n; k++) {
		int c = f->col[k];
		char capped[AMD_NAME_MAX + 1];
		const char *text;
		if (strcmp(f->name[k], key) != 0 || (col[c].found && best[c] <= f->pos[k]) ||
		    !(text = amd_name_cap(v, capped)))
			continue;
		snprintf(col[c].text, col[c].len, "%s", text);
		col[c].found = 1;
		best[c] = f->pos[k];
	}
}

/* The ids of the runs whose columns differ from what their params give
 * under cfg, into *ids (the caller frees): the runs and the params of
 * the lists read once each, side by side in run order. */
static int stale_runs(struct amd_store *st, const struct amd_config *cfg, int64_t **ids,
		      size_t *n, struct amd_err *err)
{
	size_t cap = 0;
	*ids = NULL;
	*n = 0;
	struct column empty[NCOLUMNS];
	struct flat_keys f;
	columns_init(cfg, empty);
	flatten(empty, &f);
	sqlite3_stmt *p = list_params(st, &f, err);
	sqlite3_stmt *q = p ? amd_store_prepare(st, "SELECT id, strategy, n, nodes, rank, repeat"
						" FROM run ORDER BY id", err) : NULL;
	if (!q) {
		sqlite3_finalize(p);
		return -1;
	}
	int rc, prc = sqlite3_step(p);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(q, 0);
		struct column col[NCOLUMNS];
		size_t best[NCOLUMNS] = {0};
		memcpy(col, empty, sizeof col);
		for (; prc == SQLITE_ROW && sqlite3_column_int64(p, 0) <= id; prc = sqlite3_step(p))
			if (sqlite3_column_int64(p, 0) == id)
				take_param(p, &f, col, best);
		if (!differs(q, col))
			continue;
		if (amd_grow(ids, *n, &cap, sizeof **ids, 16) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*ids)[(*n)++] = id;
	}
	sqlite3_finalize(p);
	if (prc != SQLITE_ROW && prc != SQLITE_DONE && rc == SQLITE_DONE)
		rc = prc;
	return amd_store_rows_done(st, q, rc, err);
}

int amd_run_columns_rederive(struct amd_store *st, const char *name, const struct amd_config *cfg,
			     size_t *changed, struct amd_err *err)
{
	int64_t *ids = NULL;
	size_t n = 0;
	*changed = 0;
	int rc = stale_runs(st, cfg, &ids, &n, err);
	if (rc < 0 || n == 0) {
		free(ids);
		return rc;
	}
	rc = amd_store_begin(st, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = amd_run_columns_derive(st, cfg, ids[i], name, err);
	rc = rc == 0 ? amd_store_commit(st, err) : (amd_store_rollback(st), -1);
	free(ids);
	*changed = rc == 0 ? n : 0;
	return rc;
}

int amd_run_columns_refresh(const char *path, const struct amd_config *cfg, size_t *changed,
			    struct amd_err *err)
{
	struct amd_store *st;
	int64_t *ids = NULL;
	size_t n = 0;
	*changed = 0;
	struct amd_err not_read = {{0}};
	if (amd_store_open(path, AMD_STORE_READ, &st, &not_read) < 0)
		return 0; /* the command's own open says why */
	int rc = stale_runs(st, cfg, &ids, &n, err);
	amd_store_close(st);
	if (rc < 0 || n == 0) {
		free(ids);
		return rc;
	}
	if (amd_store_open(path, AMD_STORE_WRITE, &st, err) < 0) {
		free(ids);
		return amd_fail_prefix(err, "%zu runs' columns differ from what their params give"
				       " under amdahl.yaml's run lists; cannot write them", n);
	}
	rc = amd_store_begin(st, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = amd_run_columns_derive(st, cfg, ids[i], path, err);
	rc = rc == 0 ? amd_store_commit(st, err) : (amd_store_rollback(st), -1);
	amd_store_close(st);
	free(ids);
	if (rc == 0 && amd_store_settle(path, err) < 0)
		return -1;
	*changed = rc == 0 ? n : 0;
	return rc;
}
