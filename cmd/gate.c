/* gate.c — `amdahl gate`: the comparison as a CI check. The verdict and
 * its exit code (0 pass, 1 regression, 3 insufficient data; 2 usage or
 * input error) come from lib/compare/verdict.h; this file writes it: the
 * table or --json, the JUnit file (one test case per metric ×
 * configuration) and the Markdown summary (also appended to
 * $GITHUB_STEP_SUMMARY with --step-summary); --on-insufficient turns
 * insufficient data (exit 3) into a warning or a pass. */
#include <errno.h>
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
	       "per side would; --on-insufficient changes that exit). --junit, --markdown\n"
	       "and --json are written by one call; the Markdown summary is appended to\n"
	       "$GITHUB_STEP_SUMMARY with --step-summary.\n\n" COMPARE_HELP_METHOD
	       "\noptions:\n" COMPARE_HELP_OPTIONS
	       "  --junit FILE   write a JUnit XML report (one test case per metric and\n"
	       "                 configuration; insufficient data as skipped; each with\n"
	       "                 the smallest change its runs could detect: property\n"
	       "                 detectable_change, a fraction, none or unknown, and a\n"
	       "                 sentence in system-out)\n"
	       "  --markdown FILE  write the Markdown summary\n"
	       "  --step-summary append the Markdown summary to $GITHUB_STEP_SUMMARY\n"
	       "  --json-file FILE  write the --json document to FILE (the table still prints)\n"
	       "  --baseline-last N --by KEY [--sweep S|SELECTOR] [--candidate VALUE]\n"
	       "                 the runs (--sweep) split into groups by KEY (tag.git_commit,\n"
	       "                 ...) in order of their first run; the candidate group (default\n"
	       "                 the last) against the runs of the N groups before it, pooled\n"
	       "                 into one baseline: a nightly job's three runs a commit give\n"
	       "                 the test enough baseline runs to decide\n"
	       "  --format pr-comment  print the Markdown summary (verdict, deciding rows,\n"
	       "                 detectable change, table) as a pull-request comment body\n"
	       "  --on-insufficient fail|warn|pass  when no gated row can be decided for\n"
	       "                 want of runs: exit 3 (fail, the default), a warning and\n"
	       "                 exit 0 (warn), or exit 0 (pass); gate.on_insufficient in\n"
	       "                 amdahl.yaml sets the default. Three runs a side can never\n"
	       "                 reach p < 0.05: such a job chooses warn\n"
	       "\n"
	       "usage: amdahl gate --history N --by KEY [--sweep S|SELECTOR] [--candidate VALUE]\n"
	       "                   [--metric M] [--json]\n"
	       "\n"
	       "Against a history: the runs (--sweep) split into groups by KEY\n"
	       "(tag.git_commit, ...) in order of their first run (see 'amdahl history');\n"
	       "the candidate group (--candidate VALUE, default the last) fails the gate\n"
	       "when it and the 2 groups before it (a change must hold for 3 groups) are\n"
	       "worse than the N groups before them: the one-sided exact permutation p of\n"
	       "their sum among all C(N+3, 3) triples of the N+3 group medians is at most\n"
	       "alpha/10 (the per-night level that keeps false FAILs over 40 nights near\n"
	       "10%%), and their median is worse than the median of the N medians by\n"
	       "more than the threshold. A step that one noisy pairwise gate cannot see\n"
	       "against one baseline shows against many. A history too short to reach\n"
	       "alpha/10 (8 groups at 0.05): exit 3. alpha and threshold: gate.alpha\n"
	       "and gate.threshold in amdahl.yaml (default 0.05 each).\n");
}

/* The row's verdict as the gate used it: a likely regression that fails
 * with --fallback ci says so, not "insufficient data" (as the text's
 * last line does). */
static const char *row_word(const struct amd_cmp_row *r, const struct amd_gate_opts *go)
{
	if (r->verdict != AMD_REGRESSION && r->likely == 1 && amd_gate_row_fails(r, go))
		return "likely regression (failing with --fallback ci)";
	return amd_row_verdict(r);
}

