/* report_html.c — report.html: one self-contained page (templates/report.html,
 * its style and script inline, no file or address outside it) with the
 * findings, every chart of the PDF as inline SVG from the same chart
 * model (chart_svg_markup: real text, a target per point, bar and band,
 * a legend that hides series; a chart with log axes also drawn with
 * linear ones, chart_svg_markup_linear, in a <template> the page's
 * switch swaps in; under "What limits scaling" a chart of any region
 * the reader picks, limits_picker.h), the report's tables, sortable, and
 * the rank traces' paths with how to open them in the Perfetto UI
 * (trace_links.h). */
#include "report_html.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "compare_table.h"
#include "report_pdf.h"
#include "report_summary.h"
#include "table.h"
#include "template.h"
#include "trace_links.h"


/* Table t (freed here) as an item of "tables" titled title: the
 * tables section's, or the traces section's when the item has a
 * "section" (the template's one table markup serves both); the item, or
 * NULL when t failed. */
static struct tpl *table_item(struct tpl *m, const char *id, const char *title,
			      struct amd_table *t, int *failed)
{
	if (!amd_table_ok(t)) {
		*failed = 1;
		amd_table_free(t);
		return NULL;
	}
	struct tpl *x = report_tpl_item(m, "tables", failed);
	tpl_set(x, "id", "%s", id);
	tpl_set(x, "title", "%s", title);
	for (size_t c = 0; c < t->ncols; c++) {
		struct tpl *h = report_tpl_item(x, "head", failed);
		tpl_set(h, "text", "%s", t->head[c]);
		tpl_set(h, "align", "%s", t->right[c] ? "num" : "");
	}
	for (size_t r = 0; r < t->nrows; r++) {
		struct tpl *row = report_tpl_item(x, "rows", failed);
		for (size_t c = 0; c < t->ncols; c++) {
			struct tpl *cell = report_tpl_item(row, "cells", failed);
			tpl_set(cell, "text", "%s", amd_table_cell(t, r, c));
			tpl_set(cell, "align", "%s", t->right[c] ? "num" : "");
		}
	}
	amd_table_free(t);
	return x;
}

/* The picker of any region under chart rc (limits_picker.h): its chart,
 * caption and every region's data for the page's script. */
static void picker_item(struct tpl *x, const struct report_chart *rc, double h, int *failed)
{
	struct amd_buf svg = {0};
	char id[170];
	snprintf(id, sizeof id, "pick-%s", rc->name);
	if (chart_svg_markup(rc->pick, REPORT_CHART_W, h, id, &svg) < 0 ||
	    amd_buf_append(&svg, "", 1) < 0) {
		*failed = 1;
		amd_buf_free(&svg);
		return;
	}
	struct tpl *p = report_tpl_item(x, "picker", failed);
	tpl_set(p, "svg", "%s", svg.data);
	tpl_set(p, "data", "%s", rc->pick_json);
	tpl_set(p, "caption", "%s", rc->pick_caption);
	amd_buf_free(&svg);
}

/* Chart rc as an item of "charts", its SVG made h points high. */
static void chart_item(struct tpl *m, const struct report_chart *rc, double h, int *failed)
{
	struct amd_buf svg = {0}, lin = {0};
	char id[160], lin_id[170];
	snprintf(id, sizeof id, "chart-%s", rc->name);
	snprintf(lin_id, sizeof lin_id, "%s-linear", id);
	if (chart_svg_markup(rc->chart, REPORT_CHART_W, h, id, &svg) < 0 ||
	    chart_svg_markup_linear(rc->chart, REPORT_CHART_W, h, lin_id, &lin) < 0 ||
	    amd_buf_append(&svg, "", 1) < 0 || amd_buf_append(&lin, "", 1) < 0) {
		*failed = 1;
		amd_buf_free(&svg);
		amd_buf_free(&lin);
		return;
	}
	struct tpl *x = report_tpl_item(m, "charts", failed);
	tpl_set(x, "name", "%s", rc->name);
	tpl_set(x, "title", "%s", rc->title);
	tpl_set(x, "caption", "%s", rc->caption);
	tpl_set(x, "svg", "%s", svg.data);
	if (lin.len > 1) /* the switch's other drawing: log axes drawn linear */
		tpl_set(x, "svg_linear", "%s", lin.data);
	amd_buf_free(&svg);
	amd_buf_free(&lin);
	if (rc->pick)
		picker_item(x, rc, h, failed);
}

