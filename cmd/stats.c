/* stats.c — `amdahl stats`: per strategy and n the runs' median epoch
 * time with its interval and spread, speedup, efficiency, Karp–Flatt, the
 * Amdahl and USL fits, the rules applied and the runs left out; --json
 * carries every value and interval. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "stats_pooled.h"

static void help(void)
{
	printf("usage: amdahl stats [--sweep S|SELECTOR] [--by KEY] [--metric M] [--axis P]\n"
	       "                    [--keep-first]\n"
	       "                    [--keep-profiled] [--mad-k K] [--resamples B] [--seed N]\n"
	       "                    [--aggregate median|mlperf] [--json]\n"
	       "\n"
	       "Statistics across repeated runs, per strategy and n (world size):\n"
	       "runs, median with a 95%% bootstrap CI, CV, speedup and efficiency against\n"
	       "the smallest n of the strategy (with CIs), Karp–Flatt serial fraction,\n"
	       "an Amdahl fit T(n) = a + b/n and a USL fit; throughput, energy and GPU\n"
	       "utilisation where logged. Each run's value is the median of its epochs\n"
	       "without epoch 0 (warm-up) and epochs overlapping a profiler window.\n"
	       "\n"
	       "  --sweep S        one sweep or the runs a SELECTOR picks (default: every\n"
	       "                   sweep in the store)\n"
	       "  --by KEY         one block per value of KEY (param.NAME, tag.NAME,\n"
	       "                   strategy, ...) among the runs: variants, commits\n"
	       "  --metric M       the per-epoch metric (default epoch_time_s)\n"
	       "  --axis P         scale over param P instead of the world size, e.g.\n"
	       "                   global_batch_size: throughput and energy per sample;\n"
	       "                   --axis n is the world size (the default)\n"
	       "  --keep-first     keep epoch 0\n"
	       "  --keep-profiled  keep epochs overlapping a profiler trace window\n"
	       "  --mad-k K        flag epochs with modified z-score above K (default 3.5)\n"
	       "  --resamples B    bootstrap resamples (default 4000, at least 2000)\n"
	       "  --seed N         bootstrap seed (default 20260101)\n"
	       "  --aggregate A    a configuration's runs to one value: median (default)\n"
	       "                   or mlperf (MLPerf's rule: drop the fastest and the\n"
	       "                   slowest run, the mean of the rest; below 3 runs the\n"
	       "                   mean); speedup, fits and intervals follow. JSON keeps\n"
	       "                   the key \"median\", options.aggregate says which\n"
	       "  --json           every value and interval as JSON (with --by, each\n"
	       "                   sweep object also has \"by\" and \"group\"); \"memory\"\n"
	       "                   holds peak memory per GPU per configuration (bytes:\n"
	       "                   median, interval, least, most) from profile_memory\n"
	       "                   traces or a logged max_memory_allocated metric\n"
	       "\n" AMD_SELECTOR_HELP);
}

/* ---- terminal ---- */

/* Prints a side table after its title unless it has no rows; frees it.
 * -1 when it is incomplete (out of memory). */
static int print_side(struct amd_table *t, const char *title)
{
	int rc = amd_table_ok(t) ? 0 : -1;
	if (rc == 0 && t->nrows) {
		printf("  %s\n", title);
		rc = table_print(t, stdout);
	}
	amd_table_free(t);
	return rc;
}

/* The fit's R² in words: the number, or why there is none (the metric
 * is the same at every n: nothing to explain). */
static const char *r2_text(char *buf, size_t len, double r2, const char *y)
{
	if (amd_num_ok(r2))
		snprintf(buf, len, "R² %.3f", r2);
	else
		snprintf(buf, len, "no R²: %s is the same at every n", y);
	return buf;
}