/* One sentence with the numbers of a row. */
static void row_sentence(const struct amd_cmp_row *r, const struct amd_gate_opts *go, char *buf,
			 size_t n)
{
	struct amd_cmp_cells c;
	char strategy[256];
	amd_cmp_cells(r, AMD_CMP_TEXT, &c);
	amd_cmp_strategy(r, strategy, sizeof strategy);
	int k = snprintf(buf, n, "%s: %s %s n=%g: median %s (%zu runs) vs baseline %s (%zu runs), "
			 "ratio %s, %s is better, threshold %g%%",
			 row_word(r, go), r->metric, strategy, r->n, c.cand, r->nc, c.base, r->nb,
			 c.ratio, amd_direction_name(r->dir), r->threshold * 100);
	if (k < 0 || (size_t)k >= n)
		return;
	if (r->verdict != AMD_MISSING)
		k += snprintf(buf + k, n - (size_t)k, ", p %.4g", r->mwu.p);
	if (amd_num_ok(r->p_adj) && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, ", Holm p %.4g (alpha %g)", r->p_adj, r->alpha);
	if (r->note[0] && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "; %s", r->note);
}

/* s escaped for XML text and attributes, as valid UTF-8 (text_safe.h);
 * control characters XML 1.0 forbids are left out. */
static void xml_text(FILE *f, const char *text)
{
	char *valid = amd_utf8_valid_dup(text);
	if (!valid) {
		fputs("(out of memory)", f);
		return;
	}
	for (const char *s = valid; *s; s++) {
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
	free(valid);
}

/* The row's smallest detectable change as a property: a fraction of the
 * baseline median, "none" or "unknown" (the sentence goes in system-out). */
static void junit_detectable(FILE *f, const struct amd_cmp_row *r)
{
	char v[64];
	fprintf(f, "\n      <properties><property name=\"detectable_change\" value=\"%s\"/>"
		"</properties>", amd_cmp_detectable_value(r, v, sizeof v));
}

static void junit_case(FILE *f, const struct amd_cmp_row *r, const struct amd_gate_opts *go)
{
	char name[300], msg[1024], det[300];
	amd_cmp_config(r, name, sizeof name);
	row_sentence(r, go, msg, sizeof msg);
	amd_cmp_detectable_sentence(r, det, sizeof det);
	fputs("    <testcase classname=\"amdahl.gate.", f);
	xml_text(f, r->metric);
	fputs("\" name=\"", f);
	xml_text(f, name);
	fputs("\">", f);
	junit_detectable(f, r);
	int passed = 0;
	if (amd_gate_row_fails(r, go)) {
		fputs("\n      <failure type=\"", f);
		xml_text(f, row_word(r, go));
		fputs("\" message=\"", f);
		xml_text(f, msg);
		fputs("\">", f);
		xml_text(f, msg);
		fputs("</failure>", f);
	} else if (r->verdict == AMD_INSUFFICIENT || r->verdict == AMD_MISSING || !r->gated) {
		fputs("\n      <skipped message=\"", f);
		if (!r->gated)
			xml_text(f, "not gated: ");
		xml_text(f, msg);
		fputs("\"/>", f);
	} else {
		passed = 1;
	}
	fputs("\n      <system-out>", f);
	if (passed) /* a failure or skip says msg already */
		xml_text(f, msg), xml_text(f, "\n");
	xml_text(f, det);
	fputs("</system-out>\n    </testcase>\n", f);
}

static int write_junit(const char *path, const struct amd_comparison *c,
		       const struct amd_gate_opts *go)
{
	struct amd_out o;
	struct amd_err err = {{0}};
	if (amd_out_open_path(&o, path, &err) < 0)
		return cmd_error("gate", "%s", err.msg);
	FILE *f = o.f;
	size_t failures = 0, skipped = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (amd_gate_row_fails(r, go))
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
		junit_case(f, &c->rows[i], go);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (amd_out_commit(&o, &err) < 0)
		return cmd_error("gate", "%s", err.msg);
	return 0;
}

/* The rows that decided the verdict, one bullet each (at most 8), names
 * escaped for Markdown: the failing rows, else the insufficient ones.
 * -1 when out of memory. */
static int deciding_rows(FILE *f, const struct amd_comparison *c, const struct amd_gate_opts *go,
			 const struct amd_gate_verdict *v)
{
	size_t shown = 0, total = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		int decides = v->result == AMD_GATE_REGRESSION ? amd_gate_row_fails(r, go)
			      : r->gated && r->verdict == AMD_INSUFFICIENT;
		if (!decides)
			continue;
		total++;
		if (shown == 8)
			continue;
		char msg[1024];
		struct amd_buf md = {0};
		row_sentence(r, go, msg, sizeof msg);
		if (amd_md_escape(&md, msg) < 0)
			return -1;
		fprintf(f, "%s- %s\n", shown++ ? "" : "Decided by:\n\n", md.data);
		amd_buf_free(&md);
	}
	if (total > shown)
		fprintf(f, "- and %zu more (the table below)\n", total - shown);
	if (shown)
		fputc('\n', f);
	return 0;
}

