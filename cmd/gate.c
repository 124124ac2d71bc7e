/* gate.c — `amdahl gate`: the comparison as a CI check. Exit 0 pass,
 * 1 regression, 2 usage or input error, 3 insufficient data; writes the
 * JUnit file (one test case per metric × configuration) and the Markdown
 * summary (also appended to $GITHUB_STEP_SUMMARY when set). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cmd.h"

static void help(void)
{
	printf("usage: amdahl gate --baseline SWEEP[:STRATEGY] --candidate SWEEP[:STRATEGY]\n"
	       "                   [--baseline-store FILE] [--junit FILE] [--markdown FILE] [options]\n"
	       "\n"
	       "Fails a CI job when the candidate sweep regressed against the baseline.\n"
	       "Exit codes: 0 pass, 1 regression (or, with --require-all, a missing\n"
	       "configuration), 2 usage or input error, 3 insufficient data (some gated\n"
	       "row cannot reach alpha with its run counts; the table says how many runs\n"
	       "per side would). The Markdown summary is appended to $GITHUB_STEP_SUMMARY\n"
	       "when that is set.\n\n" COMPARE_HELP_METHOD
	       "\noptions:\n" COMPARE_HELP_OPTIONS
	       "  --junit FILE   write a JUnit XML report (one test case per metric and\n"
	       "                 configuration; insufficient data as skipped)\n"
	       "  --markdown FILE  write the Markdown summary\n");
}

enum outcome { PASS, REGRESSION, INSUFFICIENT };

static enum outcome outcome_of(const struct amd_comparison *c, int require_all)
{
	if (c->regressions || (require_all && c->missing))
		return REGRESSION;
	return c->insufficient ? INSUFFICIENT : PASS;
}

static const char *outcome_text(enum outcome o)
{
	return o == REGRESSION ? "FAIL" : o == INSUFFICIENT ? "INSUFFICIENT DATA" : "PASS";
}

static int row_fails(const struct amd_cmp_row *r, int require_all)
{
	return r->gated && (r->verdict == AMD_REGRESSION ||
			    (require_all && r->verdict == AMD_MISSING));
}

/* One sentence with the numbers of a row. */
static void row_sentence(const struct amd_cmp_row *r, char *buf, size_t n)
{
	char ratio[80], mb[32], mc[32];
	compare_ratio_text(r, ratio, sizeof ratio);
	compare_num(r->med_base, mb, sizeof mb);
	compare_num(r->med_cand, mc, sizeof mc);
	int k = snprintf(buf, n, "%s: %s %s n=%g: median %s (%zu runs) vs baseline %s (%zu runs), "
			 "ratio %s, %s is better, threshold %g%%",
			 amd_row_verdict(r), r->metric, compare_strategy_label(r), r->n,
			 mc, r->nc, mb, r->nb, ratio, amd_direction_name(r->dir),
			 r->threshold * 100);
	if (k < 0 || (size_t)k >= n)
		return;
	if (r->verdict != AMD_MISSING)
		k += snprintf(buf + k, n - (size_t)k, ", p %.4g", r->mwu.p);
	if (isfinite(r->p_adj) && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, ", Holm p %.4g (alpha %g)", r->p_adj, r->alpha);
	if (r->note[0] && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "; %s", r->note);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

static void junit_case(FILE *f, const struct amd_cmp_row *r, int require_all)
{
	char name[300], msg[1024];
	snprintf(name, sizeof name, "%s n=%g", compare_strategy_label(r), r->n);
	row_sentence(r, msg, sizeof msg);
	fputs("    <testcase classname=\"amdahl.gate.", f);
	xml_text(f, r->metric);
	fputs("\" name=\"", f);
	xml_text(f, name);
	fputs("\">", f);
	if (row_fails(r, require_all)) {
		fprintf(f, "\n      <failure type=\"%s\" message=\"", amd_row_verdict(r));
		xml_text(f, msg);
		fputs("\">", f);
		xml_text(f, msg);
		fputs("</failure>\n    ", f);
	} else if (r->verdict == AMD_INSUFFICIENT || r->verdict == AMD_MISSING || !r->gated) {
		fputs("\n      <skipped message=\"", f);
		if (!r->gated)
			xml_text(f, "not gated: ");
		xml_text(f, msg);
		fputs("\"/>\n    ", f);
	} else {
		fputs("\n      <system-out>", f);
		xml_text(f, msg);
		fputs("</system-out>\n    ", f);
	}
	fputs("</testcase>\n", f);
}

static int write_junit(const char *path, const struct amd_comparison *c, int require_all)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return cmd_error("gate", "%s: %s", path, strerror(errno));
	size_t failures = 0, skipped = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (row_fails(r, require_all))
			failures++;
		else if (!r->gated || r->verdict == AMD_INSUFFICIENT || r->verdict == AMD_MISSING)
			skipped++;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"amdahl gate\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		c->nrows, failures, skipped);
	fputs("  <testsuite name=\"", f);
	xml_text(f, c->cand_sweep);
	xml_text(f, " vs ");
	xml_text(f, c->base_sweep);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", c->nrows,
		failures, skipped);
	for (size_t i = 0; i < c->nrows; i++)
		junit_case(f, &c->rows[i], require_all);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (fclose(f) != 0)
		return cmd_error("gate", "%s: %s", path, strerror(errno));
	return 0;
}

