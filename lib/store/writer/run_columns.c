/* run_columns.c — deriving a run's strategy, n, nodes, rank and repeat
 * from its params (n, without a param, from its traces' world size); see
 * run_columns.h. */
#include "run_columns.h"
#include "sqlite_int.h"

#include <math.h>
#include <stdio.h>

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

/* Fills strategy, n, nodes, rank, repeat. (A run's name and parent are
 * the reader's facts: the MLflow readers take them from MLflow's tags.) */
int amd_run_columns_derive(struct amd_store *st, const struct amd_config *cfg, int64_t run,
			   const char *unit, struct amd_err *err)
{
	const struct amd_cfg_run *r = cfg ? &cfg->run : NULL;
	struct column col[] = {
		{r ? &r->strategy_params : NULL, strategy_keys, AMD_NAME_MAX + 1, "", 0},
		{r ? &r->n_params : NULL, n_keys, 64, "", 0},
		{r ? &r->nodes_params : NULL, nodes_keys, 64, "", 0},
		{r ? &r->rank_params : NULL, rank_keys, 64, "", 0},
		{r ? &r->repeat_params : NULL, repeat_keys, 64, "", 0},
	};
	for (size_t i = 0; i < sizeof col / sizeof col[0]; i++)
		if (first_param(st, run, &col[i], unit, err) < 0)
			return -1;
	if (!col[1].found && trace_world_size(st, run, &col[1], unit, err) < 0)
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
