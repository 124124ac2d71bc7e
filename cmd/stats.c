/* stats.c — `amdahl stats`: per strategy and n the runs' median epoch
 * time with its interval and spread, speedup, efficiency, Karp–Flatt, the
 * Amdahl and USL fits, the rules applied and the runs left out; --json
 * carries every value and interval. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "analysis_json.h"
#include "cmd.h"
#include "runs.h"

static void help(void)
{
	printf("usage: amdahl stats [--sweep S] [--metric M] [--axis P] [--keep-first]\n"
	       "                    [--keep-profiled] [--mad-k K] [--resamples B] [--seed N]\n"
	       "                    [--json]\n"
	       "\n"
	       "Statistics across repeated runs, per strategy and n (world size):\n"
	       "runs, median with a 95%% bootstrap CI, CV, speedup and efficiency against\n"
	       "the smallest n of the strategy (with CIs), Karp–Flatt serial fraction,\n"
	       "an Amdahl fit T(n) = a + b/n and a USL fit; throughput, energy and GPU\n"
	       "utilisation where logged. Each run's value is the median of its epochs\n"
	       "without epoch 0 (warm-up) and epochs overlapping a profiler window.\n"
	       "\n"
	       "  --sweep S        one sweep (default: every sweep in the store)\n"
	       "  --metric M       the per-epoch metric (default epoch_time_s)\n"
	       "  --axis P         scale over param P instead of the world size, e.g.\n"
	       "                   global_batch_size: throughput and energy per sample\n"
	       "  --keep-first     keep epoch 0\n"
	       "  --keep-profiled  keep epochs overlapping a profiler trace window\n"
	       "  --mad-k K        flag epochs with modified z-score above K (default 3.5)\n"
	       "  --resamples B    bootstrap resamples (default 4000, at least 2000)\n"
	       "  --seed N         bootstrap seed (default 20260101)\n"
	       "  --json           every value and interval as JSON\n");
}

/* ---- terminal ---- */

static const char *fmt(char *b, size_t n, const char *f, double v)
{
	if (isfinite(v))
		snprintf(b, n, f, v);
	else
		snprintf(b, n, "–");
	return b;
}

static const char *ci_text(char *b, size_t n, const struct amd_ci *ci, const char *f)
{
	if (!ci->valid) {
		snprintf(b, n, "%s", ci->why ? ci->why : "");
		return b;
	}
	char lo[32], hi[32];
	snprintf(b, n, "[%s, %s]", fmt(lo, sizeof lo, f, ci->lo), fmt(hi, sizeof hi, f, ci->hi));
	return b;
}

static void scaling_row(struct table *t, const struct amd_point_stats *p)
{
	char n[32], runs[16], med[32], ci[64], cv[32], sp[32], spci[64], ef[32], kf[32];
	char tp[32];
	snprintf(runs, sizeof runs, "%zu", p->nruns);
	char sps[100];
	snprintf(sps, sizeof sps, "%s %s", fmt(sp, sizeof sp, "%.2f", p->speedup),
		 p->ci_speedup.valid ? ci_text(spci, sizeof spci, &p->ci_speedup, "%.2f") : "");
	const char *row[] = {fmt(n, sizeof n, "%g", p->n), runs,
			     fmt(med, sizeof med, "%.4g", p->median),
			     ci_text(ci, sizeof ci, &p->ci, "%.4g"),
			     fmt(cv, sizeof cv, "%.1f%%", p->cv * 100), sps,
			     fmt(ef, sizeof ef, "%.0f%%", p->efficiency * 100),
			     fmt(kf, sizeof kf, "%.3f", p->karp_flatt),
			     fmt(tp, sizeof tp, "%.1f", p->throughput)};
	table_add(t, row);
}