/* The Markdown summary: the verdict and the rows that decided it, the
 * counts, what the noise let it see, every row (gated first) and the
 * gated rows' distinct notes. -1 when out of memory. */
static int write_markdown(FILE *f, const struct amd_comparison *c, const struct amd_gate_opts *go,
			  const struct amd_gate_verdict *v)
{
	char cand[512], base[512];
	struct amd_buf name[3] = {{0}};
	int rc = amd_md_escape(&name[0], amd_cmp_side(c->cand_sweep, c->cand_strategy, cand,
							sizeof cand)) < 0 ||
		 amd_md_escape(&name[1], amd_cmp_side(c->base_sweep, c->base_strategy, base,
							sizeof base)) < 0 ||
		 amd_md_escape(&name[2], c->metric) < 0;
	if (!rc) {
		fprintf(f, "### amdahl gate: %s\n\n", v->word);
		fprintf(f, "Candidate **%s** against baseline **%s** (metric **%s**; ratio = "
			   "candidate/baseline): %zu gated row%s, %zu regression%s, %zu improvement%s, "
			   "%zu insufficient data, %zu missing.\n\n",
			name[0].data, name[1].data, name[2].data, c->ngated, c->ngated == 1 ? "" : "s",
			c->regressions, c->regressions == 1 ? "" : "s", c->improvements,
			c->improvements == 1 ? "" : "s", c->insufficient, c->missing);
	}
	for (int k = 0; k < 3; k++)
		amd_buf_free(&name[k]);
	if (rc)
		return -1;
	if (deciding_rows(f, c, go, v) < 0)
		return -1;
	struct amd_buf noise = {0};
	rc = amd_cmp_noise_text(c, "", &noise);
	if (rc == 0 && noise.len) {
		for (char *line = noise.data, *nl; rc == 0 && *line; line = nl ? nl + 1 : "") {
			struct amd_buf md = {0};
			if ((nl = strchr(line, '\n')))
				*nl = '\0';
			rc = amd_md_escape(&md, line);
			if (rc == 0)
				fprintf(f, "- %s\n", md.data);
			amd_buf_free(&md);
		}
		fputc('\n', f);
	}
	amd_buf_free(&noise);
	struct amd_table *t = rc == 0 ? amd_cmp_table_text(c, AMD_CMP_ALL) : NULL;
	rc = rc == 0 ? table_markdown(t, f) : -1;
	amd_table_free(t);
	size_t i = 0;
	int first = 1;
	for (const struct amd_cmp_row *r; rc == 0 && (r = amd_cmp_next_note(c, &i, 1)); first = 0) {
		struct amd_buf note = {0};
		rc = amd_md_escape(&note, r->note);
		if (rc == 0)
			fprintf(f, "%s- %s: %s\n", first ? "\n" : "", amd_row_verdict(r), note.data);
		amd_buf_free(&note);
	}
	fputc('\n', f);
	return rc;
}

/* The Markdown file the user named, written whole and renamed into place. */
static int markdown_file(const char *path, const struct amd_comparison *c,
			 const struct amd_gate_opts *go, const struct amd_gate_verdict *v)
{
	struct amd_out o;
	struct amd_err err = {{0}};
	if (amd_out_open_path(&o, path, &err) < 0)
		return cmd_error("gate", "%s", err.msg);
	if (write_markdown(o.f, c, go, v) < 0) {
		amd_out_discard(&o);
		return cmd_error("gate", "%s: out of memory", path);
	}
	return amd_out_commit(&o, &err) < 0 ? cmd_error("gate", "%s", err.msg) : 0;
}

/* GitHub's step summary, which other steps append to as well. */
static int markdown_append(const char *path, const struct amd_comparison *c,
			   const struct amd_gate_opts *go, const struct amd_gate_verdict *v)
{
	FILE *f = fopen(path, "a");
	if (!f)
		return cmd_error("gate", "%s: %s", path, strerror(errno));
	int oom = write_markdown(f, c, go, v) < 0;
	if (fclose(f) != 0)
		return cmd_error("gate", "%s: %s", path, strerror(errno));
	return oom ? cmd_error("gate", "%s: out of memory", path) : 0;
}

/* The --json document: the comparison, the result and the exit code;
 * NULL when out of memory. */