static void print_fits(const struct amd_strategy_stats *st, int higher, double level)
{
	const char *y = higher ? "1/X(n)" : "T(n)";
	const struct amd_fit *a = &st->amdahl, *u = &st->usl;
	char ci[80], r2[64];
	if (a->ok && a->b < 0)
		printf("  Amdahl fit %s = %.4g %+.4g/n: time grows with n, Amdahl's law does not"
		       " describe it (%s)\n", y, a->a, a->b, r2_text(r2, sizeof r2, a->r2, y));
	else if (a->ok && !amd_num_ok(a->serial_fraction))
		printf("  Amdahl fit %s = %.4g + %.4g/n: no serial fraction (A + B = 0)\n", y, a->a,
		       a->b);
	else if (a->ok)
		printf("  Amdahl fit %s = %.4g + %.4g/n: serial fraction %.3f %s (%s)\n",
		       y, a->a, a->b, a->serial_fraction,
		       a->ci_serial.valid ? amd_stats_ci_cell(ci, sizeof ci, &a->ci_serial, "%.3f", level)
					  : a->ci_serial.why ? a->ci_serial.why : "",
		       r2_text(r2, sizeof r2, a->r2, y));
	else
		printf("  Amdahl fit: %s\n", a->why);
	if (u->ok && amd_num_ok(u->n_peak))
		printf("  USL fit: α %.4g, β %.4g, γ %.4g; predicted peak at n* = %.1f\n",
		       u->alpha, u->beta, u->gamma, u->n_peak);
	else if (u->ok)
		printf("  USL fit%s: α %.4g, β %.4g, γ %.4g; %s\n", u->bounded ? " (α, β ≥ 0)" : "",
		       u->alpha, u->beta, u->gamma, u->peak_why);
	else
		printf("  USL fit refused: %s\n", u->why);
}

static void print_slower(const struct amd_strategy_stats *st, int higher, const char *agg)
{
	for (size_t i = 1; i < st->npoints; i++) {
		const struct amd_point_stats *p = &st->points[i], *q = &st->points[i - 1];
		if (p->speedup < 1)
			printf("  note: n=%g is slower than n=%g (speedup %.2f)\n", p->n, st->base_n,
			       p->speedup);
		else if (i > 1 && (higher ? p->median < q->median : p->median > q->median))
			printf("  note: n=%g is slower than n=%g (%s %.4g vs %.4g)\n", p->n, q->n,
			       agg, p->median, q->median);
	}
}

/* The strategy's table, fits and notes, energy and profile tables; -1
 * when out of memory. */
static int print_strategy(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st)
{
	size_t ml = strlen(s->metric);
	const char *unit = strstr(s->metric, "per_s") ? "/s"
		: ml > 3 && strcmp(s->metric + ml - 3, "_ms") == 0 ? " ms"
		: ml > 2 && strcmp(s->metric + ml - 2, "_s") == 0 ? " s" : "";
	printf("\nstrategy %s (base %s=%g: %.4g%s)\n", *st->strategy ? cmd_shown(st->strategy) : "(none logged)", s->scaling ? "n" : s->axis,
	       st->base_n, st->base_value, unit);
	struct amd_table *t = amd_stats_table(s, st);
	int rc = table_print(t, stdout);
	for (size_t i = 0; rc == 0 && i < t->nnotes; i++)
		printf("  %s\n", t->notes[i]); /* e.g. an interval's own level */
	amd_table_free(t);
	if (rc == 0 && s->scaling) {
		print_fits(st, s->higher_is_better, s->level);
		print_slower(st, s->higher_is_better,
			     amd_aggregate_label(s->aggregate));
		char cap[256];
		snprintf(cap, sizeof cap, "energy and utilisation per GPU (gpu_energy_J per epoch;"
			 " else power × probing interval per run, mean power × epoch time per"
			 " epoch%s)", s->nruns_nvsmi ? "; runs that logged none: nvidia-smi samples"
			 " linked to them or in their start..end" : "");
		rc = print_side(amd_energy_table(st), cap);
	}
	if (rc == 0)
		rc = print_side(amd_profile_table(st),
				"profile (phase shares of the trace window, mean over ranks and runs;"
				" comp fraction as itwinai: counts overlap twice)");
	return rc;
}

