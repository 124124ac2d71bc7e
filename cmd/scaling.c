/* scaling.c — `amdahl scaling`: why a sweep stops scaling. A scaling
 * model per region (operators, collectives of the profiler traces),
 * ranked by share of the step, the whole extrapolated to untested n and
 * which n to measure next (lib/analysis/scaling.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"

#define MAX_NEXT 32

static void help(void)
{
	printf("usage: amdahl scaling [--sweep S] [--strategy X] [--kind K] [--axis P] [--target N]\n"
	       "                      [--next N,N,...] [-n TOP] [--resamples B] [--seed S] [--json]\n"
	       "\n"
	       "Fits a scaling model to every region of the sweep's profiler traces\n"
	       "(operators and annotations by self time, collectives, per rank and\n"
	       "profiled step): t(n) = c0 + c1·n^i·log2(n)^j with i in {-1, -1/2, 0, 1/4,\n"
	       "1/3, 1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2, 2, 3} and j in {0, 1, 2}, or a\n"
	       "constant, chosen by leave-one-n-out cross-validation (SMAPE) with an F\n"
	       "test per term (p < 0.05); two terms only with 6 or more distinct n.\n"
	       "Ranks regions by their share of the step at the largest n, predicts it\n"
	       "at 2x and 4x that n with bootstrap intervals (fixed seed), extrapolates\n"
	       "step and epoch time and efficiency from the sum of the region models\n"
	       "next to the Amdahl and USL fits, and says which n to measure next.\n"
	       "\n"
	       "options:\n"
	       "  --sweep S       the sweep, or a SELECTOR of runs (default: the only sweep)\n"
	       "  --strategy X    this strategy only\n"
	       "  --kind K        regions of this kind (op, nvtx, kernel, collective, ...)\n"
	       "  --axis PARAM    weak scaling: model against a size param (e.g.\n"
	       "                  global_batch_size), per-rank time per step; --axis n\n"
	       "                  is the world size (the default)\n"
	       "  --target N      extrapolate to n = N (default 4x the largest n)\n"
	       "  --next LIST     candidates to measure next (default powers of two up to\n"
	       "                  the target)\n"
	       "  -n TOP          regions shown (default 10, 0: all)\n"
	       "  --resamples B   bootstrap resamples (default 1000)\n"
	       "  --seed S        bootstrap seed (default 20260101)\n"
	       "  --json          the models as JSON (every region)\n"
	       "\n%s", AMD_SELECTOR_HELP);
}

/* 0, -1 when a value is not an n >= 1, or the number of values when
 * there are more than MAX_NEXT. */
