/* comparison.c — `report build --baseline A`: the candidate sweep against
 * a baseline (compare.h, the rows `amdahl compare` prints): the gate's
 * verdict and sentence (lib/compare/verdict.h) on page 1, a chart of the
 * ratio candidate/baseline with its interval per gated row (bars from 1,
 * threshold band shaded, colour by verdict), the comparison page of the
 * PDF with every row in a table (lib/compare/compare_table.h), the
 * summaries' section and report.json's "gate" object (compare_json.h). */
#include "comparison.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_json.h"
#include "compare_json.h"
#include "compare_table.h"
#include "num.h"
#include "pdf.h"
#include "template.h"

/* Okabe–Ito palette indices (report/chart/chart_style.c) per verdict. */
#define COLOR_REGRESSION 3  /* vermillion */
#define COLOR_IMPROVEMENT 2 /* bluish green */
#define COLOR_NO_CHANGE 0   /* blue */

static void side_text(const char *sweep, const char *strategy, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", sweep, strategy ? ":" : "", strategy ? strategy : "");
}

/* ---- the chart ---- */

static int charted(const struct amd_cmp_row *r)
{
	return r->gated && r->verdict != AMD_MISSING && amd_num_ok(r->ratio);
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
		if (i && ti != t && amd_num_ok(t))
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
		amd_cmp_config(r, cfg, sizeof cfg);
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
	amd_gate_verdict(cmp, NULL, &c->gate); /* report build has no --require-all */
	struct report_text first = {0};
	report_text_add(&first, "%s", c->gate.sentence);
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

static void rows_table(struct pdf *d, const struct amd_comparison *cmp, int gated)
{
	struct amd_table *t = amd_cmp_table_report(cmp, gated);
	pdf_table_draw(d, t, 7.0);
	amd_table_free(t);
}

/* The distinct notes of the rows (why insufficient, what is missing). */
static void notes(struct pdf *d, const struct amd_comparison *cmp)
{
	size_t i = 0;
	for (const struct amd_cmp_row *r; (r = amd_cmp_next_note(cmp, &i, 0));) {
		char buf[400];
		snprintf(buf, sizeof buf, "%s, %s: %s", r->gated ? "gated" : "not gated",
			 amd_row_verdict(r), r->note);
		pdf_bullet(d, buf, 8);
	}
}

void report_comparison_page(struct pdf *d, struct report_ctx *c)
{
	const struct amd_comparison *cmp = c->cmp;
	if (!cmp)
		return;
	pdf_new_page(d);
	pdf_heading(d, "Comparison with the baseline", 1);
	pdf_paragraph(d, c->gate.sentence, 9.5, 0.1);
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
	tpl_set(t, "gate_sentence", "%s", c->gate.sentence);
	tpl_set(t, "gate_result", "%s", c->gate.name);
	if (c->cmp_chart.chart) {
		tpl_set(t, "gate_chart", "charts/%s", c->cmp_chart.name);
		tpl_set(t, "gate_caption", "%s", c->cmp_chart.caption);
	}
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct amd_cmp_row *r = &cmp->rows[i];
		struct tpl *row = tpl_add(t, "gate_rows");
		struct amd_cmp_cells cells;
		char cfg[160];
		amd_cmp_cells(r, AMD_CMP_REPORT, &cells);
		amd_cmp_config(r, cfg, sizeof cfg);
		tpl_set(row, "metric", "%s", r->metric);
		tpl_set(row, "config", "%s", cfg);
		tpl_set(row, "base", "%s (%zu)", cells.base, r->nb);
		tpl_set(row, "cand", "%s (%zu)", cells.cand, r->nc);
		tpl_set(row, "ratio", "%s", cells.ratio);
		tpl_set(row, "p", "%s", cells.p);
		tpl_set(row, "p_holm", "%s", cells.p_holm);
		tpl_set(row, "verdict", "%s", amd_row_verdict(r));
		tpl_set(row, "gated", "%s", r->gated ? "yes" : "no");
	}
}

/* report.json's "gate": the verdict and its sentence, then the comparison
 * in its one JSON shape (compare_json.h) with the chart's files between
 * the head and the rows. NULL when out of memory. */
cJSON *report_gate_json(const struct report_ctx *c)
{
	const struct amd_comparison *cmp = c->cmp;
	struct amd_cmp_json_opts w = {0};
	cJSON *o = cJSON_CreateObject();
	int ok = o && cJSON_AddStringToObject(o, "result", amd_gate_result_json(c->gate.result)) &&
		 cJSON_AddStringToObject(o, "sentence", c->gate.sentence) &&
		 amd_comparison_json_head(o, cmp, &w) == 0;
	int chart = c->cmp_chart.chart != NULL;
	ok = ok && amd_json_str(o, "png", chart ? "charts/comparison.png" : NULL) &&
	     amd_json_str(o, "svg", chart ? "charts/comparison.svg" : NULL);
	if (!ok || amd_comparison_json_rows(o, cmp) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
