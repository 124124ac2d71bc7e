/* compare.c — `amdahl compare`: a candidate sweep against a baseline,
 * per metric and configuration; always exits 0 unless the input is
 * wrong. Also the options, terminal table and JSON shared with `gate`. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "compare_cmd.h"
#include "compare_json.h"

static int split_spec(const char *cmd, const char *spec, char **sweep, char **strategy)
{
	const char *colon = strrchr(spec, ':');
	if (!*spec || colon == spec || (colon && !colon[1]))
		return cmd_error(cmd, "'%s' is not SWEEP or SWEEP:STRATEGY", spec);
	free(*sweep);
	free(*strategy);
	*sweep = colon ? strndup(spec, (size_t)(colon - spec)) : strdup(spec);
	*strategy = colon ? strdup(colon + 1) : NULL;
	return 0;
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
		{"json", no_argument, NULL, 'J'},
		{"junit", required_argument, NULL, 'U'},
		{"markdown", required_argument, NULL, 'D'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int gate = strcmp(a->name, "gate") == 0, c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'B':
			if (split_spec(a->name, optarg, &a->base_sweep, &a->base_strategy))
				return EXIT_USAGE;
			break;
		case 'C':
			if (split_spec(a->name, optarg, &a->cand_sweep, &a->cand_strategy))
				return EXIT_USAGE;
			break;
		case 'S': a->base_store = optarg; break;
		case 'A': a->axis = optarg; break;
		case 'M': a->metric = optarg; break;
		case 'O':
			if (a->nonly == COMPARE_MAX_ONLY)
				return cmd_error(a->name, "at most %d --only", COMPARE_MAX_ONLY);
			a->only[a->nonly++] = optarg;
			break;
		case 'N':
			if (amd_parse_double(optarg, &a->only_n) < 0 || !isfinite(a->only_n))
				return cmd_error(a->name, "--n: '%s' is not a number", optarg);
			a->only_n_set = 1;
			break;
		case 'R': a->require_all = 1; break;
		case 'J': a->json = 1; break;
		case 'U':
		case 'D':
			if (!gate)
				return cmd_error(a->name, "--%s belongs to 'amdahl gate'",
						 c == 'U' ? "junit" : "markdown");
			*(c == 'U' ? &a->junit : &a->markdown) = optarg;
			break;
		case 'h': help(); return EXIT_OK + 100;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return cmd_error(a->name, "unexpected argument '%s'", argv[optind]);
	if (!a->base_sweep || !a->cand_sweep)
		return cmd_error(a->name, "--baseline and --candidate are required; see --help");
	return 0;
}

void compare_args_free(struct compare_args *a)
{
	free(a->base_sweep);
	free(a->base_strategy);
	free(a->cand_sweep);
	free(a->cand_strategy);
}

int compare_run(struct cmd_ctx *ctx, const struct compare_args *a, struct amd_comparison **out)
{
	struct amd_err err = {{0}};
	struct amd_store *bst = ctx->store;
	if (a->base_store &&
	    amd_store_open(a->base_store, AMD_STORE_READ, &bst, &err) < 0)
		return cmd_error(a->name, "%s", err.msg);
	struct amd_compare_opts o = {0};
	o.base_sweep = a->base_sweep;
	o.base_strategy = a->base_strategy;
	o.cand_sweep = a->cand_sweep;
	o.cand_strategy = a->cand_strategy;
	o.axis = a->axis;
	o.metric = a->metric;
	o.cfg = &ctx->config;
	o.only_metrics = a->nonly ? a->only : NULL;
	o.only_n_set = a->only_n_set;
	o.only_n = a->only_n;
	int rc = amd_compare(bst, ctx->store, &o, out, &err);
	if (bst != ctx->store)
		amd_store_close(bst);
	if (rc < 0)
		return cmd_error(a->name, "%s", err.msg);
	size_t both = 0;
	for (size_t i = 0; i < (*out)->nrows; i++)
		both += (*out)->rows[i].verdict != AMD_MISSING;
	if (both == 0) {
		amd_comparison_free(*out);
		*out = NULL;
		return cmd_error(a->name, "baseline '%s' and candidate '%s' share no configuration",
				 a->base_sweep, a->cand_sweep);
	}
	return 0;
}

void compare_num(double v, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.4g", v);
}

const char *compare_strategy_label(const struct amd_cmp_row *r)
{
	static char buf[256];
	if (strcmp(r->strategy, r->cand_strategy) == 0)
		snprintf(buf, sizeof buf, "%s", r->strategy);
	else
		snprintf(buf, sizeof buf, "%s→%s", r->strategy, r->cand_strategy);
	return buf;
}

void compare_ratio_text(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (!isfinite(r->ratio))
		snprintf(buf, n, "-");
	else if (r->ci.valid)
		snprintf(buf, n, "%.3f [%.3f, %.3f]", r->ratio, r->ci.lo, r->ci.hi);
	else
		snprintf(buf, n, "%.3f (no CI)", r->ratio);
}

void compare_row_cells(const struct amd_cmp_row *r, struct compare_cells *c)
{
	char v[32];
	snprintf(c->n, sizeof c->n, "%g", r->n);
	compare_num(r->med_base, v, sizeof v);
	snprintf(c->mb, sizeof c->mb, "%s (%zu)", v, r->nb);
	compare_num(r->med_cand, v, sizeof v);
	snprintf(c->mc, sizeof c->mc, "%s (%zu)", v, r->nc);
	compare_ratio_text(r, c->ratio, sizeof c->ratio);
	compare_num(r->mwu.p, c->p, sizeof c->p);
	compare_num(r->p_adj, c->pa, sizeof c->pa);
}

static void add_table_row(struct table *t, const struct amd_cmp_row *r)
{
	struct compare_cells c;
	compare_row_cells(r, &c);
	const char *cells[] = {r->metric, compare_strategy_label(r), c.n, c.mb, c.mc, c.ratio,
			       c.p, c.pa, amd_row_verdict(r)};
	table_add(t, cells);
}

static void print_section(const struct amd_comparison *c, int gated, FILE *out)
{
	static const char *const h[] = {"metric", "strategy", "n", "baseline (runs)",
					"candidate (runs)", "ratio [95% CI]", "p", "p Holm",
					"verdict"};
	struct table *t = table_new(9, h);
	for (int col = 2; col <= 7; col++)
		if (col != 5)
			table_align_right(t, col);
	size_t k = 0;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated == gated) {
			add_table_row(t, &c->rows[i]);
			k++;
		}
	if (k) {
		fprintf(out, "%s\n", gated ? "gated (judged):" : "\nshown, not gated:");
		table_print(t, out);
	}
	table_free(t);
}

/* The distinct notes (why insufficient, what is missing), once each. */
static void print_notes(const struct amd_comparison *c, FILE *out)
{
	int first = 1;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (!r->note[0] || !r->gated)
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = c->rows[j].gated && strcmp(c->rows[j].note, r->note) == 0;
		if (seen)
			continue;
		if (first)
			fprintf(out, "\nnotes:\n");
		first = 0;
		fprintf(out, "  %s: %s\n", amd_row_verdict(r), r->note);
	}
}

