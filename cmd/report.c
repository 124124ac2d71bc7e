/* report.c — `amdahl report build`: the PDF report, charts, summaries
 * and report.json of one sweep (report/report.h does the work). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis_json.h"
#include "cmd.h"
#include "compare_cmd.h"

static void help(void)
{
	printf("usage: amdahl report build [--sweep S] [--axis P] [--metric M] [--keep-first]\n"
	       "                           [--keep-profiled] [-o DIR] [--json]\n"
	       "                           [--baseline A [--candidate B] [--baseline-store FILE]]\n"
	       "                           [--history METRIC --by KEY [--order KEY|start]\n"
	       "                            [--history-sweep S|SELECTOR]]\n"
	       "\n"
	       "Writes the report of a sweep into DIR (default ./report):\n"
	       "  report.pdf     findings in sentences, charts with captions, tables of every\n"
	       "                 configuration and fit, an appendix of runs, excluded epochs,\n"
	       "                 left-out runs and sources with sha256\n"
	       "  charts/        every chart as PNG (150 dpi) and SVG\n"
	       "  summary.md     findings, table and charts in Markdown (templates/summary.md)\n"
	       "  summary.html   the same as a web page (templates/summary.html)\n"
	       "  report.html    one self-contained interactive page: every chart as SVG\n"
	       "                 with text, values on hover, legend toggles, sortable tables\n"
	       "  report.json    the numbers behind it\n"
	       "Charts the sweep has no data for are left out and listed under 'Data gaps'.\n"
	       "\n"
	       "  --sweep S        the sweep (default: the only one in the store)\n"
	       "  --axis P         scale over param P instead of the world size\n"
	       "                   (e.g. global_batch_size)\n"
	       "  --metric M       the per-epoch metric (default epoch_time_s)\n"
	       "  --keep-first     keep epoch 0 (warm-up)\n"
	       "  --keep-profiled  keep epochs overlapping a profiler trace window\n"
	       "  --aggregate A    a configuration's runs to one value: median (default)\n"
	       "                   or mlperf (MLPerf's rule: drop the fastest and the\n"
	       "                   slowest run, the mean of the rest); stated in the\n"
	       "                   method paragraph, the tables and report.json\n"
	       "  -o, --output DIR the output directory (created when missing)\n"
	       "  --json           print what was written as JSON\n"
	       "\n"
	       "Comparison with a baseline (as 'amdahl compare' and 'amdahl gate' do it):\n"
	       "  --baseline SWEEP[:STRATEGY]   adds a comparison page: the ratio\n"
	       "                   candidate/baseline with its 95%% interval per row (chart\n"
	       "                   charts/comparison.png), every row in a table, the gate\n"
	       "                   verdict on page 1 and in report.json (\"gate\": {\"result\":\n"
	       "                   \"pass|regression|insufficient_data\", \"rows\": [...]})\n"
	       "  --candidate SWEEP[:STRATEGY]  default: the reported sweep\n"
	       "  --baseline-store FILE  read the baseline from this store (read-only)\n"
	       "Thresholds and alpha come from amdahl.yaml (gate.*), as for 'amdahl gate'.\n"
	       "\n"
	       "History (as 'amdahl history' does it):\n"
	       "  --history METRIC adds a history page: METRIC per group of runs sharing a\n"
	       "                   value of --by KEY, in order, with the change points\n"
	       "                   (E-Divisive means) marked on the chart (charts/history.png),\n"
	       "                   the change in sentences among the findings (first group\n"
	       "                   after it, medians before/after, ratio with interval, p),\n"
	       "                   a table of the groups, and report.json's \"history\"\n"
	       "  --by KEY         the group key (tag.git_commit, param.NAME, ...)\n"
	       "  --order KEY|start the groups' order (default start: earliest run)\n"
	       "  --history-sweep S  the history's runs, a sweep or selector (default: the\n"
	       "                   reported sweep's); each group must hold one configuration\n");
}

/* The comparison and the history a report may hold, as the library
 * takes them. */
struct cmp_args {
	struct amd_compare_opts compare; /* used when compare.base_sweep is set */
	const char *base_store;
	struct amd_history_opts history; /* used when history.metric is set */
};

