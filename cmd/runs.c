/* runs.c — `amdahl runs`: the sweeps in the store and their launches. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis_json.h"
#include "cmd.h"
#include "writer.h"

static void help(void)
{
	printf("usage: amdahl runs [--sweep NAME|SELECTOR] [--orphans | --sources] [--json]\n"
	       "\n"
	       "Lists each sweep and its runs (launches): strategy, n (world size),\n"
	       "repeat, status, child worker runs folded in, metrics and traces.\n"
	       "Runs that did not finish are listed and left out of statistics.\n"
	       "A SELECTOR whose values match no run lists none (exit 0) and says why on\n"
	       "stderr; a key no run has is an error naming the closest.\n"
	       "--orphans lists the traces, py-spy files, profiles and GPU logs\n"
	       "linked to no run instead ('amdahl link FILE RUN' links one).\n"
	       "--sources lists every source file of the runs instead: run, name, kind,\n"
	       "bytes, sha256 and path (a worker's files under its parent run); without\n"
	       "--sweep, every run's, then the files linked to no run.\n"
	       "\n" AMD_SELECTOR_HELP);
}

static cJSON *run_json(const struct amd_run_view *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", r->ext_id);
	cJSON_AddStringToObject(o, "sweep", r->sweep ? r->sweep : "");
	amd_json_str(o, "name", r->name);
	/* how repeats of a run without a name were counted (null: it has one) */
	amd_json_str(o, "grouped_by", r->name ? NULL : r->grouping == AMD_RUN_GROUPED
		     ? "entry point, source and params" : "nothing (a group of its own)");
	amd_json_str(o, "entry_point", r->name ? NULL : r->entry_point);
	amd_json_str(o, "source", r->name ? NULL : r->source);
	amd_json_str(o, "strategy", r->strategy);
	amd_json_num(o, "n", r->n ? r->n : NAN);
	amd_json_num(o, "nodes", r->nodes ? r->nodes : NAN);
	cJSON_AddNumberToObject(o, "repeat", r->repeat);
	cJSON_AddStringToObject(o, "status", amd_status_name(r->status));
	const char *why = amd_run_left_out(r);
	cJSON_AddBoolToObject(o, "in_statistics", why == NULL);
	amd_json_str(o, "left_out", why);
	cJSON_AddNumberToObject(o, "children", r->children);
	cJSON_AddNumberToObject(o, "metrics", r->metrics);
	cJSON_AddNumberToObject(o, "traces", r->traces);
	amd_json_num(o, "start_ms", r->start_ms ? (double)r->start_ms : NAN);
	amd_json_num(o, "end_ms", r->end_ms ? (double)r->end_ms : NAN);
	return o;
}

/* A sweep's runs by what `runs` says of them. */
struct run_counts {
	int shown, counted, failed, no_n, grouped, ungrouped;
};

static void count_run(struct run_counts *k, const struct amd_run_view *r)
{
	const char *why = amd_run_left_out(r);
	k->shown++;
	k->counted += why == NULL;
	k->failed += r->status == AMD_STATUS_FAILED || r->status == AMD_STATUS_KILLED;
	k->no_n += why && amd_status_ok(r->status);
	k->grouped += r->grouping == AMD_RUN_GROUPED;
	k->ungrouped += r->grouping == AMD_RUN_UNGROUPED;
}

/* What the table cannot say: how runs without a name were grouped. */
static void print_notes(const struct run_counts *k)
{
	if (k->grouped)
		printf("note: %d run%s without a name, shown as (SOURCE:ENTRY): runs of the same"
		       " entry point, source and params are repeats of each other\n", k->grouped,
		       k->grouped == 1 ? "" : "s");
	if (k->ungrouped)
		printf("note: %d run%s without a name, entry point, source or params: not"
		       " grouped, each is its own repeat 0\n", k->ungrouped,
		       k->ungrouped == 1 ? "" : "s");
}

/* The runs whose n their params give in a way the run lists do not show
 * (writer.h amd_run_n_sources), in id order, and why. */