static void charts(struct tpl *m, struct report_ctx *c, int *failed)
{
	if (c->cmp_chart.chart)
		chart_item(m, &c->cmp_chart, c->cmp_chart_h, failed);
	if (c->hist_chart.chart)
		chart_item(m, &c->hist_chart, REPORT_CHART_H, failed);
	for (size_t i = 0; i < c->charts.n; i++)
		chart_item(m, &c->charts.v[i], REPORT_CHART_H, failed);
}

static void tables(struct tpl *m, struct report_ctx *c, int *failed)
{
	const struct amd_sweep_stats *s = c->s;
	if (c->cmp) {
		table_item(m, "table-gated", "Comparison with the baseline: gated rows",
			   amd_cmp_table_report(c->cmp, 1), failed);
		table_item(m, "table-other", "Comparison with the baseline: other rows",
			   amd_cmp_table_report(c->cmp, 0), failed);
	}
	table_item(m, "table-configurations", "Configurations", report_config_table(s), failed);
	for (size_t i = 0; i < c->charts.n; i++)
		if (c->charts.v[i].table) {
			char id[160];
			snprintf(id, sizeof id, "table-%s", c->charts.v[i].name);
			/* the chart keeps its table for the PDF: a copy's cells */
			const struct amd_table *t = c->charts.v[i].table;
			struct amd_table *copy = amd_table_new(t->ncols, (const char *const *)t->head);
			for (size_t r = 0; copy && r < t->nrows; r++)
				amd_table_add(copy, (const char *const *)&t->cells[r * t->ncols]);
			for (size_t k = 0; copy && k < t->ncols; k++)
				if (t->right[k])
					amd_table_right(copy, k);
			table_item(m, id, c->charts.v[i].title, copy, failed);
		}
	table_item(m, "table-runs", "Runs in the statistics", report_runs_table(s), failed);
}

/* The traces of the runs, for the Perfetto UI: the address as text (the
 * page links nowhere) and how to open a file there; none: no section. */
static int traces(struct tpl *m, struct report_ctx *c, int *failed, struct amd_err *err)
{
	int more = 0;
	struct amd_table *t = report_trace_table(c->st, c->s, &more, err);
	if (!t)
		return -1;
	if (t->nrows == 0) {
		amd_table_free(t);
		return 0;
	}
	tpl_set(m, "traces", "1"); /* the page's navigation links the section */
	struct tpl *x = table_item(m, "table-traces", "Traces", t, failed);
	struct tpl *sec = report_tpl_item(x, "section", failed);
	tpl_set(sec, "url", "%s", REPORT_PERFETTO_UI);
	if (more)
		tpl_set(sec, "more", "The first %d traces are listed; `amdahl trace show RUN` lists "
				     "any run's.", REPORT_TRACE_ROWS);
	return 0;
}

/* The page's template model; NULL with err filled when out of memory, a
 * chart failed or the store failed. */
static struct tpl *model(struct report_ctx *c, const char *name, struct amd_err *err)
{
	const struct amd_sweep_stats *s = c->s;
	struct tpl *t = tpl_new();
	int failed = !t;
	tpl_set(t, "sweep", "%s", s->sweep);
	tpl_set(t, "metric", "%s", s->metric);
	tpl_set(t, "axis_label", "%s", report_axis_label(s));
	tpl_set(t, "runs", "%zu", s->nruns_total - s->nruns_excluded);
	tpl_set(t, "runs_left_out", "%zu", s->nruns_excluded);
	tpl_set(t, "generated", "%s", c->generated);
	tpl_set(t, "version", "%s", c->o->version);
	tpl_set(t, "rules", "%s", s->rules);
	report_tpl_texts(t, "findings", &c->findings, &failed);
	report_tpl_texts(t, "gaps", &c->gaps, &failed);
	if (c->gaps.n)
		tpl_set(t, "has_gaps", "1");
	charts(t, c, &failed);
	tables(t, c, &failed);
	if (traces(t, c, &failed, err) < 0) {
		tpl_free(t);
		return NULL;
	}
	if (failed) {
		tpl_free(t);
		amd_fail(err, "%s: out of memory", name);
		return NULL;
	}
	return t;
}

int report_write_html(struct report_ctx *c, const char *name, struct amd_err *err)
{
	struct tpl *t = model(c, name, err);
	if (!t)
		return -1;
	int rc = tpl_render_file("report.html", t, TPL_HTML, c->o->outdir, name, err);
	tpl_free(t);
	return rc;
}