static int parse(int argc, char **argv, struct report_opts *o, struct cmp_args *a, int *json)
{
	static const struct option opts[] = {
		{"sweep", required_argument, NULL, 'S'},
		{"axis", required_argument, NULL, 'A'},
		{"metric", required_argument, NULL, 'M'},
		{"keep-first", no_argument, NULL, 'F'},
		{"keep-profiled", no_argument, NULL, 'P'},
		{"output", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, 'J'},
		{"baseline", required_argument, NULL, 'B'},
		{"candidate", required_argument, NULL, 'C'},
		{"baseline-store", required_argument, NULL, 'T'},
		{"aggregate", required_argument, NULL, 'G'},
		{"history", required_argument, NULL, 'H'},
		{"by", required_argument, NULL, 'b'},
		{"order", required_argument, NULL, 'O'},
		{"history-sweep", required_argument, NULL, 'W'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	while ((c = cmd_getopt(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'S': o->analysis.sweep = optarg; break;
		case 'A': o->analysis.axis = optarg; break;
		case 'M': o->analysis.metric = optarg; break;
		case 'F': o->analysis.keep_first = 1; break;
		case 'P': o->analysis.keep_profiled = 1; break;
		case 'o': o->outdir = optarg; break;
		case 'J': *json = 1; break;
		case 'B':
			if (compare_side("report build", optarg, &a->compare.base_sweep,
					 &a->compare.base_strategy))
				return EXIT_USAGE;
			break;
		case 'C':
			if (compare_side("report build", optarg, &a->compare.cand_sweep,
					 &a->compare.cand_strategy))
				return EXIT_USAGE;
			break;
		case 'T': a->base_store = optarg; break;
		case 'G':
			if (amd_aggregate_parse(optarg, &o->analysis.aggregate) < 0)
				return cmd_error("report build",
						 "--aggregate: '%s' is not median or mlperf", optarg);
			a->compare.aggregate = o->analysis.aggregate; /* both sides too */
			break;
		case 'H': a->history.metric = optarg; break;
		case 'b': a->history.by = optarg; break;
		case 'O': a->history.order = optarg; break;
		case 'W': a->history.select = optarg; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error("report build", "unexpected argument '%s'", argv[optind]);
	if (!a->history.metric != !a->history.by)
		return cmd_error("report build", "--history METRIC and --by KEY go together");
	if (!a->history.metric && (a->history.order || a->history.select))
		return cmd_error("report build", "--order and --history-sweep need --history");
	if (!a->compare.base_sweep && (a->compare.cand_sweep || a->base_store))
		return cmd_error("report build", "--candidate and --baseline-store need --baseline");
	return CMD_RUN;
}

static int print_result(const struct report_opts *o, const struct report_result *r, int json)
{
	if (!json) {
		printf("report of sweep %s: %s/report.pdf (%d page%s), %zu chart%s in %s/charts, "
		       "summary.md, summary.html, report.html, report.json",
		       r->sweep, o->outdir, r->pages, r->pages == 1 ? "" : "s", r->charts,
		       r->charts == 1 ? "" : "s", o->outdir);
		if (r->missing)
			printf("; %zu chart%s left out for missing data (listed in the report)",
			       r->missing, r->missing == 1 ? "" : "s");
		if (r->gate[0])
			printf("; gate: %s", r->gate);
		printf("\n");
		return EXIT_OK;
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "sweep", r->sweep);
	cJSON_AddStringToObject(j, "dir", o->outdir);
	cJSON_AddNumberToObject(j, "pages", r->pages);
	cJSON_AddNumberToObject(j, "charts", (double)r->charts);
	cJSON_AddNumberToObject(j, "charts_missing", (double)r->missing);
	amd_json_str(j, "gate", r->gate_json);
	return cmd_print_json("report build", j);
}

/* Both summary templates are where amd_template_find looks; else the
 * error (EXIT_USAGE). */
static int templates_present(void)
{
	static const char *const names[] = {"summary.md", "summary.html"};
	for (int i = 0; i < 2; i++) {
		char *path = NULL;
		struct amd_err err = {{0}};
		if (amd_template_find(names[i], &path, &err) < 0)
			return cmd_error("report build", "%s", err.msg);
		free(path);
	}
	return 0;
}

int cmd_report(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		help();
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (cmd_option_first(argc, argv))
		return EXIT_USAGE;
	if (strcmp(argv[1], "build") != 0)
		return cmd_error("report", "'%s' is not a report subcommand; try 'report build'",
				 argv[1]);
	struct report_opts o = {.outdir = "report", .version = AMDAHL_VERSION};
	struct cmp_args a = {.compare.cfg = &ctx->config};
	int json = 0;
	optind = 1;
	int rc = parse(argc - 1, argv + 1, &o, &a, &json);
	if (rc != CMD_RUN) {
		compare_sides_free(&a.compare);
		return rc;
	}
	/* the templates first: a binary installed without them fails before
	 * it writes anything */
	if ((rc = templates_present())) {
		compare_sides_free(&a.compare);
		return rc;
	}
	/* what the report reads: its sweep (NULL: all), the compared sides
	 * and the history's runs (default: the reported sweep's) */
	const char *reads[4] = {o.analysis.sweep};
	size_t nreads = 1;
	if (a.compare.base_sweep && !a.base_store)
		reads[nreads++] = a.compare.base_sweep;
	if (a.compare.cand_sweep)
		reads[nreads++] = a.compare.cand_sweep;
	if (a.history.metric && a.history.select)
		reads[nreads++] = a.history.select;
	if ((rc = cmd_store_open(ctx, "report build", reads, nreads))) {
		compare_sides_free(&a.compare);
		return rc;
	}
	struct amd_err err = {{0}};
	if (a.compare.base_sweep) {
		o.compare = &a.compare;
		const char *base = a.compare.base_sweep;
		if (a.base_store && (rc = cmd_open_named(a.base_store, "report build", &base, 1,
							 &o.base_store))) {
			compare_sides_free(&a.compare);
			return rc;
		}
	}
	if (a.history.metric)
		o.history = &a.history;
	struct report_result res;
	rc = report_build(ctx->store, &o, &res, &err);
	report_release_fonts();
	if (o.base_store)
		amd_store_close(o.base_store);
	compare_sides_free(&a.compare);
	if (rc < 0)
		return cmd_error("report build", "%s", err.msg);
	return print_result(&o, &res, json);
}