struct n_sources {
	struct n_source {
		int64_t run;
		char *why;
	} *v;
	size_t n, cap;
};

static int add_n_source(int64_t run, const char *why, void *arg)
{
	struct n_sources *s = arg;
	if (amd_grow(&s->v, s->n, &s->cap, sizeof *s->v, 16) < 0 ||
	    !(s->v[s->n].why = strdup(why)))
		return -1;
	s->v[s->n++].run = run;
	return 0;
}

static int by_run(const void *a, const void *b)
{
	int64_t x = ((const struct n_source *)a)->run, y = ((const struct n_source *)b)->run;
	return (x > y) - (x < y);
}

static void n_sources_free(struct n_sources *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].why);
	free(s->v);
}

/* One note per way the sweep's runs got such an n: nodes × workers per
 * node, or a listed name in another case. */
static void print_n_sources(const struct n_sources *src, const char *sweep,
			    const struct amd_run_view *runs, size_t n)
{
	const char *why[8];
	int count[8];
	size_t k = 0;
	for (size_t i = 0; src->n && i < n; i++) {
		struct n_source key = {runs[i].id, NULL};
		const struct n_source *f = runs[i].sweep && strcmp(runs[i].sweep, sweep) == 0
			? bsearch(&key, src->v, src->n, sizeof *src->v, by_run) : NULL;
		size_t j = 0;
		while (f && j < k && strcmp(why[j], f->why) != 0)
			j++;
		if (f && j < k)
			count[j]++;
		else if (f && k < 8) {
			why[k] = f->why;
			count[k++] = 1;
		}
	}
	for (size_t j = 0; j < k; j++)
		printf("note: n of %d run%s from %s\n", count[j], count[j] == 1 ? "" : "s",
		       cmd_shown(why[j]));
}

static int print_table(const struct n_sources *src, const struct amd_sweep_view *sw,
		       size_t nsw, const struct amd_run_view *runs, size_t n)
{
	int printed = 0; /* a blank line between sweeps, none before the first shown */
	for (size_t s = 0; s < nsw; s++) {
		struct run_counts k = {0};
		for (size_t i = 0; i < n; i++)
			if (runs[i].sweep && strcmp(runs[i].sweep, sw[s].name) == 0)
				count_run(&k, &runs[i]);
		if (!k.shown)
			continue;
		printf("%ssweep %s: %d run%s, %d in statistics, %d failed or killed, %d unfinished",
		       printed++ ? "\n" : "", cmd_shown(sw[s].name), k.shown, k.shown == 1 ? "" : "s",
		       k.counted, k.failed,
		       k.shown - k.counted - k.failed - k.no_n);
		if (k.no_n)
			printf(", %d without a world size", k.no_n);
		printf("\n");
		static const char *const h[] = {"run", "strategy", "n", "repeat", "status",
						"workers", "metrics", "traces", "id"};
		struct amd_table *t = amd_table_new(9, h);
		if (!t)
			return cmd_error("runs", "out of memory");
		for (size_t c = 2; c <= 7; c++)
			if (c != 4)
				amd_table_right(t, c);
		for (size_t i = 0; i < n; i++) {
			const struct amd_run_view *r = &runs[i];
			if (!r->sweep || strcmp(r->sweep, sw[s].name) != 0)
				continue;
			char nb[16], rep[16], kids[16], met[16], tr[16];
			snprintf(nb, sizeof nb, "%d", r->n);
			snprintf(rep, sizeof rep, "%d", r->repeat);
			snprintf(kids, sizeof kids, "%d", r->children);
			snprintf(met, sizeof met, "%d", r->metrics);
			snprintf(tr, sizeof tr, "%d", r->traces);
			char label[160];
			const char *row[] = {amd_run_label(r, label, sizeof label),
					     r->strategy ? r->strategy : "?",
					     r->n ? nb : "?", rep, amd_status_name(r->status),
					     r->children ? kids : "", met, tr, r->ext_id};
			amd_table_add(t, row);
		}
		int rc = table_print(t, stdout);
		amd_table_free(t);
		if (rc < 0)
			return cmd_error("runs", "out of memory");
		print_notes(&k);
		print_n_sources(src, sw[s].name, runs, n);
	}
	return EXIT_OK;
}

