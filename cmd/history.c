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

#include "cmd.h"

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
	       "  --min-size K       fewest groups before a change (default 3; K-1 after it at the end)\n"
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
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
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

static int print_json(const struct amd_history *h)
{
	cJSON *root = amd_history_json(h);
	if (!root)
		return cmd_error("history", "out of memory");
	return cmd_print_json("history", root);
}

static int print_table(const struct amd_history *h)
{
	printf("history of %s by %s (in order of %s): %zu group%s, %s\n\n", h->metric, h->by,
	       h->order, h->ngroups, h->ngroups == 1 ? "" : "s", h->groups[0].config);
	struct amd_table *t = amd_history_table(h);
	int rc = t ? table_print(t, stdout) : -1;
	for (size_t i = 0; rc == 0 && i < t->nnotes; i++)
		printf("  %s\n", t->notes[i]); /* an interval's own level */
	amd_table_free(t);
	if (rc < 0)
		return cmd_error("history", "out of memory");
	char line[1024];
	printf("\n%s%s\n", amd_history_method_text(h, line, sizeof line), h->nchanges ? ":" : "");
	for (size_t i = 0; i < h->nchanges; i++)
		printf("  %s\n", amd_history_change_text(h, &h->changes[i], line, sizeof line));
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
	/* a remote store loads the points of the metric's keys only */
	const char *keys[AMD_ANALYSIS_MAX_KEYS];
	struct amd_analysis_opts ao = {.metric = a.o.metric};
	size_t nkeys = amd_analysis_metric_keys(&ao, keys);
	if ((rc = cmd_store_open_run_values(ctx, "history", &a.o.select, 1, keys, nkeys)) != 0)
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
