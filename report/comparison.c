/* comparison.c — `report build --baseline A`: the candidate sweep against
 * a baseline (lib/compare.h, the rows `amdahl compare` prints): the gate
 * sentence on page 1, a chart of the ratio candidate/baseline with its
 * interval per gated row (bars from 1, threshold band shaded, colour by
 * verdict), the comparison page of the PDF with every row in a table,
 * the summaries' section and report.json's "gate" object. */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_json.h"
#include "pdf.h"
#include "template.h"

/* Okabe–Ito palette indices (report/chart/chart_style.c) per verdict. */
#define COLOR_REGRESSION 3  /* vermillion */
#define COLOR_IMPROVEMENT 2 /* bluish green */
#define COLOR_NO_CHANGE 0   /* blue */

const char *report_gate_result(const struct amd_comparison *cmp)
{
	return cmp->regressions ? "regression" : cmp->insufficient ? "insufficient" : "pass";
}

static const char *gate_word(const struct amd_comparison *cmp)
{
	return cmp->regressions ? "FAIL" : cmp->insufficient ? "INSUFFICIENT DATA" : "PASS";
}

void report_cmp_config(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (strcmp(r->strategy, r->cand_strategy) == 0)
		snprintf(buf, n, "%s n=%g", r->strategy, r->n);
	else
		snprintf(buf, n, "%s→%s n=%g", r->strategy, r->cand_strategy, r->n);
}

void report_cmp_ratio(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (!isfinite(r->ratio))
		snprintf(buf, n, "–");
	else if (r->ci.valid)
		snprintf(buf, n, "%.3f [%.3f, %.3f]", r->ratio, r->ci.lo, r->ci.hi);
	else
		snprintf(buf, n, "%.3f (no CI)", r->ratio);
}

static void side_text(const char *sweep, const char *strategy, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", sweep, strategy ? ":" : "", strategy ? strategy : "");
}

/* The rows that decide the gate's result, in one sentence each. */
static void row_brief(const struct amd_cmp_row *r, char *buf, size_t n)
{
	char cfg[160], ratio[96];
	report_cmp_config(r, cfg, sizeof cfg);
	report_cmp_ratio(r, ratio, sizeof ratio);
	snprintf(buf, n, "%s %s ratio %s (%s is better), Holm p %.3g", r->metric, cfg, ratio,
		 amd_direction_name(r->dir), r->p_adj);
}

static void gate_sentence(const struct amd_comparison *cmp, char *buf, size_t n)
{
	char base[300], cand[300];
	side_text(cmp->base_sweep, cmp->base_strategy, base, sizeof base);
	side_text(cmp->cand_sweep, cmp->cand_strategy, cand, sizeof cand);
	size_t k = (size_t)snprintf(buf, n, "gate: %s: %s against baseline %s, %zu gated rows: ",
				    gate_word(cmp), cand, base, cmp->ngated);
	if (k >= n)
		return;
	if (cmp->regressions) {
		k += (size_t)snprintf(buf + k, n - k, "%zu regression%s", cmp->regressions,
				      cmp->regressions == 1 ? "" : "s");
		for (size_t i = 0, shown = 0; i < cmp->nrows && k < n; i++) {
			const struct amd_cmp_row *r = &cmp->rows[i];
			if (!r->gated || r->verdict != AMD_REGRESSION)
				continue;
			if (shown == 3) {
				k += (size_t)snprintf(buf + k, n - k, "; and more (see the comparison page)");
				break;
			}
			char row[400];
			row_brief(r, row, sizeof row);
			k += (size_t)snprintf(buf + k, n - k, "%s%s", shown++ ? "; " : " — ", row);
		}
		if (k < n)
			snprintf(buf + k, n - k, ".");
		return;
	}
	if (cmp->insufficient) {
		const char *why = "";
		for (size_t i = 0; i < cmp->nrows && !*why; i++)
			if (cmp->rows[i].gated && cmp->rows[i].verdict == AMD_INSUFFICIENT)
				why = cmp->rows[i].note;
		k += (size_t)snprintf(buf + k, n - k, "%zu cannot reach significance with their runs (%s)",
				      cmp->insufficient, why);
		if (k < n && cmp->insufficient + cmp->missing < cmp->ngated)
			k += (size_t)snprintf(buf + k, n - k, "; the other %zu: no regression, "
					      "%zu improvement%s",
					      cmp->ngated - cmp->insufficient - cmp->missing,
					      cmp->improvements, cmp->improvements == 1 ? "" : "s");
		if (k < n)
			snprintf(buf + k, n - k, ".");
		return;
	}
	snprintf(buf + k, n - k, "no regression; %zu improvement%s, %zu without a significant change "
		 "past the threshold.",
		 cmp->improvements, cmp->improvements == 1 ? "" : "s",
		 cmp->ngated - cmp->improvements - cmp->missing);
}

