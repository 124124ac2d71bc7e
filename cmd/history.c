/* history.c — `amdahl history`: a metric over labelled groups of runs in
 * order (lib/compare/history.h) with its change points, as a table,
 * --json, and the chart as a PNG (report/charts_history.h). Exits 0
 * whatever it finds, 2 on a usage or input error. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "charts_history.h"
#include "cmd.h"
#include "history.h"
#include "num.h"
#include "report.h"
#include "selector.h"

static void help(void)
{
	printf("usage: amdahl history [METRIC] --by KEY [--sweep S|SELECTOR] [--order KEY|start]\n"
	       "                      [--alpha A] [--permutations R] [--min-size K] [--seed N]\n"
	       "                      [--png FILE] [--json]\n"
	       "\n"
	       "METRIC (default epoch_time_s) per group of runs sharing a value of KEY\n"
	       "(tag.git_commit, param.sweep, ...), in order: each group's median with its\n"
	       "95%% bootstrap interval, and the change points among the group medians.\n"
	       "Each group must hold one configuration (strategy, n): narrow the runs\n"
	       "with --sweep 'strategy=ddp,n=8' when a sweep has several.\n"
	       "\n"
	       "Change points: E-Divisive means (Matteson & James 2014, as in Apache\n"
	       "Otava): the split of the medians with the largest divergence is kept\n"
	       "when a permutation test (R shuffles within segments) gives p <= alpha,\n"
	       "then each segment is searched again. With no change the first test\n"
	       "fails with probability 1 - alpha whatever the noise: a history without\n"
	       "a change shows one with probability at most alpha (default 0.05; 39 of\n"
	       "1,000 generated A/A histories did). Each change point lists the medians\n"
	       "of the runs before and after it (up to the neighbouring change points),\n"
	       "their ratio with a bootstrap 95%% interval and the Mann-Whitney p.\n"
	       "\n"
	       "  --by KEY           the group key (param.NAME, tag.NAME, strategy, ...)\n"
	       "  --sweep S          the runs: a sweep or a SELECTOR (default: every run)\n"
	       "  --order KEY|start  order groups by KEY's value (numbers as numbers),\n"
	       "                     default start: the group's earliest run\n"
	       "  --alpha A          the permutation test's level (default 0.05)\n"
	       "  --permutations R   shuffles per test (default 999)\n"
	       "  --min-size K       fewest groups on each side of a change (default 3)\n"
	       "  --seed N           seed of the shuffles and the bootstrap (default 20260101)\n"
	       "  --png FILE         write the chart: runs, group medians, change points\n"
	       "  --json             {\"groups\": [...], \"change_points\": [...]}\n"
	       "\n" AMD_SELECTOR_HELP);
}

struct history_args {
	struct amd_history_opts o;
	const char *png;
	int json;
};

static int parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
	if (amd_parse_double(s, out) < 0 || !(*out >= lo && *out <= hi))
		return cmd_error("history", "--%s wants a number in [%g, %g], not '%s'", opt, lo, hi,
				 s);
	return 0;
}

static int parse(int argc, char **argv, struct history_args *a)
{
	static const struct option opts[] = {
		{"by", required_argument, NULL, 'b'},
		{"sweep", required_argument, NULL, 'S'},
		{"order", required_argument, NULL, 'o'},
		{"alpha", required_argument, NULL, 'a'},
		{"permutations", required_argument, NULL, 'R'},
		{"min-size", required_argument, NULL, 'k'},
		{"seed", required_argument, NULL, 's'},
		{"png", required_argument, NULL, 'P'},
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	double v;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': a->o.by = optarg; break;
		case 'S': a->o.select = optarg; break;
		case 'o': a->o.order = optarg; break;
		case 'a':
			if (parse_num("alpha", optarg, 1e-6, 0.5, &a->o.cp.alpha))
				return EXIT_USAGE;
			break;
		case 'R':
			if (parse_num("permutations", optarg, 19, 1e6, &v))
				return EXIT_USAGE;
			a->o.cp.permutations = (int)v;
			break;
		case 'k':
			if (parse_num("min-size", optarg, 1, 1e6, &v))
				return EXIT_USAGE;
			a->o.cp.min_size = (size_t)v;
			break;
		case 's':
			if (parse_num("seed", optarg, 1, (double)ULONG_MAX, &v))
				return EXIT_USAGE;
			a->o.cp.seed = a->o.seed = (unsigned long)v;
			break;
		case 'P': a->png = optarg; break;
		case 'J': a->json = 1; break;
		case 'h': help(); return -1;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		a->o.metric = argv[optind++];
	if (optind < argc)
		return cmd_error("history", "unexpected argument '%s'", argv[optind]);
	if (!a->o.by)
		return cmd_error("history", "--by KEY is required (e.g. --by tag.git_commit)");
	return 0;
}

/* ---- JSON ---- */

