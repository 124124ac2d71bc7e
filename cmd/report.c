/* report.c — `amdahl report build`: the PDF report, charts, summaries
 * and report.json of one sweep (report/report.h does the work). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "report.h"

static void help(void)
{
	printf("usage: amdahl report build [--sweep S] [--axis P] [--metric M] [--keep-first]\n"
	       "                           [--keep-profiled] [-o DIR] [--json]\n"
	       "\n"
	       "Writes the report of a sweep into DIR (default ./report):\n"
	       "  report.pdf     findings in sentences, charts with captions, tables of every\n"
	       "                 configuration and fit, an appendix of runs, excluded epochs,\n"
	       "                 left-out runs and sources with sha256\n"
	       "  charts/        every chart as PNG (150 dpi) and SVG\n"
	       "  summary.md     findings, table and charts in Markdown (templates/summary.md)\n"
	       "  summary.html   the same as a web page (templates/summary.html)\n"
	       "  report.json    the numbers behind it\n"
	       "Charts the sweep has no data for are left out and listed under 'Data gaps'.\n"
	       "\n"
	       "  --sweep S        the sweep (default: the only one in the store)\n"
	       "  --axis P         scale over param P instead of the world size\n"
	       "                   (e.g. global_batch_size)\n"
	       "  --metric M       the per-epoch metric (default epoch_time_s)\n"
	       "  --keep-first     keep epoch 0 (warm-up)\n"
	       "  --keep-profiled  keep epochs overlapping a profiler trace window\n"
	       "  -o, --output DIR the output directory (created when missing)\n"
	       "  --json           print what was written as JSON\n");
}

static int parse(int argc, char **argv, struct report_opts *o, int *json)
{
	static const struct option opts[] = {
		{"sweep", required_argument, NULL, 'S'},
		{"axis", required_argument, NULL, 'A'},
		{"metric", required_argument, NULL, 'M'},
		{"keep-first", no_argument, NULL, 'F'},
		{"keep-profiled", no_argument, NULL, 'P'},
		{"output", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'S': o->analysis.sweep = optarg; break;
		case 'A': o->analysis.axis = optarg; break;
		case 'M': o->analysis.metric = optarg; break;
		case 'F': o->analysis.keep_first = 1; break;
		case 'P': o->analysis.keep_profiled = 1; break;
		case 'o': o->outdir = optarg; break;
		case 'J': *json = 1; break;
		case 'h': help(); return -1;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error("report build", "unexpected argument '%s'", argv[optind]);
	return 0;
}

static void print_result(const struct report_opts *o, const struct report_result *r, int json)
{
	if (!json) {
		printf("report of sweep %s: %s/report.pdf (%d pages), %zu charts in %s/charts, "
		       "summary.md, summary.html, report.json",
		       r->sweep, o->outdir, r->pages, r->charts, o->outdir);
		if (r->missing)
			printf("; %zu chart%s left out for missing data (listed in the report)",
			       r->missing, r->missing == 1 ? "" : "s");
		printf("\n");
		return;
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "sweep", r->sweep);
	cJSON_AddStringToObject(j, "dir", o->outdir);
	cJSON_AddNumberToObject(j, "pages", r->pages);
	cJSON_AddNumberToObject(j, "charts", (double)r->charts);
	cJSON_AddNumberToObject(j, "charts_missing", (double)r->missing);
	char *s = cJSON_Print(j);
	puts(s);
	free(s);
	cJSON_Delete(j);
}

int cmd_report(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		help();
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "build") != 0)
		return cmd_error("report", "'%s' is not a report subcommand; try 'report build'",
				 argv[1]);
	struct report_opts o = {.outdir = "report", .version = AMDAHL_VERSION};
	int json = 0;
	optind = 1;
	int rc = parse(argc - 1, argv + 1, &o, &json);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	struct amd_err err = {{0}};
	struct report_result res;
	rc = report_build(ctx->store, &o, &res, &err);
	report_release_fonts();
	if (rc < 0)
		return cmd_error("report build", "%s", err.msg);
	print_result(&o, &res, json);
	return EXIT_OK;
}