/* ---- the chart ---- */

static int charted(const struct amd_cmp_row *r)
{
	return r->gated && r->verdict != AMD_MISSING && isfinite(r->ratio);
}

/* Chart rows: the charted rows grouped by metric (in order of first
 * appearance), keeping the comparison's order within a metric. */
static size_t chart_order(const struct amd_comparison *cmp, size_t *idx)
{
	size_t k = 0;
	for (size_t i = 0; i < cmp->nrows; i++) {
		if (!charted(&cmp->rows[i]))
			continue;
		int first = 1;
		for (size_t j = 0; j < i && first; j++)
			first = !(charted(&cmp->rows[j]) &&
				  strcmp(cmp->rows[j].metric, cmp->rows[i].metric) == 0);
		if (!first)
			continue;
		for (size_t j = i; j < cmp->nrows; j++)
			if (charted(&cmp->rows[j]) && strcmp(cmp->rows[j].metric, cmp->rows[i].metric) == 0)
				idx[k++] = j;
	}
	return k;
}

struct verdict_series {
	enum amd_verdict v;
	const char *name;
	int color;
};

static const struct verdict_series verdict_series[] = {
	{AMD_REGRESSION, "regression", COLOR_REGRESSION},
	{AMD_IMPROVEMENT, "improvement", COLOR_IMPROVEMENT},
	{AMD_NO_CHANGE, "no change", COLOR_NO_CHANGE},
	{AMD_INSUFFICIENT, "insufficient data", CHART_GREY},
};

/* The threshold band: ±threshold around 1 when every charted row shares
 * it, else the smallest (the table gives each row's). */
static double band_threshold(const struct amd_comparison *cmp, const size_t *idx, size_t k,
			     int *same)
{
	double t = INFINITY;
	*same = 1;
	for (size_t i = 0; i < k; i++) {
		double ti = cmp->rows[idx[i]].threshold;
		if (i && ti != t && isfinite(t))
			*same = 0;
		t = fmin(t, ti);
	}
	return t;
}

static struct chart *ratio_chart(const struct amd_comparison *cmp, const size_t *idx, size_t k)
{
	char base[300], cand[300];
	side_text(cmp->base_sweep, cmp->base_strategy, base, sizeof base);
	side_text(cmp->cand_sweep, cmp->cand_strategy, cand, sizeof cand);
	struct chart *c = chart_new(CHART_HBARS, "Candidate against baseline", NULL,
				    "ratio of medians candidate / baseline (×); 1 = no change");
	if (!c)
		return NULL;
	int same;
	double t = band_threshold(cmp, idx, k, &same);
	chart_subtitle(c, "%s / %s; whiskers: 95%% interval; shaded: ±%g%%%s", cand, base,
		       t * 100, same ? " threshold" : " (smallest threshold)");
	double *v = malloc(k * sizeof *v), *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
	if (!v || !lo || !hi) {
		free(v), free(lo), free(hi);
		chart_free(c);
		return NULL;
	}
	for (size_t i = 0; i < k; i++) {
		char cfg[160], label[300];
		const struct amd_cmp_row *r = &cmp->rows[idx[i]];
		report_cmp_config(r, cfg, sizeof cfg);
		snprintf(label, sizeof label, "%s · %s", r->metric, cfg);
		chart_group(c, label, NULL);
	}
	for (size_t s = 0; s < sizeof verdict_series / sizeof verdict_series[0]; s++) {
		size_t used = 0;
		for (size_t i = 0; i < k; i++) {
			const struct amd_cmp_row *r = &cmp->rows[idx[i]];
			int mine = r->verdict == verdict_series[s].v;
			used += mine;
			v[i] = mine ? r->ratio : NAN;
			lo[i] = mine && r->ci.valid ? r->ci.lo : NAN;
			hi[i] = mine && r->ci.valid ? r->ci.hi : NAN;
		}
		if (used)
			chart_bars(c, verdict_series[s].name, verdict_series[s].color, 0, v, lo, hi);
	}
	free(v), free(lo), free(hi);
	chart_bars_overlap(c, 1);
	chart_bar_base(c, 1);
	chart_band(c, 1 - t, 1 + t);
	chart_ref(c, 1, NULL);
	return c;
}