static cJSON *ci_json(const struct amd_ci *ci)
{
	if (!ci->valid)
		return cJSON_CreateNull();
	double v[2] = {ci->lo, ci->hi};
	return cJSON_CreateDoubleArray(v, 2);
}

static cJSON *group_json(const struct amd_history_group *g)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "group", g->label);
	cJSON_AddStringToObject(o, "selector", g->selector);
	cJSON_AddStringToObject(o, "configuration", g->config);
	if (g->order)
		cJSON_AddStringToObject(o, "order", g->order);
	cJSON_AddNumberToObject(o, "runs", (double)g->nruns);
	cJSON_AddNumberToObject(o, "median", g->median);
	cJSON_AddItemToObject(o, "ci", ci_json(&g->ci));
	cJSON_AddItemToObject(o, "values", cJSON_CreateDoubleArray(g->values, (int)g->nruns));
	return o;
}

static cJSON *side_json(const struct amd_history *h, size_t from, size_t to, size_t runs,
			double median)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "first_group", h->groups[from].label);
	cJSON_AddStringToObject(o, "last_group", h->groups[to - 1].label);
	cJSON_AddNumberToObject(o, "groups", (double)(to - from));
	cJSON_AddNumberToObject(o, "runs", (double)runs);
	cJSON_AddNumberToObject(o, "median", median);
	return o;
}

static const char *change_word(const struct amd_history *h, const struct amd_history_change *c)
{
	int up = c->ratio > 1;
	return up == !h->higher_is_better ? "worse" : "better";
}

static cJSON *change_json(const struct amd_history *h, const struct amd_history_change *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "group", h->groups[c->group].label);
	cJSON_AddNumberToObject(o, "index", (double)c->group);
	cJSON_AddItemToObject(o, "before", side_json(h, c->from, c->group, c->nbefore, c->before));
	cJSON_AddItemToObject(o, "after", side_json(h, c->group, c->to, c->nafter, c->after));
	cJSON_AddNumberToObject(o, "ratio", c->ratio);
	cJSON_AddItemToObject(o, "ci", ci_json(&c->ci));
	cJSON_AddNumberToObject(o, "p", c->mwu.p);
	cJSON_AddNumberToObject(o, "p_permutation", c->p_perm);
	cJSON_AddNumberToObject(o, "divergence", c->q);
	cJSON_AddStringToObject(o, "direction", change_word(h, c));
	return o;
}

static int print_json(const struct amd_history *h)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "metric", h->metric);
	cJSON_AddStringToObject(root, "by", h->by);
	cJSON_AddStringToObject(root, "order", h->order);
	cJSON *m = cJSON_AddObjectToObject(root, "method");
	cJSON_AddStringToObject(m, "name", "e-divisive means, permutation test");
	cJSON_AddNumberToObject(m, "alpha", h->cp.alpha);
	cJSON_AddNumberToObject(m, "permutations", h->cp.permutations);
	cJSON_AddNumberToObject(m, "min_size", (double)h->cp.min_size);
	cJSON_AddNumberToObject(m, "seed", (double)h->cp.seed);
	cJSON_AddNumberToObject(root, "runs_without_key", (double)h->skipped);
	cJSON *g = cJSON_AddArrayToObject(root, "groups");
	for (size_t i = 0; i < h->ngroups; i++)
		cJSON_AddItemToArray(g, group_json(&h->groups[i]));
	cJSON *c = cJSON_AddArrayToObject(root, "change_points");
	for (size_t i = 0; i < h->nchanges; i++)
		cJSON_AddItemToArray(c, change_json(h, &h->changes[i]));
	return cmd_print_json("history", root);
}