static int parse_next(const char *arg, double *v, size_t *n)
{
	char *buf = strdup(arg);
	int rc = buf ? 0 : -1, count = 0;
	*n = 0;
	for (char *save = NULL, *tok = buf ? strtok_r(buf, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		double x;
		if (amd_parse_double(tok, &x) < 0 || !(x >= 1))
			rc = -1;
		else if (*n < MAX_NEXT)
			v[(*n)++] = x;
		count++;
	}
	free(buf);
	if (rc == 0 && count > MAX_NEXT)
		return count;
	return rc == 0 && *n ? 0 : -1;
}

static int print_strategy(const struct amd_scaling_strategy *s, size_t top)
{
	printf("\nstrategy %s: n = ", *s->strategy ? cmd_shown(s->strategy) : "(none logged)");
	for (size_t i = 0; i < s->nn; i++)
		printf("%s%g", i ? ", " : "", s->ns[i]);
	printf("; target n = %g\n", s->target);
	struct amd_table *t = amd_scaling_region_table(s, top);
	int rc = table_print_fit(t, stdout, cmd_columns());
	amd_table_free(t);
	if (rc < 0)
		return -1;
	printf("\n");
	t = amd_scaling_whole_table(s);
	rc = table_print(t, stdout);
	amd_table_free(t);
	char buf[4096];
	if (rc == 0 && amd_scaling_findings(s, 3, buf, sizeof buf) == 0)
		printf("\n"), cmd_print_lines(stdout, buf);
	if (*s->note)
		printf("note: %s\n", s->note);
	return rc;
}

int cmd_scaling(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{"sweep", required_argument, 0, 's'}, {"strategy", required_argument, 0, 'x'},
		{"kind", required_argument, 0, 'k'},  {"target", required_argument, 0, 't'},
		{"next", required_argument, 0, 'N'},  {"resamples", required_argument, 0, 'B'},
		{"seed", required_argument, 0, 'S'},  {"json", no_argument, 0, 'j'},
		{"axis", required_argument, 0, 'a'},  {"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	struct amd_scaling_opts o = { .resamples = 1000, .seed = 20260101UL, .level = 0.95 };
	double next[MAX_NEXT], v;
	int json = 0, c;
	int64_t top = 10, iv;
	optind = 0; /* full getopt reset */
	while ((c = cmd_getopt(argc, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.sweep = optarg; break;
		case 'x': o.strategy = optarg; break;
		case 'k': o.kind = optarg; break;
		case 'a': o.axis = strcmp(optarg, "n") ? optarg : NULL; break; /* n: the world size */
		case 't':
			if (amd_parse_double(optarg, &o.target) < 0 || !(o.target >= 1))
				return cmd_error("scaling", "--target: not an n >= 1: %s", optarg);
			break;
		case 'N': {
			int got = parse_next(optarg, next, &o.nnext);
			if (got > 0)
				return cmd_error("scaling", "--next: at most %d values, %d given",
						 MAX_NEXT, got);
			if (got < 0)
				return cmd_error("scaling", "--next: not a list of n >= 1: %s", optarg);
			o.next = next;
			break;
		}
		case 'n':
			if (amd_parse_int64(optarg, &top) < 0 || top < 0)
				return cmd_error("scaling", "-n: not a count: %s", optarg);
			break;
		case 'B':
			if (amd_parse_int64(optarg, &iv) < 0 || iv < 100 || iv > 100000)
				return cmd_error("scaling", "--resamples: not in 100..100000: %s", optarg);
			o.resamples = (int)iv;
			break;
		case 'S':
			if (amd_parse_double(optarg, &v) < 0 || v < 0 || v != floor(v))
				return cmd_error("scaling", "--seed: not a whole number: %s", optarg);
			o.seed = (unsigned long)v;
			break;
		case 'j': json = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error("scaling", "unexpected argument: %s", argv[optind]);
	/* a remote store loads the points of the metrics amd_scaling reads
	 * only: its amd_analyse of the default metric (scaling_whole.c) */
	const char *keys[AMD_ANALYSIS_MAX_KEYS];
	size_t nkeys = amd_analysis_metric_keys(NULL, keys);
	if ((c = cmd_store_open_run_values(ctx, "scaling", &o.sweep, 1, keys, nkeys)) != 0)
		return c;
	struct amd_scaling *s;
	struct amd_err err;
	if (amd_scaling(ctx->store, &o, &s, &err) < 0)
		return cmd_error("scaling", "%s", err.msg);
	int rc = EXIT_OK;
	if (s->nstrategies == 0)
		rc = cmd_error("scaling", "%s: sweep %s has no profiler traces of counted runs%s%s",
			       ctx->store_path, s->sweep, o.strategy ? " of strategy " : "",
			       o.strategy ? o.strategy : "");
	else if (json) {
		rc = cmd_print_json("scaling", amd_scaling_json(s));
	} else {
		printf("sweep %s: a scaling model per region (%s)\n", cmd_shown(s->sweep), s->criterion);
		if (s->axis)
			printf("weak scaling: per-rank time per step against %s (\"n\" below is its"
			       " value)\n", s->axis);
		for (size_t i = 0; i < s->nstrategies && rc == EXIT_OK; i++)
			if (print_strategy(&s->strategies[i], (size_t)top) < 0)
				rc = cmd_error("scaling", "out of memory");
	}
	amd_scaling_free(s);
	return rc;
}