/* A sweep name the store lacks: the error names the closest sweeps. */
static int no_sweep(const char *sweep, const struct amd_sweep_view *sw, size_t nsw,
		    const char *store)
{
	char near[512];
	struct amd_buf all = {0};
	if (amd_sweeps_closest(sw, nsw, sweep, near, sizeof near)) {
		for (size_t i = 0; i < nsw && i < 12; i++)
			amd_buf_printf(&all, "%s%s", i ? ", " : " (sweeps: ", sw[i].name);
		amd_buf_printf(&all, "%s", nsw > 12 ? ", …)" : nsw ? ")" : "");
	} else {
		amd_buf_printf(&all, " (%zu sweeps)", nsw);
	}
	int rc = cmd_error("runs", "no sweep named '%s' in %s%s%s", sweep, store, near,
			   all.data ? all.data : "");
	amd_buf_free(&all);
	return rc;
}

int cmd_runs(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"sweep", required_argument, NULL, 'S'},
		{"json", no_argument, NULL, 'J'},
		{"orphans", no_argument, NULL, 'O'},
		{"sources", no_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *sweep = NULL;
	int json = 0, orphans = 0, sources = 0, c;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': sweep = optarg; break;
		case 'J': json = 1; break;
		case 'O': orphans = 1; break;
		case 'F': sources = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error("runs", "unexpected argument '%s'", argv[optind]);
	if (orphans && sources)
		return cmd_error("runs", "--orphans and --sources: give one");
	const char *reads = orphans ? NULL : sweep; /* orphans: every source */
	/* listing runs reads which keys they logged, not the points */
	c = orphans || sources ? cmd_store_open(ctx, "runs", &reads, 1)
			       : cmd_store_open_key_sets(ctx, "runs", &reads, 1, amd_runs_tables,
							 amd_runs_table_count);
	if (c != 0)
		return c;
	if (orphans)
		return cmd_runs_orphans(ctx, json);
	if (sources)
		return cmd_runs_sources(ctx, sweep, json);
	struct amd_err err = {{0}}, none = {{0}};
	struct amd_run_view *runs;
	struct amd_sweep_view *sw;
	size_t n, nsw;
	int listed = sweep && amd_store_selector_is(ctx->store, sweep)
		? amd_select_runs_or_none(ctx->store, sweep, &runs, &n, &none, &err)
		: amd_runs_list(ctx->store, sweep, &runs, &n, &err);
	if (listed < 0)
		return cmd_error("runs", "%s", err.msg);
	if (amd_sweeps_list(ctx->store, &sw, &nsw, &err) < 0) {
		amd_runs_free(runs, n);
		return cmd_error("runs", "%s", err.msg);
	}
	int rc = EXIT_OK;
	if (none.msg[0]) /* a selector that picks nothing: an empty list, and why */
		fprintf(stderr, "amdahl runs: note: %s\n", none.msg);
	if (sweep && n == 0 && !none.msg[0])
		rc = no_sweep(sweep, sw, nsw, ctx->store_path);
	else if (json) {
		cJSON *root = cJSON_CreateObject();
		cJSON *arr = cJSON_AddArrayToObject(root, "runs");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, run_json(&runs[i]));
		rc = cmd_print_json("runs", root);
	} else if (n == 0 && !none.msg[0])
		printf("no runs in %s yet; 'amdahl ingest PATH' loads some\n", ctx->store_path);
	else {
		struct n_sources src = {0};
		rc = amd_run_n_sources(ctx->store, &ctx->config, add_n_source, &src, &err) < 0
			? cmd_error("runs", "%s", err.msg) : print_table(&src, sw, nsw, runs, n);
		n_sources_free(&src);
	}
	amd_runs_free(runs, n);
	amd_sweeps_free(sw, nsw);
	return rc;
}