/* A run as the notes under the tables name it: its name (else its id),
 * then its strategy, repeat and id, each only when there is one. */
static void run_ident(const struct amd_run_value *v, char *buf, size_t len)
{
	int named = v->name && *v->name;
	int at = snprintf(buf, len, "%s (", named ? v->name : v->ext_id);
	if (v->strategy && *v->strategy && at > 0 && (size_t)at < len)
		at += snprintf(buf + at, len - (size_t)at, "%s, ", v->strategy);
	if (at > 0 && (size_t)at < len)
		snprintf(buf + at, len - (size_t)at, named ? "repeat %d, %s)" : "repeat %d)",
			 v->repeat, v->ext_id);
}

/* -1 when out of memory. */
static int print_sweep(const struct amd_sweep_stats *s)
{
	printf("sweep %s: %s by %s, %zu run%s (%zu left out)\n", cmd_shown(s->sweep), s->metric,
	       s->scaling ? "n (world size)" : s->axis, s->nruns_total,
	       s->nruns_total == 1 ? "" : "s", s->nruns_excluded);
	if (*s->note)
		printf("%s\n", s->note);
	for (size_t i = 0; i < s->nstrategies; i++)
		if (print_strategy(s, &s->strategies[i]) < 0)
			return -1;
	printf("\n%s\n", s->rules);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t p = 0; p < s->strategies[i].npoints; p++)
			for (size_t r = 0; r < s->strategies[i].points[p].nruns; r++) {
				const struct amd_run_value *v = &s->strategies[i].points[p].runs[r];
				char who[512];
				if (*v->flagged)
					printf("flagged: %s: %s\n", (run_ident(v, who, sizeof who), cmd_shown(who)),
					       cmd_shown(v->flagged));
			}
	int no_world = 0;
	for (size_t i = 0; i < s->nexcluded; i++)
		no_world |= s->excluded[i].excluded &&
			    strstr(s->excluded[i].excluded, "world size unknown") != NULL;
	if (s->nstrategies == 0 && no_world)
		printf("no run has a usable %s: runs without a world size are left out (below);"
		       " give one as the run's world_size param (an MLPerf log: :::SYSJSON, or"
		       " the results folder's systems/SYSTEM.json with number_of_nodes and"
		       " accelerators_per_node)\n", s->metric);
	else if (s->nstrategies == 0)
		printf("no run has a usable %s; --metric names another per-epoch metric\n",
		       s->metric);
	if (!s->has_traces)
		printf("no profiler traces linked: no phase shares\n");
	static const int phases[] = {AMD_PHASE_COMPUTE, AMD_PHASE_COMM, AMD_PHASE_MEMORY,
				     AMD_PHASE_OTHER, AMD_PHASE_IDLE};
	double total = s->has_traces ? amd_sweep_phase_sum_max(s, phases, 5) : 0;
	if (total > 1.02) /* as the report's "Time by phase" says it */
		printf("phases overlap (work on concurrent threads, as in CPU traces): their shares "
		       "add up to as much as %.0f%% of the trace window, so idle is not what the "
		       "others leave\n", total * 100);
	if (!s->has_energy)
		printf("no energy logged (gpu_energy_J or gpu_power_W)\n");
	for (size_t i = 0; i < s->nexcluded; i++) {
		char who[512];
		run_ident(&s->excluded[i], who, sizeof who);
		char *why = amd_epochs_shown(s->excluded[i].excluded ? s->excluded[i].excluded : "", 20);
		if (!why)
			return -1;
		printf("left out: %s: %s\n", cmd_shown(who), cmd_shown(why));
		free(why);
	}
	return 0;
}

/* ---- entry ---- */