int report_comparison(struct report_ctx *c, struct amd_err *err)
{
	if (!c->o->compare)
		return 0;
	struct amd_compare_opts o = *c->o->compare;
	if (!o.cand_sweep)
		o.cand_sweep = c->s->sweep;
	if (!o.axis)
		o.axis = c->o->analysis.axis;
	if (!o.metric)
		o.metric = c->o->analysis.metric;
	struct amd_store *base = c->o->base_store ? c->o->base_store : c->st;
	if (amd_compare(base, c->st, &o, &c->cmp, err) < 0)
		return -1;
	const struct amd_comparison *cmp = c->cmp;
	if (cmp->missing == cmp->nrows)
		return amd_fail(err, "baseline '%s' and candidate '%s' share no configuration",
				o.base_sweep, o.cand_sweep);
	char sentence[2048];
	gate_sentence(cmp, sentence, sizeof sentence);
	struct report_text first = {0};
	report_text_add(&first, "%s", sentence);
	for (size_t i = 0; i < c->findings.n; i++)
		report_text_add(&first, "%s", c->findings.v[i]);
	report_text_free(&c->findings);
	c->findings = first;

	size_t *idx = malloc((cmp->nrows ? cmp->nrows : 1) * sizeof *idx);
	if (!idx)
		return amd_fail(err, "out of memory");
	size_t k = chart_order(cmp, idx);
	if (k) {
		c->cmp_chart.chart = ratio_chart(cmp, idx, k);
		c->cmp_chart.name = strdup("comparison");
		c->cmp_chart.title = strdup("Candidate against baseline");
		c->cmp_chart.caption = strdup(
			"Ratio of medians candidate/baseline per gated metric and configuration, with "
			"its 95% bootstrap interval. Bars start at 1 (no change); the shaded band is the "
			"threshold a change must pass to count. Time ratios above 1 and throughput or "
			"speedup ratios below 1 are worse. Colour: the row's verdict (regression needs a "
			"Holm-adjusted Mann–Whitney p ≤ alpha and a change past the threshold).");
		c->cmp_chart_h = fmax(180, 96 + 19.0 * (double)k);
	}
	free(idx);
	if (k && (!c->cmp_chart.chart || !c->cmp_chart.name || !c->cmp_chart.title ||
		  !c->cmp_chart.caption))
		return amd_fail(err, "out of memory");
	return 0;
}

/* ---- the PDF page ---- */

static void fmt_p(double p, char *buf, size_t n)
{
	if (isfinite(p))
		snprintf(buf, n, "%.3g", p);
	else
		snprintf(buf, n, "–");
}

static void table_row(struct pdf_table *t, const struct amd_cmp_row *r)
{
	char cfg[160], mb[32], mc[32], nb[16], nc[16], ratio[96], p[32], pa[32];
	report_cmp_config(r, cfg, sizeof cfg);
	report_num(r->med_base, mb, sizeof mb);
	report_num(r->med_cand, mc, sizeof mc);
	snprintf(nb, sizeof nb, "%zu", r->nb);
	snprintf(nc, sizeof nc, "%zu", r->nc);
	report_cmp_ratio(r, ratio, sizeof ratio);
	if (r->verdict == AMD_MISSING)
		snprintf(p, sizeof p, "–");
	else
		fmt_p(r->mwu.p, p, sizeof p);
	fmt_p(r->p_adj, pa, sizeof pa);
	const char *row[] = {r->metric, cfg, mb, nb, mc, nc, ratio, p, pa, amd_row_verdict(r)};
	pdf_table_row(t, row);
}

static void rows_table(struct pdf *d, const struct amd_comparison *cmp, int gated)
{
	const char *h[] = {"metric", "configuration", "baseline", "runs", "candidate", "runs",
			   "ratio [95% CI]", "p", "Holm p", "verdict"};
	int right[10] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 0};
	struct pdf_table *t = pdf_table_new(10, h, right, 1, 7.0);
	for (size_t i = 0; i < cmp->nrows; i++)
		if (cmp->rows[i].gated == gated)
			table_row(t, &cmp->rows[i]);
	pdf_table_draw(d, t);
	pdf_table_free(t);
}

/* The distinct notes of the rows (why insufficient, what is missing). */
static void notes(struct pdf *d, const struct amd_comparison *cmp)
{
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct amd_cmp_row *r = &cmp->rows[i];
		int seen = !r->note[0];
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(cmp->rows[j].note, r->note) == 0;
		if (!seen) {
			char buf[400];
			snprintf(buf, sizeof buf, "%s, %s: %s", r->gated ? "gated" : "not gated",
				 amd_row_verdict(r), r->note);
			pdf_bullet(d, buf, 8);
		}
	}
}