/* Markdown table cells: '|' escaped, newlines flattened. */
static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc(' ', f);
}

static void md_row(FILE *f, const struct amd_cmp_row *r)
{
	struct compare_cells c;
	char verdict[64];
	compare_row_cells(r, &c);
	const char *bold = r->gated && r->verdict == AMD_REGRESSION ? "**" : "";
	snprintf(verdict, sizeof verdict, "%s%s%s", bold, amd_row_verdict(r), bold);
	const char *cells[] = {r->metric, compare_strategy_label(r), c.n, c.mb, c.mc, c.ratio,
			       c.p, c.pa, verdict, r->gated ? "yes" : "no"};
	for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
		md_cell(f, cells[i]);
	fputs("|\n", f);
}

static void write_markdown(FILE *f, const struct amd_comparison *c, enum outcome o)
{
	fprintf(f, "### amdahl gate: %s\n\n", outcome_text(o));
	fprintf(f, "Candidate `%s%s%s` against baseline `%s%s%s` (metric `%s`; ratio = "
		   "candidate/baseline): %zu gated rows, %zu regressions, %zu improvements, "
		   "%zu insufficient data, %zu missing.\n\n",
		c->cand_sweep, c->cand_strategy ? ":" : "", c->cand_strategy ? c->cand_strategy : "",
		c->base_sweep, c->base_strategy ? ":" : "", c->base_strategy ? c->base_strategy : "",
		c->metric, c->ngated, c->regressions, c->improvements, c->insufficient,
		c->missing);
	fputs("| metric | strategy | n | baseline (runs) | candidate (runs) | ratio [95% CI] "
	      "| p | p Holm | verdict | gated |\n"
	      "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- | --- |\n", f);
	for (int gated = 1; gated >= 0; gated--)
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].gated == gated)
				md_row(f, &c->rows[i]);
	int first = 1;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = c->rows[j].gated && strcmp(c->rows[j].note, r->note) == 0;
		if (!r->gated || !r->note[0] || seen)
			continue;
		fputs(first ? "\n" : "", f);
		first = 0;
		fprintf(f, "- %s: %s\n", amd_row_verdict(r), r->note);
	}
	fputc('\n', f);
}

static int markdown_to(const char *path, const char *mode, const struct amd_comparison *c,
		       enum outcome o)
{
	FILE *f = fopen(path, mode);
	if (!f)
		return cmd_error("gate", "%s: %s", path, strerror(errno));
	write_markdown(f, c, o);
	if (fclose(f) != 0)
		return cmd_error("gate", "%s: %s", path, strerror(errno));
	return 0;
}

static int outputs(const struct compare_args *a, struct cmd_ctx *ctx,
		   const struct amd_comparison *c, enum outcome o)
{
	if (a->junit && write_junit(a->junit, c, a->require_all))
		return EXIT_USAGE;
	if (a->markdown && markdown_to(a->markdown, "w", c, o))
		return EXIT_USAGE;
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	if (summary && *summary && markdown_to(summary, "a", c, o))
		return EXIT_USAGE;
	if (a->json) {
		cJSON *j = compare_json(c, a, ctx->store_path);
		cJSON_AddStringToObject(j, "result", outcome_text(o));
		cJSON_AddNumberToObject(j, "exit", o == REGRESSION ? EXIT_FINDING
					: o == INSUFFICIENT ? EXIT_INSUFFICIENT : EXIT_OK);
		char *s = cJSON_Print(j);
		puts(s);
		free(s);
		cJSON_Delete(j);
	} else {
		compare_print_table(c, stdout);
		printf("gate: %s\n", outcome_text(o));
	}
	return 0;
}

int cmd_gate(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_args a = {.name = "gate"};
	int rc = compare_parse(argc, argv, &a, help);
	struct amd_comparison *c = NULL;
	if (rc == 0)
		rc = compare_run(ctx, &a, &c);
	if (rc == 0) {
		enum outcome o = outcome_of(c, a.require_all);
		rc = outputs(&a, ctx, c, o);
		if (rc == 0)
			rc = o == REGRESSION ? EXIT_FINDING : o == INSUFFICIENT ? EXIT_INSUFFICIENT
										: EXIT_OK;
	}
	amd_comparison_free(c);
	compare_args_free(&a);
	return rc == EXIT_OK + 100 ? EXIT_OK : rc;
}