static int parse(int argc, char **argv, struct amd_analysis_opts *o, const char **by, int *json)
{
	static const struct option opts[] = {
		{"sweep", required_argument, NULL, 'S'},
		{"metric", required_argument, NULL, 'm'},
		{"axis", required_argument, NULL, 'a'},
		{"keep-first", no_argument, NULL, 'f'},
		{"keep-profiled", no_argument, NULL, 'p'},
		{"mad-k", required_argument, NULL, 'k'},
		{"resamples", required_argument, NULL, 'B'},
		{"seed", required_argument, NULL, 's'},
		{"aggregate", required_argument, NULL, 'g'},
		{"by", required_argument, NULL, 'y'},
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	int64_t v;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': o->sweep = optarg; break;
		case 'm': o->metric = optarg; break;
		case 'a': o->axis = optarg; break;
		case 'f': o->keep_first = 1; break;
		case 'p': o->keep_profiled = 1; break;
		case 'k':
			if (amd_parse_double(optarg, &o->mad_k) < 0 || !(o->mad_k > 0))
				return cmd_error("stats", "--mad-k wants a positive number, not '%s'", optarg);
			break;
		case 'B':
			if (amd_parse_int64(optarg, &v) < 0 || v < 2000 || v > INT_MAX)
				return cmd_error("stats", "--resamples wants a number >= 2000, not '%s'", optarg);
			o->resamples = (int)v;
			break;
		case 's':
			if (amd_parse_int64(optarg, &v) < 0 || v < 0)
				return cmd_error("stats", "--seed wants a number, not '%s'", optarg);
			o->seed = (unsigned long)v;
			break;
		case 'g':
			if (amd_aggregate_parse(optarg, &o->aggregate) < 0)
				return cmd_error("stats", "--aggregate: '%s' is not median or mlperf",
						 optarg);
			break;
		case 'y': *by = optarg; break;
		case 'J': *json = 1; break;
		case 'h': help(); return -1;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error("stats", "unexpected argument '%s'", argv[optind]);
	return 0;
}

static void names_free(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* With --by: the selector of each group, in *names, and its value in
 * *values (both NULL-free arrays of n). */
static int group_names(struct cmd_ctx *ctx, const char *want, const char *by, char ***names,
		       char ***values, size_t *n)
{
	struct amd_err err = {{0}};
	struct amd_run_group *g;
	size_t ng, skipped;
	*names = *values = NULL;
	*n = 0;
	if (amd_select_groups(ctx->store, want, by, &g, &ng, &skipped, &err) < 0)
		return cmd_error("stats", "%s", err.msg);
	*names = calloc(ng, sizeof **names);
	*values = calloc(ng, sizeof **values);
	for (size_t i = 0; *names && *values && i < ng; i++, (*n)++) {
		(*names)[i] = g[i].selector;
		(*values)[i] = g[i].value;
		g[i].selector = g[i].value = NULL;
	}
	amd_run_groups_free(g, ng);
	if (*names && *values)
		return 0;
	names_free(*names, *n);
	names_free(*values, *n);
	*names = *values = NULL;
	*n = 0;
	return cmd_error("stats", "out of memory");
}

/* Names of the sweeps to show: the one asked for, else every sweep. */
static int sweep_names(struct cmd_ctx *ctx, const char *want, char ***names, size_t *n)
{
	*n = 0;
	if (want) {
		*names = malloc(sizeof **names);
		if (*names && ((*names)[0] = strdup(want)))
			*n = 1;
		else {
			free(*names);
			*names = NULL;
			return cmd_error("stats", "out of memory");
		}
		return 0;
	}
	struct amd_sweep_view *sw;
	size_t ns;
	struct amd_err err = {{0}};
	*names = NULL;
	if (amd_sweeps_list(ctx->store, &sw, &ns, &err) < 0)
		return cmd_error("stats", "%s", err.msg);
	int rc = (*names = calloc(ns ? ns : 1, sizeof **names)) ? 0 : -1;
	for (size_t i = 0; i < ns && rc == 0; i++)
		if (sw[i].runs > 0 && !((*names)[(*n)++] = strdup(sw[i].name)))
			rc = -1;
	amd_sweeps_free(sw, ns);
	if (rc == 0)
		return 0;
	names_free(*names, *n);
	*names = NULL;
	*n = 0;
	return cmd_error("stats", "out of memory");
}

/* Memory per GPU per configuration under "memory" of j; 0, or the exit
 * status with the error printed. */
static int add_memory(struct amd_store *st, cJSON *j, const struct amd_sweep_stats *s)
{
	struct amd_err err = {{0}};
	struct amd_memory_stats m;
	if (amd_memory_stats(st, s, &m, &err) < 0)
		return cmd_error("stats", "%s", err.msg);
	cJSON *mj = amd_memory_json(&m);
	amd_memory_stats_free(&m);
	if (mj && cJSON_AddItemToObject(j, "memory", mj))
		return 0;
	cJSON_Delete(mj);
	return cmd_error("stats", "out of memory");
}

/* The sweep's JSON, with its memory figures and its group when grouped;
 * added to arr. */
static int add_json(struct amd_store *st, cJSON *arr, const struct amd_sweep_stats *s,
		    const char *by, const char *group)
{
	cJSON *j = amd_sweep_stats_json(s);
	if (j && (!amd_json_str(j, "by", by) || !amd_json_str(j, "group", by ? group : NULL))) {
		cJSON_Delete(j);
		j = NULL;
	}
	int rc = j ? add_memory(st, j, s) : 0;
	if (rc) {
		cJSON_Delete(j);
		return rc;
	}
	if (!cJSON_AddItemToArray(arr, j)) {
		cJSON_Delete(j);
		return cmd_error("stats", "out of memory");
	}
	return 0;
}

static int show_all(struct cmd_ctx *ctx, struct amd_analysis_opts *o, char **names,
		    char **values, size_t n, const char *by, int json)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "sweeps");
	int rc = arr ? 0 : cmd_error("stats", "out of memory");
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct amd_err err = {{0}};
		struct amd_sweep_stats *s;
		o->sweep = names[i];
		if (amd_analyse(ctx->store, o, &s, &err) < 0) {
			rc = cmd_error("stats", "%s", err.msg);
			break;
		}
		if (json)
			rc = add_json(ctx->store, arr, s, by, values ? values[i] : NULL);
		else {
			printf("%s", i ? "\n\n" : "");
			if (by)
				printf("group %s=%s\n", by, cmd_shown(values[i]));
			if (print_sweep(s) < 0)
				rc = cmd_error("stats", "out of memory");
			/* on the world-size axis, a sweep's point that pools configurations */
			if (rc == 0 && !by && !o->axis && !amd_selector_is(names[i]))
				stats_pooled_notes(s, stdout);
		}
		amd_sweep_stats_free(s);
	}
	if (json && rc == 0)
		rc = cmd_print_json("stats", root);
	else
		cJSON_Delete(root);
	return rc;
}

int cmd_stats(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct amd_analysis_opts o = {0};
	const char *by = NULL;
	int json = 0, rc = parse(argc, argv, &o, &by, &json);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	/* a remote store loads the points of the metrics stats reads only,
	 * and its server computes each run's value of the metric */
	const char *keys[AMD_ANALYSIS_MAX_KEYS];
	size_t nkeys = amd_analysis_metric_keys(&o, keys);
	if ((rc = cmd_store_open_run_values(ctx, "stats", &o.sweep, 1, keys, nkeys)) != 0)
		return rc;
	char **names, **values = NULL;
	size_t n;
	rc = by ? group_names(ctx, o.sweep, by, &names, &values, &n)
		: sweep_names(ctx, o.sweep, &names, &n);
	if (rc != 0)
		return rc;
	if (n == 0 && !json)
		printf("no runs in %s yet; 'amdahl ingest PATH' loads some\n", ctx->store_path);
	rc = show_all(ctx, &o, names, values, n, by, json);
	names_free(names, n);
	names_free(values, values ? n : 0);
	return rc;
}
