/* run_columns.c — deriving a run's strategy, n, nodes, rank and repeat
 * from its params (n, without a world-size param, from nodes × workers
 * per node, else its traces' world size; see run_columns.h), deriving
 * them again when the configuration's lists changed after the ingest,
 * and saying which params gave a run's n (writer.h). */
#include "run_columns.h"
#include "writer.h"
#include "sqlite_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "name_cap.h"
#include "num.h"
#include "stmt_cache.h"

/* Params that name a run's scaling facts, first match wins; amdahl.yaml
 * can replace each list (run.n_params, run.strategy_params, …). A name
 * matches in any case (an env dump's WORLD_SIZE), the name as listed
 * winning over another case of it. */
static const char *const n_keys[] = {"global_world_size", "world_size", "num_gpus",
				     "n_gpus", "ngpus", "gpus", "num_processes",
				     "nproc", "num_ranks", NULL};
static const char *const strategy_keys[] = {"strategy", "distributed_strategy",
					    "dist_strategy", "backend_strategy",
					    "distributed_type", NULL};
static const char *const nodes_keys[] = {"num_nodes", "nnodes", "nodes", "num_machines",
					 "slurm_nnodes", "slurm_job_num_nodes", NULL};
static const char *const rank_keys[] = {"global_rank", "rank", NULL};
static const char *const repeat_keys[] = {"repeat", "repetition", "rep", "seed_repeat", NULL};
/* Workers per node: with nodes, n for a run that logs no world size
 * (torchrun's nnodes × nproc_per_node, Lightning's num_nodes × devices). */
static const char *const per_node_keys[] = {"nproc_per_node", "local_world_size", "devices",
					    "gpus_per_node", "slurm_gpus_per_node",
					    "ntasks_per_node", "slurm_ntasks_per_node", NULL};

/* The columns: the five the run row stores, then the per-node count
 * that only gives n. */
enum { COL_STRATEGY, COL_N, COL_NODES, COL_RANK, COL_REPEAT, NSTORED,
       COL_PER_NODE = NSTORED, NCOLUMNS };

/* A derived column: the params that may hold it, its text when found. */
struct column {
	const struct amd_cfg_list *setting; /* amdahl.yaml's list of param names, if set */
	const char *const *dflt;   /* the list when amdahl.yaml names none */
	size_t len;                /* text kept (longer numbers are cut) */
	char text[AMD_NAME_MAX + 1]; /* a strategy capped by amd_name_cap */
	int found;
	size_t rank;               /* of the param that set it (key_rank) */
	char key[64];              /* that param's name, as logged (cut) */
	int product;               /* n as nodes × workers per node (key names both) */
};

/* Param name i of c's list, NULL past its end. */
static const char *key_at(const struct column *c, size_t i)
{
	if (c->setting && c->setting->set)
		return i < c->setting->n ? c->setting->items[i] : NULL;
	return c->dflt[i];
}

/* Where key stands in c's list: 2i for name i as listed, 2i+1 for it
 * in another case; -1 when the list does not hold it. *listed is the
 * name as the list spells it. */
static long key_rank(const struct column *c, const char *key, const char **listed)
{
	const char *name;
	for (size_t i = 0; (name = key_at(c, i)) != NULL; i++)
		if (strcasecmp(name, key) == 0) {
			*listed = name;
			return (long)(2 * i + (strcmp(name, key) != 0));
		}
	return -1;
}

/* accelerate's distributed_type names a strategy unless it is NO (one
 * process): MULTI_GPU, MULTI_CPU, …, FSDP, DEEPSPEED, MEGATRON_LM, XLA,
 * TP, as logged or as the enum's str ("DistributedType.FSDP"). */
static int is_accelerate_strategy(const char *v)
{
	static const char *const types[] = {"FSDP", "DEEPSPEED", "MEGATRON_LM", "XLA", "TP"};
	if (strncasecmp(v, "DistributedType.", 16) == 0)
		v += 16;
	if (strncasecmp(v, "MULTI_", 6) == 0 && v[6])
		return 1;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcasecmp(v, types[i]) == 0)
			return 1;
	return 0;
}