static void axis_row(struct table *t, const struct amd_point_stats *p)
{
	char n[32], runs[16], med[32], ci[64], cv[32], tp[32], es[32], pw[32], ut[32];
	snprintf(runs, sizeof runs, "%zu", p->nruns);
	const char *row[] = {fmt(n, sizeof n, "%g", p->n), runs,
			     fmt(med, sizeof med, "%.4g", p->median),
			     ci_text(ci, sizeof ci, &p->ci, "%.4g"),
			     fmt(cv, sizeof cv, "%.1f%%", p->cv * 100),
			     fmt(tp, sizeof tp, "%.1f", p->throughput),
			     fmt(es, sizeof es, "%.4g", p->energy_per_sample_j),
			     fmt(pw, sizeof pw, "%.1f", p->power_w),
			     fmt(ut, sizeof ut, "%.1f", p->util_pct)};
	table_add(t, row);
}

static void energy_row(struct table *t, const struct amd_point_stats *p)
{
	char n[32], ee[32], es[32], eps[32], pw[32], ut[32];
	const char *row[] = {fmt(n, sizeof n, "%g", p->n),
			     fmt(ee, sizeof ee, "%.4g", p->energy_epoch_j),
			     fmt(es, sizeof es, "%.0f", p->energy_solution_j),
			     fmt(eps, sizeof eps, "%.4g", p->energy_per_sample_j),
			     fmt(pw, sizeof pw, "%.1f", p->power_w),
			     fmt(ut, sizeof ut, "%.1f", p->util_pct)};
	table_add(t, row);
}

static void profile_row(struct table *t, const struct amd_point_stats *p)
{
	char n[32], c[32], m[32], me[32], id[32], cs[32], cf[32], sg[32];
	const char *row[] = {fmt(n, sizeof n, "%g", p->n),
			     fmt(c, sizeof c, "%.1f%%", p->phase_share[AMD_PHASE_COMPUTE] * 100),
			     fmt(m, sizeof m, "%.1f%%", p->phase_share[AMD_PHASE_COMM] * 100),
			     fmt(me, sizeof me, "%.1f%%", p->phase_share[AMD_PHASE_MEMORY] * 100),
			     fmt(id, sizeof id, "%.1f%%", p->phase_share[AMD_PHASE_IDLE] * 100),
			     fmt(cs, sizeof cs, "%.1f%%", p->comm_share * 100),
			     fmt(cf, sizeof cf, "%.1f%%", p->comp_fraction * 100),
			     fmt(sg, sizeof sg, "%.3f", p->straggler_ns / 1e6)};
	table_add(t, row);
}

/* A side table of the strategy's points with row(), when any point has it. */
static void side_table(const struct amd_strategy_stats *st, const char *title, int ncols,
		       const char *const *h, void (*row)(struct table *, const struct amd_point_stats *),
		       int (*has)(const struct amd_point_stats *))
{
	int any = 0;
	for (size_t p = 0; p < st->npoints; p++)
		any |= has(&st->points[p]);
	if (!any)
		return;
	printf("  %s\n", title);
	struct table *t = table_new(ncols, h);
	for (int c = 0; c < ncols; c++)
		table_align_right(t, c);
	for (size_t p = 0; p < st->npoints; p++)
		row(t, &st->points[p]);
	table_print(t, stdout);
	table_free(t);
}

static int has_energy(const struct amd_point_stats *p)
{
	return isfinite(p->energy_solution_j) || isfinite(p->power_w) || isfinite(p->util_pct);
}

static int has_profile(const struct amd_point_stats *p)
{
	return isfinite(p->phase_share[AMD_PHASE_COMPUTE]) || isfinite(p->comp_fraction) ||
	       isfinite(p->comm_share) || isfinite(p->straggler_ns);
}