void compare_print_table(const struct amd_comparison *c, FILE *out)
{
	fprintf(out, "baseline %s%s%s, candidate %s%s%s; metric %s; ratio = candidate/baseline\n\n",
		c->base_sweep, c->base_strategy ? ":" : "", c->base_strategy ? c->base_strategy : "",
		c->cand_sweep, c->cand_strategy ? ":" : "", c->cand_strategy ? c->cand_strategy : "",
		c->metric);
	print_section(c, 1, out);
	print_section(c, 0, out);
	print_notes(c, out);
	fprintf(out,
		"\n%zu gated rows (%zu in the Holm family): %zu regressions, %zu improvements, "
		"%zu insufficient data, %zu missing\n",
		c->ngated, c->family, c->regressions, c->improvements, c->insufficient, c->missing);
}

cJSON *compare_json(const struct amd_comparison *c, const struct compare_args *a,
		    const char *store_path)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *b = cJSON_AddObjectToObject(root, "baseline");
	cJSON_AddStringToObject(b, "sweep", c->base_sweep);
	if (c->base_strategy)
		cJSON_AddStringToObject(b, "strategy", c->base_strategy);
	cJSON_AddStringToObject(b, "store", a->base_store ? a->base_store : store_path);
	cJSON *k = cJSON_AddObjectToObject(root, "candidate");
	cJSON_AddStringToObject(k, "sweep", c->cand_sweep);
	if (c->cand_strategy)
		cJSON_AddStringToObject(k, "strategy", c->cand_strategy);
	cJSON_AddStringToObject(k, "store", store_path);
	cJSON_AddStringToObject(root, "metric", c->metric);
	cJSON_AddNumberToObject(root, "resamples", c->resamples);
	cJSON_AddNumberToObject(root, "seed", (double)c->seed);
	cJSON_AddNumberToObject(root, "level", c->level);
	cJSON *rows = cJSON_AddArrayToObject(root, "rows");
	for (size_t i = 0; i < c->nrows; i++)
		cJSON_AddItemToArray(rows, amd_compare_row_json(&c->rows[i]));
	cJSON *s = cJSON_AddObjectToObject(root, "summary");
	cJSON_AddNumberToObject(s, "gated", (double)c->ngated);
	cJSON_AddNumberToObject(s, "holm_family", (double)c->family);
	cJSON_AddNumberToObject(s, "regressions", (double)c->regressions);
	cJSON_AddNumberToObject(s, "improvements", (double)c->improvements);
	cJSON_AddNumberToObject(s, "insufficient", (double)c->insufficient);
	cJSON_AddNumberToObject(s, "missing", (double)c->missing);
	return root;
}

static void help(void)
{
	printf("usage: amdahl compare --baseline SWEEP[:STRATEGY] --candidate SWEEP[:STRATEGY]\n"
	       "                      [--baseline-store FILE] [options]\n"
	       "\n"
	       "Compares a candidate sweep with a baseline and prints what changed.\n"
	       "Exits 0 whatever the verdicts ('amdahl gate' fails on regressions).\n\n"
	       COMPARE_HELP_METHOD "\noptions:\n" COMPARE_HELP_OPTIONS);
}

int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_args a = {.name = "compare"};
	int rc = compare_parse(argc, argv, &a, help);
	if (rc == 0) {
		struct amd_comparison *c;
		rc = compare_run(ctx, &a, &c);
		if (rc == 0) {
			if (a.json) {
				cJSON *j = compare_json(c, &a, ctx->store_path);
				char *s = cJSON_Print(j);
				puts(s);
				free(s);
				cJSON_Delete(j);
			} else
				compare_print_table(c, stdout);
			amd_comparison_free(c);
		}
	}
	compare_args_free(&a);
	return rc == EXIT_OK + 100 ? EXIT_OK : rc;
}
