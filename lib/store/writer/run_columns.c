/* run_columns.c — deriving a run's strategy, n, nodes, rank and repeat
 * from its params, and its name and parent from MLflow's tags; see
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
	const char *setting;       /* amdahl.yaml's list of param names */
	const char *const *dflt;   /* the list when amdahl.yaml names none */
	size_t len;                /* text kept (longer numbers are cut) */
	char text[AMD_NAME_MAX + 1]; /* a strategy capped by amd_name_cap */
	int found;
};

/* The next param name of c's list after *i (a config node or an index). */
static const char *next_key(const struct amd_node *list, const struct amd_node **n,
			    const struct column *c, size_t i)
{
	if (!list)
		return c->dflt[i];
	if (!*n)
		return NULL;
	const char *key = (*n)->value ? (*n)->value : "";
	*n = (*n)->next;
	return key;
}

/* First param of run whose key is in c's list, copied into c->text. */
static int first_param(struct amd_store *st, const struct amd_config *cfg, int64_t run,
		       struct column *c, const char *unit, struct amd_err *err)
{
	const struct amd_node *list = amd_config_get(cfg, c->setting);
	const struct amd_node *n = amd_node_first(list);
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT value FROM param JOIN dict ON dict.id=param.key_id"
		" WHERE run_id=?1 AND dict.s=?2", err);
	if (!q)
		return amd_fail_prefix(err, "%s", unit);
	int rc = SQLITE_DONE;
	const char *key;
	c->found = 0;
	for (size_t i = 0; !c->found && (key = next_key(list, &n, c, i)) != NULL; i++) {
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

/* Fills strategy, n, nodes, rank, repeat (and the run name from the
 * mlflow.runName tag, the parent from mlflow.parentRunId). */
int amd_run_columns_derive(struct amd_store *st, const struct amd_config *cfg, int64_t run,
			   const char *unit, struct amd_err *err)
{
	struct column col[] = {
		{"run.strategy_params", strategy_keys, AMD_NAME_MAX + 1, "", 0},
		{"run.n_params", n_keys, 64, "", 0},
		{"run.nodes_params", nodes_keys, 64, "", 0},
		{"run.rank_params", rank_keys, 64, "", 0},
		{"run.repeat_params", repeat_keys, 64, "", 0},
	};
	for (size_t i = 0; i < sizeof col / sizeof col[0]; i++)
		if (first_param(st, cfg, run, &col[i], unit, err) < 0)
			return -1;
	sqlite3_stmt *q = amd_store_cached(st,
		"UPDATE run SET strategy=COALESCE(?2, strategy), n=COALESCE(?3, n),"
		" nodes=COALESCE(?4, nodes), rank=COALESCE(?5, rank), repeat=COALESCE(?6, repeat),"
		" name=COALESCE(name, name_cap((SELECT value FROM tag JOIN dict ON dict.id=tag.key_id"
		"   WHERE run_id=?1 AND dict.s='mlflow.runName'))),"
		" parent_ext_id=COALESCE(parent_ext_id, (SELECT value FROM tag JOIN dict"
		"   ON dict.id=tag.key_id WHERE run_id=?1 AND dict.s='mlflow.parentRunId'))"
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