/* ---- terminal ---- */

static int is_change(const struct amd_history *h, size_t g)
{
	for (size_t i = 0; i < h->nchanges; i++)
		if (h->changes[i].group == g)
			return 1;
	return 0;
}

static int print_table(const struct amd_history *h)
{
	printf("history of %s by %s (in order of %s): %zu groups, %s\n\n", h->metric, h->by,
	       h->order, h->ngroups, h->groups[0].config);
	static const char *const hd[] = {"group", "runs", "median", "95% CI", "change"};
	struct amd_table *t = amd_table_new(5, hd);
	if (!t)
		return cmd_error("history", "out of memory");
	amd_table_right(t, 1);
	amd_table_right(t, 2);
	for (size_t g = 0; g < h->ngroups; g++) {
		const struct amd_history_group *hg = &h->groups[g];
		char runs[24], med[32], ci[64];
		snprintf(runs, sizeof runs, "%zu", hg->nruns);
		snprintf(med, sizeof med, "%.4g", hg->median);
		if (hg->ci.valid)
			snprintf(ci, sizeof ci, "[%.4g, %.4g]", hg->ci.lo, hg->ci.hi);
		else
			snprintf(ci, sizeof ci, "%s", hg->ci.why ? hg->ci.why : "-");
		const char *row[] = {hg->label, runs, med, ci, is_change(h, g) ? "<- change" : ""};
		amd_table_add(t, row);
	}
	int rc = table_print(t, stdout);
	amd_table_free(t);
	if (rc < 0)
		return cmd_error("history", "out of memory");
	printf("\n%zu change point%s (E-Divisive means, permutation test: %d shuffles, alpha %g,"
	       " at least %zu groups a side)%s\n", h->nchanges, h->nchanges == 1 ? "" : "s",
	       h->cp.permutations, h->cp.alpha, h->cp.min_size, h->nchanges ? ":" : "");
	for (size_t i = 0; i < h->nchanges; i++) {
		const struct amd_history_change *c = &h->changes[i];
		printf("  at %s (%s): median %.4g (%zu runs, %s..%s) -> %.4g (%zu runs, %s..%s), "
		       "ratio %.3f", h->groups[c->group].label, change_word(h, c), c->before,
		       c->nbefore, h->groups[c->from].label, h->groups[c->group - 1].label, c->after,
		       c->nafter, h->groups[c->group].label, h->groups[c->to - 1].label, c->ratio);
		if (c->ci.valid)
			printf(" [%.3f, %.3f]", c->ci.lo, c->ci.hi);
		printf(", Mann-Whitney p %.3g, permutation p %.3g\n", c->mwu.p, c->p_perm);
	}
	return EXIT_OK;
}

static int write_png(const struct amd_history *h, const char *path)
{
	struct amd_err err = {{0}};
	struct chart *c = history_chart(h);
	int rc = chart_failed(c) ? cmd_error("history", "%s: out of memory", path)
		 : chart_write_png(c, path, 640, 360, 150, &err) < 0
		 ? cmd_error("history", "%s", err.msg) : EXIT_OK;
	chart_free(c);
	report_release_fonts();
	return rc;
}

int cmd_history(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct history_args a = {0};
	int rc = parse(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = cmd_open_named(ctx->store_path, "history", &a.o.select, 1, &ctx->store)) != 0)
		return rc;
	struct amd_err err = {{0}};
	struct amd_history *h;
	if (amd_history(ctx->store, &a.o, &h, &err) < 0)
		return cmd_error("history", "%s", err.msg);
	rc = a.png ? write_png(h, a.png) : EXIT_OK;
	if (rc == EXIT_OK)
		rc = a.json ? print_json(h) : print_table(h);
	amd_history_free(h);
	return rc;
}