void report_comparison_page(struct pdf *d, struct report_ctx *c)
{
	const struct amd_comparison *cmp = c->cmp;
	if (!cmp)
		return;
	pdf_new_page(d);
	pdf_heading(d, "Comparison with the baseline", 1);
	pdf_paragraph(d, c->findings.v[0], 9.5, 0.1);
	if (c->cmp_chart.chart)
		pdf_chart(d, c->cmp_chart.chart, d->w - 2 * d->margin, c->cmp_chart_h,
			  c->cmp_chart.caption);
	char buf[512];
	snprintf(buf, sizeof buf, "Gated rows (%zu, %zu in the Holm family): medians of %s and the "
		 "other metrics, run counts, ratio candidate/baseline with its 95%% bootstrap "
		 "interval, two-sided Mann–Whitney p and Holm-adjusted p.",
		 cmp->ngated, cmp->family, cmp->metric);
	pdf_need(d, 80);
	pdf_paragraph(d, buf, 8.5, 0.25);
	rows_table(d, cmp, 1);
	if (cmp->ngated < cmp->nrows) {
		pdf_need(d, 60);
		pdf_paragraph(d, "Shown, not gated (these fail nothing; 'worse' and 'better' stand "
				 "for a significant change past the threshold):",
			      8.5, 0.25);
		rows_table(d, cmp, 0);
	}
	notes(d, cmp);
}

/* ---- summaries and report.json ---- */

void report_comparison_model(struct tpl *t, const struct report_ctx *c)
{
	const struct amd_comparison *cmp = c->cmp;
	if (!cmp)
		return;
	tpl_set(t, "gate", "1");
	tpl_set(t, "gate_sentence", "%s", c->findings.v[0]);
	tpl_set(t, "gate_result", "%s", report_gate_result(cmp));
	if (c->cmp_chart.chart) {
		tpl_set(t, "gate_chart", "charts/%s", c->cmp_chart.name);
		tpl_set(t, "gate_caption", "%s", c->cmp_chart.caption);
	}
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct amd_cmp_row *r = &cmp->rows[i];
		struct tpl *row = tpl_add(t, "gate_rows");
		char b[160];
		tpl_set(row, "metric", "%s", r->metric);
		report_cmp_config(r, b, sizeof b);
		tpl_set(row, "config", "%s", b);
		report_num(r->med_base, b, sizeof b);
		tpl_set(row, "base", "%s (%zu)", b, r->nb);
		report_num(r->med_cand, b, sizeof b);
		tpl_set(row, "cand", "%s (%zu)", b, r->nc);
		report_cmp_ratio(r, b, sizeof b);
		tpl_set(row, "ratio", "%s", b);
		fmt_p(r->verdict == AMD_MISSING ? NAN : r->mwu.p, b, sizeof b);
		tpl_set(row, "p", "%s", b);
		fmt_p(r->p_adj, b, sizeof b);
		tpl_set(row, "p_holm", "%s", b);
		tpl_set(row, "verdict", "%s", amd_row_verdict(r));
		tpl_set(row, "gated", "%s", r->gated ? "yes" : "no");
	}
}

static cJSON *side_json(const char *sweep, const char *strategy)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "sweep", sweep);
	if (strategy)
		cJSON_AddStringToObject(o, "strategy", strategy);
	return o;
}

cJSON *report_gate_json(const struct report_ctx *c)
{
	const struct amd_comparison *cmp = c->cmp;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "result", report_gate_result(cmp));
	cJSON_AddStringToObject(o, "sentence", c->findings.v[0]);
	cJSON_AddItemToObject(o, "baseline", side_json(cmp->base_sweep, cmp->base_strategy));
	cJSON_AddItemToObject(o, "candidate", side_json(cmp->cand_sweep, cmp->cand_strategy));
	cJSON_AddStringToObject(o, "metric", cmp->metric);
	if (c->cmp_chart.chart) {
		cJSON_AddStringToObject(o, "png", "charts/comparison.png");
		cJSON_AddStringToObject(o, "svg", "charts/comparison.svg");
	}
	cJSON *rows = cJSON_AddArrayToObject(o, "rows");
	for (size_t i = 0; i < cmp->nrows; i++)
		cJSON_AddItemToArray(rows, amd_compare_row_json(&cmp->rows[i]));
	cJSON *s = cJSON_AddObjectToObject(o, "summary");
	cJSON_AddNumberToObject(s, "gated", (double)cmp->ngated);
	cJSON_AddNumberToObject(s, "holm_family", (double)cmp->family);
	cJSON_AddNumberToObject(s, "regressions", (double)cmp->regressions);
	cJSON_AddNumberToObject(s, "improvements", (double)cmp->improvements);
	cJSON_AddNumberToObject(s, "insufficient", (double)cmp->insufficient);
	cJSON_AddNumberToObject(s, "missing", (double)cmp->missing);
	return o;
}
