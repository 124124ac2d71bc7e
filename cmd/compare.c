/* compare.c — `amdahl compare`: a candidate sweep against a baseline,
 * per metric and configuration; always exits 0 unless the input is
 * wrong. Also the options, terminal table and JSON shared with `gate`. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cmd.h"

/* A selector stands whole (its dates may hold colons); its strategy=X
 * term, if any, is the side's strategy, so strategy=ddp against
 * strategy=fsdp compares them by n as SWEEP:ddp against SWEEP:fsdp does. */
static int selector_spec(const char *cmd, const char *spec, char **sweep, char **strategy)
{
	struct amd_err err = {{0}};
	struct amd_selector *sel;
	if (amd_selector_parse(spec, &sel, &err) < 0)
		return cmd_error(cmd, "%s", err.msg);
	const char *strat = amd_selector_eq(sel, "strategy");
	free(*sweep);
	free(*strategy);
	*sweep = strdup(spec);
	*strategy = strat ? strdup(strat) : NULL;
	amd_selector_free(sel);
	if (!*sweep || (strat && !*strategy))
		return cmd_error(cmd, "out of memory");
	return 0;
}

int compare_split_spec(const char *cmd, const char *spec, char **sweep, char **strategy)
{
	if (amd_selector_is(spec))
		return selector_spec(cmd, spec, sweep, strategy);
	const char *colon = strrchr(spec, ':');
	if (!*spec || colon == spec || (colon && !colon[1]))
		return cmd_error(cmd, "'%s' is not SWEEP or SWEEP:STRATEGY", spec);
	free(*sweep);
	free(*strategy);
	*sweep = colon ? strndup(spec, (size_t)(colon - spec)) : strdup(spec);
	*strategy = colon ? strdup(colon + 1) : NULL;
	if (!*sweep || (colon && !*strategy))
		return cmd_error(cmd, "out of memory");
	return 0;
}

int compare_side(const char *cmd, const char *spec, const char **sweep, const char **strategy)
{
	char *sw = (char *)*sweep, *st = (char *)*strategy;
	int rc = compare_split_spec(cmd, spec, &sw, &st);
	*sweep = sw;
	*strategy = st;
	return rc;
}