static void print_fits(const struct amd_strategy_stats *st, int higher)
{
	const char *y = higher ? "1/X(n)" : "T(n)";
	const struct amd_fit *a = &st->amdahl, *u = &st->usl;
	char ci[80];
	if (a->ok && a->b < 0)
		printf("  Amdahl fit %s = %.4g %+.4g/n: time grows with n, Amdahl's law does not"
		       " describe it (R² %.3f)\n", y, a->a, a->b, a->r2);
	else if (a->ok)
		printf("  Amdahl fit %s = %.4g + %.4g/n: serial fraction %.3f %s (R² %.3f)\n",
		       y, a->a, a->b, a->serial_fraction,
		       a->ci_serial.valid ? ci_text(ci, sizeof ci, &a->ci_serial, "%.3f")
					  : a->ci_serial.why ? a->ci_serial.why : "",
		       a->r2);
	else
		printf("  Amdahl fit: %s\n", a->why);
	if (u->ok && isfinite(u->n_peak))
		printf("  USL fit: α %.4g, β %.4g, γ %.4g; predicted peak at n* = %.1f\n",
		       u->alpha, u->beta, u->gamma, u->n_peak);
	else if (u->ok)
		printf("  USL fit: α %.4g, β %.4g, γ %.4g; no peak (β ≤ 0)\n", u->alpha, u->beta,
		       u->gamma);
	else
		printf("  USL fit refused: %s\n", u->why);
}

static void print_slower(const struct amd_strategy_stats *st, int higher)
{
	for (size_t i = 1; i < st->npoints; i++) {
		const struct amd_point_stats *p = &st->points[i], *q = &st->points[i - 1];
		if (p->speedup < 1)
			printf("  note: n=%g is slower than n=%g (speedup %.2f)\n", p->n, st->base_n,
			       p->speedup);
		else if (i > 1 && (higher ? p->median < q->median : p->median > q->median))
			printf("  note: n=%g is slower than n=%g (median %.4g vs %.4g)\n", p->n, q->n,
			       p->median, q->median);
	}
}

static void print_strategy(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st)
{
	size_t ml = strlen(s->metric);
	const char *unit = strstr(s->metric, "per_s") ? "/s"
		: ml > 3 && strcmp(s->metric + ml - 3, "_ms") == 0 ? " ms"
		: ml > 2 && strcmp(s->metric + ml - 2, "_s") == 0 ? " s" : "";
	printf("\nstrategy %s (base %s=%g: %.4g%s)\n", *st->strategy ? st->strategy : "(none logged)", s->scaling ? "n" : s->axis,
	       st->base_n, st->base_value, unit);
	static const char *const hs[] = {"n", "runs", "median", "95% CI", "CV",
					 "speedup [95% CI]", "efficiency", "Karp–Flatt",
					 "samples/s"};
	const char *ha[] = {s->axis, "runs", "median", "95% CI", "CV",
					 "samples/s", "J/sample", "power W", "util %"};
	struct table *t = table_new(9, s->scaling ? hs : ha);
	for (int c = 0; c < 9; c++)
		if (c != 3 && c != 5)
			table_align_right(t, c);
	for (size_t p = 0; p < st->npoints; p++)
		(s->scaling ? scaling_row : axis_row)(t, &st->points[p]);
	table_print(t, stdout);
	table_free(t);
	if (s->scaling) {
		print_fits(st, s->higher_is_better);
		print_slower(st, s->higher_is_better);
		static const char *const he[] = {"n", "J/epoch/GPU", "J/run (all GPUs)", "J/sample",
						 "power W", "util %"};
		side_table(st, "energy and utilisation per GPU (gpu_energy_J per epoch; else power ×"
			   " probing interval per run, mean power × epoch time per epoch)", 6, he, energy_row, has_energy);
	}
	static const char *const hp[] = {"n", "compute", "comm", "memory", "idle",
					 "comm share", "comp fraction", "straggler ms"};
	side_table(st, "profile (phase shares of the trace window, mean over ranks and runs;"
		   " comp fraction as itwinai: counts overlap twice)", 8, hp, profile_row,
		   has_profile);
}