static cJSON *gate_json(const struct compare_args *a, struct cmd_ctx *ctx,
			const struct amd_comparison *c, const struct amd_gate_verdict *v)
{
	cJSON *j = compare_json(c, a, ctx->store_path);
	if (j && (!cJSON_AddStringToObject(j, "result", amd_gate_result_json(v->result)) ||
		  !cJSON_AddNumberToObject(j, "exit", v->exit_code))) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

/* --json-file FILE: the --json document, written whole and renamed into place. */
static int json_file(const struct compare_args *a, struct cmd_ctx *ctx,
		     const struct amd_comparison *c, const struct amd_gate_verdict *v)
{
	cJSON *j = gate_json(a, ctx, c, v);
	char *raw = j && amd_json_versioned(j) == 0 ? cJSON_Print(j) : NULL;
	cJSON_Delete(j);
	char *text = raw ? amd_utf8_valid_dup(raw) : NULL; /* as cmd_print_json */
	free(raw);
	struct amd_out o;
	struct amd_err err = {{0}};
	if (!text)
		return cmd_error("gate", "%s: out of memory", a->json_file);
	if (amd_out_open_path(&o, a->json_file, &err) < 0) {
		free(text);
		return cmd_error("gate", "%s", err.msg);
	}
	fprintf(o.f, "%s\n", text);
	free(text);
	return amd_out_commit(&o, &err) < 0 ? cmd_error("gate", "%s", err.msg) : 0;
}

/* The last line, "gate: FAIL"; a FAIL that only --fallback ci made (the
 * count line above says 0 regressions) says so. */
static void print_word(const struct amd_comparison *c, const struct amd_gate_opts *go,
		       const struct amd_gate_verdict *v)
{
	size_t failed = c->regressions + (go->require_all ? c->missing : 0);
	if (v->result == AMD_GATE_REGRESSION && !failed && c->likely_regressions)
		printf("gate: %s (%zu likely regression%s, failing with --fallback ci: see noise)\n",
		       v->word, c->likely_regressions, c->likely_regressions == 1 ? "" : "s");
	else
		printf("gate: %s\n", v->word);
}

static int outputs(const struct compare_args *a, struct cmd_ctx *ctx,
		   const struct amd_comparison *c, const struct amd_gate_verdict *v)
{
	const struct amd_gate_opts *go = &a->gate;
	if (a->junit && write_junit(a->junit, c, go))
		return EXIT_USAGE;
	if (a->markdown && markdown_file(a->markdown, c, go, v))
		return EXIT_USAGE;
	const char *summary = a->step_summary ? getenv("GITHUB_STEP_SUMMARY") : NULL;
	if (a->step_summary && !(summary && *summary))
		return cmd_error("gate", "--step-summary: GITHUB_STEP_SUMMARY is not set");
	if (summary && markdown_append(summary, c, go, v))
		return EXIT_USAGE;
	if (a->json_file && json_file(a, ctx, c, v))
		return EXIT_USAGE;
	if (a->json)
		return compare_print_json(gate_json(a, ctx, c, v), "gate");
	if (a->format && strcmp(a->format, "pr-comment") == 0)
		return write_markdown(stdout, c, go, v) < 0 ? cmd_error("gate", "out of memory") : 0;
	if (compare_print_format(c, a, stdout) < 0)
		return cmd_error("gate", "out of memory");
	if (!a->format || strcmp(a->format, "csv") != 0)
		print_word(c, go, v);
	return 0;
}

int gate_insufficient_mode(const char *mode)
{
	static const char *const names[] = {"fail", "warn", "pass"};
	for (int i = 0; i < 3; i++)
		if (strcmp(mode, names[i]) == 0)
			return i;
	return -1;
}

/* --on-insufficient, else gate.on_insufficient in amdahl.yaml, else fail;
 * -1 with the message printed when the file's value is none of them. */
static int insufficient_mode(const struct compare_args *a, const struct cmd_ctx *ctx)
{
	const char *mode = a->on_insufficient ? a->on_insufficient
			   : ctx->config.gate.on_insufficient ? ctx->config.gate.on_insufficient
							       : "fail";
	int m = gate_insufficient_mode(mode);
	if (m < 0)
		cmd_error("gate", "%s: gate.on_insufficient: '%s' is not fail, warn or pass",
			  ctx->config.path, mode);
	return m;
}

/* Insufficient data under warn or pass: the exit is 0 (the outputs say
 * so, and the verdict stays insufficient_data). */
static void apply_insufficient(struct amd_gate_verdict *v, int mode)
{
	if (v->exit_code != EXIT_INSUFFICIENT || mode == GATE_INSUFFICIENT_FAIL)
		return;
	v->exit_code = EXIT_OK;
	if (mode == GATE_INSUFFICIENT_WARN)
		fprintf(stderr, "amdahl gate: warning: insufficient data to decide; passing "
				"(--on-insufficient=warn). More runs per side, or --baseline-last N "
				"with --by, let the gate decide.\n");
}

/* The pairwise gate: the comparison, its verdict, the outputs. */
static int run(struct cmd_ctx *ctx, const struct compare_args *a)
{
	struct amd_comparison *c = NULL;
	int mode = insufficient_mode(a, ctx);
	if (mode < 0)
		return EXIT_USAGE;
	int rc = compare_run(ctx, a, &c);
	if (rc == 0) {
		struct amd_gate_verdict v;
		amd_gate_verdict(c, &a->gate, &v);
		apply_insufficient(&v, mode);
		rc = outputs(a, ctx, c, &v);
		if (rc == 0)
			rc = v.exit_code;
	}
	amd_comparison_free(c);
	return rc;
}

/* The selection sel (NULL: every run) narrowed to the runs whose key is
 * one of values[0..n): "SEL,KEY~@(v1|v2|...)", each value's glob
 * characters escaped; NULL when out of memory. */
static char *pooled_selector(const char *sel, const char *key, const struct amd_run_group *g,
			     size_t n)
{
	struct amd_buf b = {0};
	int has = sel && *sel, named = has && !amd_selector_is(sel); /* a sweep's name */
	int rc = amd_buf_printf(&b, "%s%s%s%s~@(", named ? "sweep=" : "", has ? sel : "",
				has ? "," : "", key);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = i ? amd_buf_printf(&b, "|") : 0;
		for (const char *p = g[i].value; rc == 0 && *p; p++)
			rc = amd_buf_printf(&b, "%s%c", strchr("*?[]\\|()@!+", *p) ? "\\" : "", *p);
	}
	if (rc == 0 && amd_buf_printf(&b, ")") == 0)
		return b.data;
	amd_buf_free(&b);
	return NULL;
}