int compare_parse(int argc, char **argv, struct compare_args *a, void (*help)(void))
{
	static const struct option opts[] = {
		{"baseline", required_argument, NULL, 'B'},
		{"candidate", required_argument, NULL, 'C'},
		{"baseline-store", required_argument, NULL, 'S'},
		{"axis", required_argument, NULL, 'A'},
		{"metric", required_argument, NULL, 'M'},
		{"only", required_argument, NULL, 'O'},
		{"n", required_argument, NULL, 'N'},
		{"require-all", no_argument, NULL, 'R'},
		{"fallback", required_argument, NULL, 'F'},
		{"json", no_argument, NULL, 'J'},
		{"format", required_argument, NULL, 'T'},
		{"by", required_argument, NULL, 'Y'},
		{"sweep", required_argument, NULL, 'W'},
		{"history", required_argument, NULL, 'H'},
		{"junit", required_argument, NULL, 'U'},
		{"aggregate", required_argument, NULL, 'G'},
		{"markdown", required_argument, NULL, 'D'},
		{"on-insufficient", required_argument, NULL, 'I'},
		{"step-summary", no_argument, NULL, 'P'},
		{"json-file", required_argument, NULL, 'j'},
		{"baseline-last", required_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int gate = strcmp(a->name, "gate") == 0, c;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'B':
			a->base_value = optarg;
			if (compare_side(a->name, optarg, &a->o.base_sweep, &a->o.base_strategy))
				return EXIT_USAGE;
			break;
		case 'Y':
		case 'W':
			*(c == 'Y' ? &a->by : &a->select) = optarg;
			break;
		case 'H':
		case 'l': {
			double v;
			const char *opt = c == 'H' ? "history" : "baseline-last";
			if (!gate)
				return cmd_error(a->name, "--%s belongs to 'amdahl gate'", opt);
			if (amd_parse_double(optarg, &v) < 0 || !(v >= 1 && v <= 100000) || v != floor(v))
				return cmd_error(a->name, "--%s wants a number of groups, not '%s'",
						 opt, optarg);
			*(c == 'H' ? &a->history : &a->baseline_last) = (long)v;
			break;
		}
		case 'C':
			a->cand_value = optarg;
			if (compare_side(a->name, optarg, &a->o.cand_sweep, &a->o.cand_strategy))
				return EXIT_USAGE;
			break;
		case 'S': a->base_store = optarg; break;
		case 'A': a->o.axis = optarg; break;
		case 'M': a->o.metric = optarg; break;
		case 'O':
			if (a->nonly == COMPARE_MAX_ONLY)
				return cmd_error(a->name, "at most %d --only", COMPARE_MAX_ONLY);
			a->only[a->nonly++] = optarg;
			a->o.only_metrics = a->only;
			break;
		case 'N':
			if (amd_parse_double(optarg, &a->o.only_n) < 0 || !amd_num_ok(a->o.only_n))
				return cmd_error(a->name, "--n: '%s' is not a number", optarg);
			a->o.only_n_set = 1;
			break;
		case 'R': a->gate.require_all = 1; break;
		case 'F':
			if (strcmp(optarg, "ci") != 0)
				return cmd_error(a->name, "--fallback: '%s' is not a fallback (ci)",
						 optarg);
			a->gate.fallback_ci = 1;
			break;
		case 'J': a->json = 1; break;
		case 'G':
			if (amd_aggregate_parse(optarg, &a->o.aggregate) < 0)
				return cmd_error(a->name, "--aggregate: '%s' is not median or mlperf",
						 optarg);
			break;
		case 'T':
			if (strcmp(optarg, "table") && strcmp(optarg, "benchstat") && strcmp(optarg, "csv") &&
			    !(gate && strcmp(optarg, "pr-comment") == 0))
				return cmd_error(a->name, "--format: '%s' is not table, benchstat%s or csv",
						 optarg, gate ? ", pr-comment" : "");
			a->format = optarg;
			break;
		case 'U':
		case 'D':
			if (!gate)
				return cmd_error(a->name, "--%s belongs to 'amdahl gate'",
						 c == 'U' ? "junit" : "markdown");
			*(c == 'U' ? &a->junit : &a->markdown) = optarg;
			break;
		case 'I':
		case 'P':
		case 'j':
			if (!gate)
				return cmd_error(a->name, "--%s belongs to 'amdahl gate'",
						 c == 'I' ? "on-insufficient" : c == 'P' ? "step-summary" : "json-file");
			if (c == 'j')
				a->json_file = optarg;
			else if (c == 'P')
				a->step_summary = 1;
			else if (gate_insufficient_mode(optarg) < 0)
				return cmd_error(a->name, "--on-insufficient: '%s' is not fail, warn or pass",
						 optarg);
			else
				a->on_insufficient = optarg;
			break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error(a->name, "unexpected argument '%s'", argv[optind]);
	if (gate && a->baseline_last)
		return a->history ? cmd_error(a->name, "--baseline-last and --history are two ways "
					      "to judge against past groups; choose one")
		       : !a->by ? cmd_error(a->name, "--baseline-last N needs --by KEY (the groups)")
		       : a->base_value
			 ? cmd_error(a->name, "--baseline-last pools the baseline from the groups; "
				     "--baseline does not go with it")
			 : CMD_RUN;
	if (gate && a->by && !a->history)
		return cmd_error(a->name, "gate --by needs --history N or --baseline-last N");
	if (gate && a->history && a->o.aggregate != AMD_AGG_MEDIAN)
		return cmd_error(a->name, "--history compares group medians; --aggregate applies "
				 "to --baseline/--candidate comparisons");
	if (gate && a->history)
		return a->by ? CMD_RUN : cmd_error(a->name, "--history N needs --by KEY (the groups)");
	if (a->by && a->o.cand_sweep)
		return cmd_error(a->name, "with --by every other group is a candidate; --baseline "
				 "names the baseline group (default the first)");
	if (!a->by && a->select)
		return cmd_error(a->name, "--sweep goes with --by; otherwise put the selection in "
				 "--baseline and --candidate");
	if (!a->by && (!a->o.base_sweep || !a->o.cand_sweep))
		return cmd_error(a->name, "--baseline and --candidate are required; see --help");
	return CMD_RUN;
}

void compare_sides_free(struct amd_compare_opts *o)
{
	free((char *)o->base_sweep);
	free((char *)o->base_strategy);
	free((char *)o->cand_sweep);
	free((char *)o->cand_strategy);
	o->base_sweep = o->base_strategy = o->cand_sweep = o->cand_strategy = NULL;
}

void compare_args_free(struct compare_args *a)
{
	compare_sides_free(&a->o);
}

/* The most metric keys compare_open names; more gate.metrics than fit
 * open the whole store. */
#define COMPARE_MAX_KEYS (AMD_ANALYSIS_MAX_KEYS + 32)

/* The metric keys a comparison reads into keys: amd_analyse's of the
 * metric (analysis_keys.c) and each name under gate.metrics (the ones
 * not built in are analysed as metrics, compare.c); 0 when they do not
 * fit. */
static size_t compare_keys(const struct compare_args *a, const char **keys)
{
	struct amd_analysis_opts ao = {.metric = a->o.metric};
	size_t n = amd_analysis_metric_keys(&ao, keys);
	const struct amd_config *cfg = a->o.cfg;
	for (size_t i = 0; cfg && i < cfg->gate.nmetrics; i++) {
		if (n == COMPARE_MAX_KEYS)
			return 0;
		keys[n++] = cfg->gate.metrics[i].name;
	}
	return n;
}

int compare_open(struct cmd_ctx *ctx, const struct compare_args *a)
{
	int groups = a->by || a->history; /* --by, --history: one selection */
	const char *reads[] = {groups ? a->select : a->o.cand_sweep, a->o.base_sweep};
	size_t n = groups || a->base_store ? 1 : 2;
	/* a remote store loads the points of the metrics compared only */
	const char *keys[COMPARE_MAX_KEYS];
	size_t nkeys = compare_keys(a, keys);
	return nkeys ? cmd_store_open_run_values(ctx, a->name, reads, n, keys, nkeys)
		     : cmd_store_open(ctx, a->name, reads, n);
}

int compare_run(struct cmd_ctx *ctx, const struct compare_args *a, struct amd_comparison **out)
{
	struct amd_err err = {{0}};
	struct amd_store *bst = ctx->store;
	const char *base = a->o.base_sweep;
	int opened = a->base_store ? cmd_open_named(a->base_store, a->name, &base, 1, &bst) : 0;
	if (opened != 0)
		return opened;
	int rc = amd_compare(bst, ctx->store, &a->o, out, &err);
	if (bst != ctx->store)
		amd_store_close(bst);
	if (rc < 0)
		return cmd_error(a->name, "%s", err.msg);
	return 0;
}

/* The gated (1) or the shown (0) rows under their heading; -1 when out
 * of memory. */
static int print_section(const struct amd_comparison *c, int gated, FILE *out)
{
	struct amd_table *t = amd_cmp_table_text(c, gated);
	int rc = amd_table_ok(t) ? 0 : -1;
	if (rc == 0 && t->nrows) {
		fprintf(out, "%s\n", gated ? "gated (judged):" : "\nshown, not gated:");
		rc = table_print(t, out);
	}
	amd_table_free(t);
	return rc;
}

/* The distinct notes of the gated rows (why insufficient, what is
 * missing), once each. */
static void print_notes(const struct amd_comparison *c, FILE *out)
{
	size_t i = 0;
	int first = 1;
	for (const struct amd_cmp_row *r; (r = amd_cmp_next_note(c, &i, 1)); first = 0)
		fprintf(out, "%s  %s: %s\n", first ? "\nnotes:\n" : "", amd_row_verdict(r),
			cmd_shown(r->note));
	int own = 0, own_speedup = 0;
	for (size_t k = 0; k < c->nrows; k++) {
		const struct amd_cmp_row *r = &c->rows[k];
		int labelled = r->ci.valid && r->ci.level > 0;
		own |= labelled && !r->nb_base;
		own_speedup |= labelled && r->nb_base;
	}
	if (own) /* significance.h: amd_median_ratio_coverage, amd_mlperf_ratio_coverage */
		fprintf(out, "%s  a percentage after an interval is what it covers, below the stated "
			"95%%: the bootstrap interval of a ratio of %s (simulated; docs/methods.md)\n",
			first ? "\nnotes:\n" : "",
			c->aggregate == AMD_AGG_MLPERF
				? "MLPerf means with fewer than 8 runs on a side or one side far larger"
				: "medians with 3 or 4 runs on a side");
	if (own_speedup) /* stats.h: amd_speedup_ratio_coverage */
		fprintf(out, "%s  the speedup and efficiency rows' interval holds each side's %s at "
			"the base n fixed: the percentage after it is what it covers (simulated; "
			"docs/methods.md)\n", first && !own ? "\nnotes:\n" : "",
			c->aggregate == AMD_AGG_MLPERF ? "MLPerf mean" : "median");
}

int compare_print_table(const struct amd_comparison *c, FILE *out)
{
	char base[512], cand[512];
	fprintf(out, "baseline %s, candidate %s; metric %s; ratio = candidate/baseline\n",
		cmd_shown(amd_cmp_side(c->base_sweep, c->base_strategy, base, sizeof base)),
		cmd_shown(amd_cmp_side(c->cand_sweep, c->cand_strategy, cand, sizeof cand)),
		c->metric);
	if (c->aggregate == AMD_AGG_MLPERF) /* the default (median) is said in --help */
		fprintf(out, "per configuration: %s\n", amd_aggregate_rule(c->aggregate));
	fputc('\n', out);
	if (print_section(c, 1, out) < 0 || print_section(c, 0, out) < 0)
		return -1;
	print_notes(c, out);
	struct amd_buf noise = {0};
	if (amd_cmp_noise_text(c, "  ", &noise) < 0) {
		amd_buf_free(&noise);
		return -1;
	}
	if (noise.len)
		fprintf(out, "\nnoise:\n"), cmd_print_lines(out, noise.data);
	amd_buf_free(&noise);
	fprintf(out,
		"\n%zu gated row%s (%zu in the Holm family): %zu regression%s, %zu improvement%s, "
		"%zu insufficient data, %zu missing\n",
		c->ngated, c->ngated == 1 ? "" : "s", c->family, c->regressions,
		c->regressions == 1 ? "" : "s", c->improvements, c->improvements == 1 ? "" : "s",
		c->insufficient, c->missing);
	return 0;
}

static int print_bench(const struct amd_comparison *c, FILE *out)
{
	struct amd_table *t = amd_cmp_table_bench(c);
	int rc = table_print(t, out);
	for (size_t i = 0; rc == 0 && i < t->nnotes; i++)
		fprintf(out, "%s%s\n", i ? "" : "\n", cmd_shown(t->notes[i]));
	amd_table_free(t);
	struct amd_buf noise = {0};
	if (rc == 0 && (rc = amd_cmp_noise_text(c, "", &noise)) == 0 && noise.len)
		cmd_print_lines(out, noise.data);
	amd_buf_free(&noise);
	return rc;
}

int compare_print_format(const struct amd_comparison *c, const struct compare_args *a, FILE *out)
{
	if (!a->format || strcmp(a->format, "table") == 0)
		return compare_print_table(c, out);
	if (strcmp(a->format, "benchstat") == 0)
		return print_bench(c, out);
	struct amd_table *t = amd_cmp_table_csv(c);
	int rc = table_csv(t, out);
	amd_table_free(t);
	return rc;
}

cJSON *compare_json(const struct amd_comparison *c, const struct compare_args *a,
		    const char *store_path)
{
	struct amd_cmp_json_opts w = {.base_store = a->base_store ? a->base_store : store_path,
				      .cand_store = store_path, .settings = 1};
	return amd_comparison_json(c, &w);
}

int compare_print_json(cJSON *j, const char *cmd)
{
	return cmd_print_json(cmd, j);
}

static void help(void)
{
	printf("usage: amdahl compare --baseline SWEEP[:STRATEGY]|SELECTOR\n"
	       "                      --candidate SWEEP[:STRATEGY]|SELECTOR\n"
	       "                      [--baseline-store FILE] [options]\n"
	       "       amdahl compare --by KEY [--sweep S|SELECTOR] [--baseline VALUE] [options]\n"
	       "\n"
	       "Compares a candidate sweep with a baseline and prints what changed.\n"
	       "Exits 0 whatever the verdicts ('amdahl gate' fails on regressions).\n\n"
	       "With --by KEY (param.NAME, tag.NAME, ...), the runs (--sweep) split\n"
	       "into groups by KEY's value, in order of their first run, and every\n"
	       "group is compared with the baseline group (--baseline VALUE, default\n"
	       "the first); --json prints {\"by\", \"baseline\", \"comparisons\": [...]},\n"
	       "--format csv one CSV (one header) whose rows lead with baseline_group\n"
	       "and group.\n\n"
	       COMPARE_HELP_METHOD "\noptions:\n" COMPARE_HELP_OPTIONS "\n" AMD_SELECTOR_HELP);
}

/* The comparison (or, with --by, one per group) printed as asked. */
static int run(struct cmd_ctx *ctx, struct compare_args *a)
{
	int rc = compare_open(ctx, a);
	if (rc == 0 && a->by)
		return compare_by(ctx, a);
	struct amd_comparison *c = NULL;
	if (rc == 0)
		rc = compare_run(ctx, a, &c);
	if (rc == 0 && a->json)
		rc = compare_print_json(compare_json(c, a, ctx->store_path), a->name);
	else if (rc == 0 && compare_print_format(c, a, stdout) < 0)
		rc = cmd_error(a->name, "out of memory");
	amd_comparison_free(c);
	return rc;
}

int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_args a = {.name = "compare", .o.cfg = &ctx->config};
	int rc = compare_parse(argc, argv, &a, help);
	if (rc == CMD_RUN)
		rc = run(ctx, &a);
	compare_args_free(&a);
	return rc;
}