static void print_sweep(const struct amd_sweep_stats *s)
{
	printf("sweep %s: %s by %s, %zu runs (%zu left out)\n", s->sweep, s->metric,
	       s->scaling ? "n (world size)" : s->axis, s->nruns_total, s->nruns_excluded);
	if (*s->note)
		printf("%s\n", s->note);
	for (size_t i = 0; i < s->nstrategies; i++)
		print_strategy(s, &s->strategies[i]);
	printf("\n%s\n", s->rules);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t p = 0; p < s->strategies[i].npoints; p++)
			for (size_t r = 0; r < s->strategies[i].points[p].nruns; r++) {
				const struct amd_run_value *v = &s->strategies[i].points[p].runs[r];
				if (*v->flagged)
					printf("flagged: %s repeat %d: %s\n", v->name, v->repeat, v->flagged);
			}
	if (s->nstrategies == 0)
		printf("no run has a usable %s; --metric names another per-epoch metric\n",
		       s->metric);
	if (!s->has_traces)
		printf("no profiler traces linked: no phase shares\n");
	if (!s->has_energy)
		printf("no energy logged (gpu_energy_J or gpu_power_W)\n");
	for (size_t i = 0; i < s->nexcluded; i++)
		printf("left out: %s (%s, repeat %d, %s): %s\n", s->excluded[i].name,
		       s->excluded[i].strategy, s->excluded[i].repeat, s->excluded[i].ext_id,
		       s->excluded[i].excluded);
}

/* ---- entry ---- */

static int parse(int argc, char **argv, struct amd_analysis_opts *o, int *json)
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
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	char *end;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': o->sweep = optarg; break;
		case 'm': o->metric = optarg; break;
		case 'a': o->axis = optarg; break;
		case 'f': o->keep_first = 1; break;
		case 'p': o->keep_profiled = 1; break;
		case 'k':
			o->mad_k = strtod(optarg, &end);
			if (*end || !(o->mad_k > 0))
				return cmd_error("stats", "--mad-k wants a positive number, not '%s'", optarg);
			break;
		case 'B':
			o->resamples = (int)strtol(optarg, &end, 10);
			if (*end || o->resamples < 2000)
				return cmd_error("stats", "--resamples wants a number >= 2000, not '%s'", optarg);
			break;
		case 's':
			o->seed = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				return cmd_error("stats", "--seed wants a number, not '%s'", optarg);
			break;
		case 'J': *json = 1; break;
		case 'h': help(); return -1;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error("stats", "unexpected argument '%s'", argv[optind]);
	return 0;
}

/* Names of the sweeps to show: the one asked for, else every sweep. */
static int sweep_names(struct cmd_ctx *ctx, const char *want, char ***names, size_t *n)
{
	*names = NULL;
	*n = 0;
	if (want) {
		*names = malloc(sizeof **names);
		(*names)[0] = strdup(want);
		*n = 1;
		return 0;
	}
	struct amd_sweep_view *sw;
	size_t ns;
	struct amd_err err = {{0}};
	if (amd_sweeps_list(ctx->store, &sw, &ns, &err) < 0)
		return cmd_error("stats", "%s", err.msg);
	*names = calloc(ns ? ns : 1, sizeof **names);
	for (size_t i = 0; i < ns; i++)
		if (sw[i].runs > 0)
			(*names)[(*n)++] = strdup(sw[i].name);
	amd_sweeps_free(sw, ns);
	return 0;
}

int cmd_stats(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct amd_analysis_opts o = {0};
	int json = 0, rc = parse(argc, argv, &o, &json);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	char **names;
	size_t n;
	if ((rc = sweep_names(ctx, o.sweep, &names, &n)) != 0)
		return rc;
	if (n == 0 && !json)
		printf("no runs in %s yet; 'amdahl ingest PATH' loads some\n", ctx->store_path);
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "sweeps");
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct amd_err err = {{0}};
		struct amd_sweep_stats *s;
		o.sweep = names[i];
		if (amd_analyse(ctx->store, &o, &s, &err) < 0) {
			rc = cmd_error("stats", "%s", err.msg);
			break;
		}
		if (json)
			cJSON_AddItemToArray(arr, amd_sweep_stats_json(s));
		else
			printf("%s", i ? "\n\n" : ""), print_sweep(s);
		amd_sweep_stats_free(s);
	}
	if (json && rc == 0) {
		char *txt = cJSON_Print(root);
		puts(txt);
		free(txt);
	}
	cJSON_Delete(root);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}