/* gate --baseline-last N --by KEY: the candidate group (--candidate
 * VALUE, default the last) against the runs of the N groups before it,
 * pooled into one baseline sample. */
static int gate_pooled(struct cmd_ctx *ctx, struct compare_args *a)
{
	struct amd_err err = {{0}};
	struct amd_run_group *g;
	size_t n, skipped, k;
	if (amd_select_groups(ctx->store, a->select, a->by, &g, &n, &skipped, &err) < 0)
		return cmd_error("gate", "%s", err.msg);
	for (k = a->cand_value ? 0 : n - 1; a->cand_value && k < n; k++)
		if (strcmp(g[k].value, a->cand_value) == 0)
			break;
	int rc = 0;
	if (k == n)
		rc = cmd_error("gate", "--candidate: no group %s=%s", a->by, a->cand_value);
	else if (k == 0)
		rc = cmd_error("gate", "--baseline-last: no group of %s comes before %s=%s", a->by,
			       a->by, g[k].value);
	size_t first = k > (size_t)a->baseline_last ? k - (size_t)a->baseline_last : 0;
	if (rc == 0) {
		compare_sides_free(&a->o);
		a->o.base_sweep = pooled_selector(a->select, a->by, &g[first], k - first);
		a->o.cand_sweep = strdup(g[k].selector);
		if (!a->o.base_sweep || !a->o.cand_sweep)
			rc = cmd_error("gate", "out of memory");
	}
	if (rc == 0 && !a->json && !(a->format && strcmp(a->format, "pr-comment") == 0)) {
		size_t runs = 0;
		for (size_t i = first; i < k; i++)
			runs += g[i].nruns;
		printf("baseline: %zu run%s of the %zu group%s of %s before %s (%s .. %s), pooled\n\n",
		       runs, runs == 1 ? "" : "s", k - first, k - first == 1 ? "" : "s", a->by,
		       cmd_shown(g[k].value), cmd_shown(g[first].value), cmd_shown(g[k - 1].value));
	}
	amd_run_groups_free(g, n);
	return rc ? rc : run(ctx, a);
}

int cmd_gate(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_args a = {.name = "gate", .o.cfg = &ctx->config};
	int rc = compare_parse(argc, argv, &a, help);
	if (rc == CMD_RUN && (rc = compare_open(ctx, &a)) == 0)
		rc = a.history ? gate_history(ctx, &a) : a.baseline_last ? gate_pooled(ctx, &a)
							  : run(ctx, &a);
	compare_args_free(&a);
	return rc;
}
