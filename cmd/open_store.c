/* open_store.c — opening the store for a command that names what it
 * reads (NEEDS_STORE_NAMED; main.c closes it): the sweeps, runs or
 * files its arguments name, so a ClickHouse store loads only their rows
 * (remote.h, amd_location_open_read). A selection that can pick runs of any
 * sweep (NULL, or a selector without a sweep=NAME term) opens it all;
 * a command that knows the metrics it reads loads only their points;
 * `runs` and `regions` load of metric points one per source, run and
 * key (the server reduces them: ch_reduce.h), `runs` only the tables it
 * reads; `stats` has the server compute each run's value. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

/* The names a command's selections lead to, and what holds them. */
struct reads {
	const char **names;
	size_t n;
	struct amd_selector **parsed; /* one per selection */
	char **owned;                 /* two per selection */
};

/* Adds what sel (selection i) names: a selector's sweep=NAME; else the
 * text, the part before its first colon (SWEEP:STRATEGY[:N]) and the
 * file it is, resolved (a source's stored path). 0 when sel can pick
 * any run, 1 when it named something, -1 when out of memory. */
static int add_names(struct reads *r, size_t i, const char *sel)
{
	if (!sel)
		return 0;
	if (amd_selector_is(sel)) {
		struct amd_err err = {{0}};
		const char *sweep = NULL;
		if (amd_selector_parse(sel, &r->parsed[i], &err) == 0)
			sweep = amd_selector_eq(r->parsed[i], "sweep");
		if (sweep)
			r->names[r->n++] = sweep;
		return sweep != NULL;
	}
	r->names[r->n++] = sel;
	const char *colon = strchr(sel, ':');
	if (colon && !(r->owned[2 * i] = strndup(sel, (size_t)(colon - sel))))
		return -1;
	if (colon)
		r->names[r->n++] = r->owned[2 * i];
	if ((r->owned[2 * i + 1] = realpath(sel, NULL)) != NULL)
		r->names[r->n++] = r->owned[2 * i + 1];
	return 1;
}

static void reads_free(struct reads *r, size_t nsel)
{
	for (size_t i = 0; r->parsed && r->owned && i < nsel; i++) {
		amd_selector_free(r->parsed[i]);
		free(r->owned[2 * i]);
		free(r->owned[2 * i + 1]);
	}
	free(r->names);
	free(r->parsed);
	free(r->owned);
}

/* How a command's read narrows what a remote store loads. */
struct narrow {
	const char *const *keys; /* of metric points only these keys' (NULL: all) */
	size_t nkeys;
	enum {
		OPEN_METRICS,	  /* amd_location_open_metrics: keys' points */
		OPEN_KEY_SETS,	  /* amd_location_open_key_sets: one point per series */
		OPEN_REGION_SUMS, /* amd_location_open_region_sums: regions summed per run */
		OPEN_RUN_VALUES,  /* amd_location_open_run_values: run values reduced */
	} open;
	const char *const *tables; /* but OPEN_METRICS: these tables (NULL: all) */
	size_t ntables;
};

/* Opens path's rows of the names (n of them; 0: all) as how says. */
static int open_how(const char *path, const char *const *names, size_t n,
		    const struct narrow *how, struct amd_store **out, struct amd_err *err)
{
	switch (how->open) {
	case OPEN_REGION_SUMS:
		return amd_location_open_region_sums(path, names, n, how->tables, how->ntables,
						     out, err);
	case OPEN_KEY_SETS:
		return amd_location_open_key_sets(path, names, n, how->tables, how->ntables, out,
						  err);
	case OPEN_RUN_VALUES:
		return amd_location_open_run_values(path, names, n, how->keys, how->nkeys, out,
						    err);
	default:
		return amd_location_open_metrics(path, names, n, how->keys, how->nkeys, out, err);
	}
}

static int open_named(const char *path, const char *cmd, const char *const *sel, size_t nsel,
		      const struct narrow *how, struct amd_store **out)
{
	struct reads r = {calloc(3 * nsel + 1, sizeof *r.names), 0,
			  calloc(nsel + 1, sizeof *r.parsed), calloc(2 * nsel + 1, sizeof *r.owned)};
	int all = nsel == 0, named = 1;
	for (size_t i = 0; r.names && r.parsed && r.owned && named > 0 && i < nsel; i++)
		named = add_names(&r, i, sel[i]);
	all |= named == 0;
	int rc = 0;
	struct amd_err err = {{0}};
	if (!r.names || !r.parsed || !r.owned || named < 0)
		rc = cmd_error(cmd, "out of memory");
	else if (open_how(path, r.names, all ? 0 : r.n, how, out, &err) < 0)
		rc = cmd_error(cmd, "%s", err.msg);
	reads_free(&r, nsel);
	return rc;
}

/* The configuration whose run lists (run.n_params, …) the store's run
 * columns follow: the command's own, or amdahl.yaml read into *own for a
 * command whose row does not read it. NULL when it does not load (the
 * commands that read amdahl.yaml say what is wrong). */