/* A strategy object's repr (Lightning's strategy=DDPStrategy(...) logs
 * "<lightning.pytorch.strategies.ddp.DDPStrategy object at 0x7f…>"):
 * its class name into out; 0 when v is no such repr. */
static int repr_class(const char *v, char *out, size_t len)
{
	const char *at = strstr(v, " object at 0x");
	if (v[0] != '<' || !at)
		return 0;
	const char *start = at;
	while (start > v + 1 && start[-1] != '.')
		start--;
	if (start == at)
		return 0;
	snprintf(out, len, "%.*s", (int)(at - start), start);
	return 1;
}

/* Workers per node from v: a positive whole number, or a list's length
 * (Lightning's devices=[0, 1]); 0 for anything else ("auto", -1). */
static int64_t per_node_count(const char *v)
{
	int64_t k;
	double d;
	if (amd_parse_int64(v, &k) == 0)
		return k > 0 ? k : 0;
	if (amd_parse_double(v, &d) == 0)
		return d == floor(d) && d >= 1 && d < 1e9 ? (int64_t)d : 0;
	size_t len = strlen(v);
	if (len < 3 || !((v[0] == '[' && v[len - 1] == ']') || (v[0] == '(' && v[len - 1] == ')')))
		return 0;
	for (size_t i = 1; i + 1 < len; i++) /* items of indices only */
		if (!strchr("0123456789, ", v[i]))
			return 0;
	k = 1;
	for (size_t i = 1; i + 1 < len; i++)
		k += v[i] == ',';
	return k - (v[len - 2] == ',' || v[len - 2] == ' ' ? 1 : 0);
}

/* The text param key=v gives column c (listed: the list's name) into
 * out; 0 when v does not say what c holds. */
static int column_text(int c, const char *listed, const char *v, char *out, size_t len)
{
	if (c == COL_PER_NODE) {
		int64_t k = per_node_count(v);
		return k > 0 && snprintf(out, len, "%lld", (long long)k) > 0;
	}
	if (c == COL_STRATEGY && strcasecmp(listed, "distributed_type") == 0 &&
	    !is_accelerate_strategy(v))
		return 0;
	if (c == COL_STRATEGY && repr_class(v, out, len))
		return 1;
	snprintf(out, len, "%s", v);
	return 1;
}

/* Param key=value sets each column whose list holds key, when it ranks
 * before what set the column so far. -1: out of memory. */
static int take_param(const char *key, const char *value, struct column col[NCOLUMNS])
{
	char capped[AMD_NAME_MAX + 1];
	const char *v = amd_name_cap(value, capped);
	if (!v)
		return -1;
	for (int c = 0; c < NCOLUMNS; c++) {
		const char *listed;
		long r = key_rank(&col[c], key, &listed);
		char text[AMD_NAME_MAX + 1];
		if (r < 0 || (col[c].found && col[c].rank <= (size_t)r) ||
		    !column_text(c, listed, v, text, col[c].len))
			continue;
		memcpy(col[c].text, text, sizeof text);
		col[c].found = 1;
		col[c].rank = (size_t)r;
		snprintf(col[c].key, sizeof col[c].key, "%s", key);
	}
	return 0;
}

/* A run with no world-size param but nodes and workers per node: n is
 * their product (a world size is never a guess from one of them). */
static void n_from_nodes(struct column col[NCOLUMNS])
{
	int64_t nodes, per;
	if (col[COL_N].found || !col[COL_NODES].found || !col[COL_PER_NODE].found ||
	    amd_parse_int64(col[COL_NODES].text, &nodes) < 0 || nodes < 1 || nodes > 1000000 ||
	    amd_parse_int64(col[COL_PER_NODE].text, &per) < 0 || per > 1000000)
		return;
	snprintf(col[COL_N].text, col[COL_N].len, "%lld", (long long)(nodes * per));
	col[COL_N].found = 1;
	col[COL_N].product = 1;
	snprintf(col[COL_N].key, sizeof col[COL_N].key, "%.30s × %.28s", col[COL_NODES].key,
		 col[COL_PER_NODE].key);
}

