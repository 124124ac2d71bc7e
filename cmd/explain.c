/* explain.c — `amdahl explain`: where the efficiency went. For each
 * strategy and n of a sweep's profiler traces, the lost efficiency
 * 1 − E split into data transfer, waiting for late ranks, imbalance,
 * compute that does not shrink, idle time and the rest, and the ranks
 * that arrive last at collectives more often than chance
 * (lib/analysis/explain.h, docs/explain.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl explain [SWEEP|SELECTOR] [--sweep S] [--strategy X] [--level L]\n"
	       "                      [--alpha A] [--json]\n"
	       "\n"
	       "Splits the efficiency lost at each n, 1 - E(n) of the traced steps against\n"
	       "the strategy's smallest n, into shares of the total rank-time that add up\n"
	       "to it exactly: communication (data transfer: a collective from the last\n"
	       "rank's arrival to its end), sync_wait (waiting at a collective for the last\n"
	       "rank), imbalance (compute of a rank above the run's median rank),\n"
	       "compute_growth (the rest of the compute above the base's), idle (neither\n"
	       "compute nor collective) and other. Collectives are matched across the\n"
	       "ranks of a run by name and sequence number; communication overlapped\n"
	       "with compute is credited. A rank that arrives last more often than chance\n"
	       "(binomial test, Holm) is named a straggler. Needs every rank of a run\n"
	       "traced; intervals are over repeats. docs/explain.md has the method.\n"
	       "\n"
	       "options:\n"
	       "  --sweep S       the sweep, or a SELECTOR of runs (default: the only sweep)\n"
	       "  --strategy X    this strategy only\n"
	       "  --level L       interval level (default 0.95)\n"
	       "  --alpha A       straggler test level after Holm (default 0.01)\n"
	       "  --json          the budget as JSON (docs/schema/explain.schema.json)\n"
	       "\n%s", AMD_SELECTOR_HELP);
}

static int print_text(const struct amd_explain *e)
{
	printf("sweep %s: where the efficiency went (traced steps, every rank)\n", e->sweep);
	if (e->runs_partial)
		printf("left out: %zu run%s without every rank traced\n", e->runs_partial,
		       e->runs_partial == 1 ? "" : "s");

	for (size_t i = 0; i < e->nstrategies; i++) {
		const struct amd_explain_strategy *s = &e->strategies[i];
		printf("\nstrategy %s\n", *s->strategy ? s->strategy : "(none logged)");
		struct amd_table *t = amd_explain_table(s);
		if (table_print(t, stdout) < 0) {
			amd_table_free(t);
			return -1;
		}
		amd_table_free(t);
		if (s->npoints == 1)
			printf("runs at n = %d only: no budget to explain (its collectives and ranks are"
			       " in --json)\n", s->base_n);
		for (size_t j = 0; j < s->npoints; j++) {
			char buf[2048];
			if (s->points[j].n == s->base_n)
				continue;
			amd_explain_sentences(&s->points[j], buf, sizeof buf);
			printf("%s\n", buf);
		}
	}
	return 0;
}

static int parse_level(const char *arg, double *v)
{
	return amd_parse_double(arg, v) == 0 && *v > 0 && *v < 1 ? 0 : -1;
}

int cmd_explain(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{"sweep", required_argument, 0, 's'}, {"strategy", required_argument, 0, 'x'},
		{"level", required_argument, 0, 'l'}, {"alpha", required_argument, 0, 'a'},
		{"json", no_argument, 0, 'j'},        {"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	struct amd_explain_opts o = {.level = 0.95, .alpha = 0.01};
	int json = 0, c;
	optind = 0;
	while ((c = cmd_getopt(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.sweep = optarg; break;
		case 'x': o.strategy = optarg; break;
		case 'l':
			if (parse_level(optarg, &o.level) < 0)
				return cmd_error("explain", "--level: not in (0, 1): %s", optarg);
			break;
		case 'a':
			if (parse_level(optarg, &o.alpha) < 0)
				return cmd_error("explain", "--alpha: not in (0, 1): %s", optarg);
			break;
		case 'j': json = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc && !o.sweep)
		o.sweep = argv[optind++];
	if (optind < argc)
		return cmd_error("explain", "unexpected argument: %s", argv[optind]);
	if ((c = cmd_store_open(ctx, "explain", &o.sweep, 1)) != 0)
		return c;
	struct amd_explain *e;
	struct amd_err err;
	if (amd_explain(ctx->store, &o, &e, &err) < 0)
		return cmd_error("explain", "%s", err.msg);
	int rc = EXIT_OK;
	if (e->nstrategies == 0)
		rc = cmd_error("explain", "%s: sweep %s has no run%s%s with every rank traced (%zu with"
			       " some ranks only)", ctx->store_path, e->sweep,
			       o.strategy ? " of strategy " : "", o.strategy ? o.strategy : "",
			       e->runs_partial);
	else if (json)
		rc = cmd_print_json("explain", amd_explain_json(e));
	else if (print_text(e) < 0)
		rc = cmd_error("explain", "out of memory");
	amd_explain_free(e);
	return rc;
}