static const struct amd_config *run_lists(struct cmd_ctx *ctx, struct amd_config *own)
{
	struct amd_err err = {{0}};
	if (ctx->needs & NEEDS_CONFIG)
		return &ctx->config;
	const char *path = ctx->config_path ? ctx->config_path : "amdahl.yaml";
	return amd_config_load(path, ctx->config_path != NULL, own, &err) < 0 ? NULL : own;
}

static void say_rederived(const char *cmd, size_t changed, const struct amd_config *cfg,
			  const char *where)
{
	if (changed)
		fprintf(stderr, "amdahl %s: note: the strategy, n, nodes, rank and repeat of %zu"
			" run%s re-derived from the stored params under %s%s run lists%s\n", cmd,
			changed, changed == 1 ? "" : "s", cfg->path ? cfg->path : "the default",
			cfg->path ? "'s" : "", where);
}

/* The run columns (strategy, n, …) of a SQLite store, re-derived from
 * the stored params when amdahl.yaml's run lists now give other values
 * (a command whose row does not read amdahl.yaml reads it for this). A
 * store that cannot be written keeps its columns, with a warning. */
static void refresh_run_columns(struct cmd_ctx *ctx, const char *cmd)
{
	struct amd_err err = {{0}};
	struct stat sb;
	if (amd_remote_find(ctx->store_path) || stat(ctx->store_path, &sb) != 0 ||
	    !S_ISREG(sb.st_mode))
		return;
	struct amd_config own = {0};
	const struct amd_config *cfg = run_lists(ctx, &own);
	size_t changed = 0;
	if (cfg && amd_run_columns_refresh(ctx->store_path, cfg, &changed, &err) < 0)
		cmd_error(cmd, "warning: %s", err.msg);
	else if (cfg)
		say_rederived(cmd, changed, cfg, "");
	amd_config_free(&own);
}

/* The same for a remote (ClickHouse) store, in the copy of its rows the
 * command reads: the server's rows keep the ingest's columns, so the note
 * comes with every command while the lists differ. */
static int rederive_read_copy(struct cmd_ctx *ctx, const char *cmd)
{
	struct amd_err err = {{0}};
	struct amd_config own = {0};
	const struct amd_config *cfg = run_lists(ctx, &own);
	size_t changed = 0;
	int rc = cfg ? amd_run_columns_rederive(ctx->store, ctx->store_path, cfg, &changed, &err)
		     : 0;
	if (rc < 0)
		rc = cmd_error(cmd, "%s", err.msg);
	else if (cfg)
		say_rederived(cmd, changed, cfg, " for this command (the ClickHouse store keeps"
			      " the ingest's)");
	amd_config_free(&own);
	return rc;
}

int cmd_open_named(const char *path, const char *cmd, const char *const *sel, size_t nsel,
		   struct amd_store **out)
{
	const struct narrow all = {0};
	return open_named(path, cmd, sel, nsel, &all, out);
}

static int store_open(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
		      size_t nsel, const struct narrow *how)
{
	if (!(ctx->needs & NEEDS_STORE_NAMED) || ctx->store)
		return cmd_error(cmd, "the store is opened once, for a command whose row in the "
				 "command table says NEEDS_STORE_NAMED");
	refresh_run_columns(ctx, cmd);
	int rc = open_named(ctx->store_path, cmd, sel, nsel, how, &ctx->store);
	if (rc == 0 && amd_remote_find(ctx->store_path))
		rc = rederive_read_copy(ctx, cmd);
	return rc;
}

int cmd_store_open_metrics(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			   size_t nsel, const char *const *keys, size_t nkeys)
{
	const struct narrow how = {keys, nkeys, OPEN_METRICS, NULL, 0};
	return store_open(ctx, cmd, sel, nsel, &how);
}

int cmd_store_open_run_values(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			      size_t nsel, const char *const *keys, size_t nkeys)
{
	const struct narrow how = {keys, nkeys, OPEN_RUN_VALUES, NULL, 0};
	return store_open(ctx, cmd, sel, nsel, &how);
}

int cmd_store_open_key_sets(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			    size_t nsel, const char *const *tables, size_t ntables)
{
	const struct narrow how = {NULL, 0, OPEN_KEY_SETS, tables, ntables};
	return store_open(ctx, cmd, sel, nsel, &how);
}

int cmd_store_open_regions(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			   size_t nsel, const char *const *tables, size_t ntables)
{
	const struct narrow how = {NULL, 0, OPEN_REGION_SUMS, tables, ntables};
	return store_open(ctx, cmd, sel, nsel, &how);
}

int cmd_store_open(struct cmd_ctx *ctx, const char *cmd, const char *const *sel, size_t nsel)
{
	return cmd_store_open_metrics(ctx, cmd, sel, nsel, NULL, 0);
}