/* The params of run set the columns (c->found says which). */
static int param_columns(struct amd_store *st, int64_t run, struct column col[NCOLUMNS],
			 const char *unit, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st,
		"SELECT dict.s, value FROM param JOIN dict ON dict.id=param.key_id"
		" WHERE run_id=?1 AND value IS NOT NULL", err);
	if (!q)
		return amd_fail_prefix(err, "%s", unit);
	sqlite3_bind_int64(q, 1, run);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(q, 0);
		const char *v = (const char *)sqlite3_column_text(q, 1);
		if (!key || !v || take_param(key, v, col) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	amd_store_cached_drop(q);
	if (rc != SQLITE_DONE)
		return amd_fail(err, "%s: store: %s", unit, sqlite3_errstr(rc));
	n_from_nodes(col);
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

/* The columns, nothing found yet, with cfg's lists: strategy, n, nodes,
 * rank, repeat, workers per node. */
static void columns_init(const struct amd_config *cfg, struct column col[NCOLUMNS])
{
	const struct amd_cfg_run *r = cfg ? &cfg->run : NULL;
	const struct column c[NCOLUMNS] = {
		{r ? &r->strategy_params : NULL, strategy_keys, AMD_NAME_MAX + 1, "", 0, 0, "", 0},
		{r ? &r->n_params : NULL, n_keys, 64, "", 0, 0, "", 0},
		{r ? &r->nodes_params : NULL, nodes_keys, 64, "", 0, 0, "", 0},
		{r ? &r->rank_params : NULL, rank_keys, 64, "", 0, 0, "", 0},
		{r ? &r->repeat_params : NULL, repeat_keys, 64, "", 0, 0, "", 0},
		{r ? &r->per_node_params : NULL, per_node_keys, 64, "", 0, 0, "", 0},
	};
	memcpy(col, c, sizeof c);
}

/* The columns of run as its params give them under cfg's lists (n,
 * without a param, from nodes × workers per node, else its traces). */
static int columns_of(struct amd_store *st, const struct amd_config *cfg, int64_t run,
		      struct column col[NCOLUMNS], const char *unit, struct amd_err *err)
{
	columns_init(cfg, col);
	if (param_columns(st, run, col, unit, err) < 0)
		return -1;
	if (!col[COL_N].found && trace_world_size(st, run, &col[COL_N], unit, err) < 0)
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
	if (col[COL_STRATEGY].found)
		sqlite3_bind_text(q, 2, col[COL_STRATEGY].text, -1, SQLITE_STATIC);
	for (int i = COL_N; i < NSTORED; i++)
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
	if (col[COL_STRATEGY].found &&
	    (sqlite3_column_type(q, 1) == SQLITE_NULL ||
	     strcmp(col[COL_STRATEGY].text, (const char *)sqlite3_column_text(q, 1)) != 0))
		return 1;
	for (int i = COL_N; i < NSTORED; i++) {
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

/* The params of the lists (in any case), every run's, in run order
 * (one query). */
static sqlite3_stmt *list_params(struct amd_store *st, const struct column col[NCOLUMNS],
				 struct amd_err *err)
{
	struct amd_buf sql = {0};
	const char *key;
	size_t k = 0;
	int rc = amd_buf_printf(&sql, "SELECT p.run_id, d.s, p.value FROM param p JOIN dict d"
				" ON d.id = p.key_id WHERE p.value IS NOT NULL"
				" AND d.s COLLATE NOCASE IN (");
	for (int c = 0; c < NCOLUMNS; c++)
		for (size_t i = 0; rc == 0 && (key = key_at(&col[c], i)) != NULL; i++)
			rc = amd_buf_printf(&sql, "%s?", k++ ? "," : "");
	if (rc == 0)
		rc = amd_buf_printf(&sql, "%s) ORDER BY p.run_id", k ? "" : "NULL");
	sqlite3_stmt *q = rc == 0 ? amd_store_prepare(st, sql.data, err) : NULL;
	if (rc < 0)
		amd_fail(err, "out of memory");
	k = 0;
	for (int c = 0; q && c < NCOLUMNS; c++)
		for (size_t i = 0; (key = key_at(&col[c], i)) != NULL; i++)
			sqlite3_bind_text(q, (int)++k, key, -1, SQLITE_STATIC);
	amd_buf_free(&sql);
	return q;
}

/* Called by each_run per run with the columns its params give (n from
 * nodes × workers per node too, never from traces); q's row is the
 * run's: id, strategy, n, nodes, rank, repeat. Nonzero (an SQLite code)
 * stops the walk. */
typedef int run_fn(sqlite3_stmt *q, const struct column col[NCOLUMNS], void *arg);

/* fn for every run of st, in id order, under cfg's lists: the runs and
 * the params of the lists read once each, side by side. */
static int each_run(struct amd_store *st, const struct amd_config *cfg, run_fn *fn, void *arg,
		    struct amd_err *err)
{
	struct column empty[NCOLUMNS];
	columns_init(cfg, empty);
	sqlite3_stmt *p = list_params(st, empty, err);
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
		memcpy(col, empty, sizeof col);
		for (; prc == SQLITE_ROW && sqlite3_column_int64(p, 0) <= id; prc = sqlite3_step(p)) {
			const char *key = (const char *)sqlite3_column_text(p, 1);
			const char *v = (const char *)sqlite3_column_text(p, 2);
			if (sqlite3_column_int64(p, 0) == id && key && v && take_param(key, v, col) < 0)
				break;
		}
		if (prc == SQLITE_ROW && sqlite3_column_int64(p, 0) <= id) {
			rc = SQLITE_NOMEM; /* take_param's */
			break;
		}
		n_from_nodes(col);
		if ((rc = fn(q, col, arg)) != 0)
			break;
	}
	sqlite3_finalize(p);
	if (prc != SQLITE_ROW && prc != SQLITE_DONE && rc == SQLITE_DONE)
		rc = prc;
	return amd_store_rows_done(st, q, rc, err);
}

struct id_list {
	int64_t *ids;
	size_t n, cap;
};

/* each_run's fn: the run's id into arg (an id_list) when its columns
 * differ from its params'. */
static int add_if_stale(sqlite3_stmt *q, const struct column col[NCOLUMNS], void *arg)
{
	struct id_list *l = arg;
	if (!differs(q, col))
		return 0;
	if (amd_grow(&l->ids, l->n, &l->cap, sizeof *l->ids, 16) < 0)
		return SQLITE_NOMEM;
	l->ids[l->n++] = sqlite3_column_int64(q, 0);
	return 0;
}

/* The ids of the runs whose columns differ from what their params give
 * under cfg, into *ids (the caller frees). */
static int stale_runs(struct amd_store *st, const struct amd_config *cfg, int64_t **ids,
		      size_t *n, struct amd_err *err)
{
	struct id_list l = {0};
	int rc = each_run(st, cfg, add_if_stale, &l, err);
	*ids = l.ids;
	*n = rc == 0 ? l.n : 0;
	return rc;
}

struct n_source_walk {
	amd_n_source_fn *fn;
	void *arg;
};

/* each_run's fn: why the run's n is what it is, to the caller's fn when
 * the lists do not show it. */
static int tell_n_source(sqlite3_stmt *q, const struct column col[NCOLUMNS], void *arg)
{
	const struct n_source_walk *w = arg;
	const struct column *n = &col[COL_N];
	const char *listed;
	char why[200];
	if (!n->found)
		return 0;
	if (n->product)
		snprintf(why, sizeof why, "%s (nodes × workers per node)", n->key);
	else if (key_rank(n, n->key, &listed) % 2 == 1)
		snprintf(why, sizeof why, "%s (%s in another case)", n->key, listed);
	else
		return 0;
	return w->fn(sqlite3_column_int64(q, 0), why, w->arg) < 0 ? SQLITE_NOMEM : 0;
}

int amd_run_n_sources(struct amd_store *st, const struct amd_config *cfg, amd_n_source_fn *fn,
		      void *arg, struct amd_err *err)
{
	struct n_source_walk w = {fn, arg};
	return each_run(st, cfg, tell_n_source, &w, err);
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
