/* history_page.c — `report build --history METRIC --by KEY [--order K]`
 * (history_page.h): amd_history on the reported sweep's runs (or the
 * runs --history-sweep selects), its sentences first among the findings
 * (after the gate's), the history chart (charts_history.h) on a page with
 * the change points and the groups in tables (history_text.h), a section
 * of the summaries and report.json's "history". */
#include "history_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts_history.h"
#include "history_text.h"
#include "pdf.h"
#include "template.h"

/* The chart's height on the page: lower than the other charts', so that
 * 24 groups' table fits under it. */
#define HISTORY_CHART_H 240.0

/* "epoch_time_s by tag.git_commit (24 groups, c00..c23, ddp n=8)". */
static void subject(const struct amd_history *h, char *buf, size_t n)
{
	snprintf(buf, n, "%s by %s (%zu groups in order of %s, %s..%s, %s)", h->metric, h->by,
		 h->ngroups, h->order, h->groups[0].label, h->groups[h->ngroups - 1].label,
		 h->groups[0].config);
}

/* One sentence per change point, or one saying there is none. */
static void sentences(const struct amd_history *h, struct report_text *out)
{
	char subj[600];
	subject(h, subj, sizeof subj);
	if (h->nchanges == 0) {
		double lo = h->groups[0].median, hi = lo;
		for (size_t g = 1; g < h->ngroups; g++) {
			lo = h->groups[g].median < lo ? h->groups[g].median : lo;
			hi = h->groups[g].median > hi ? h->groups[g].median : hi;
		}
		report_text_add(out, "History of %s: no change point (E-Divisive means, permutation "
				"test at alpha %g); the group medians lie between %.4g and %.4g.",
				subj, h->cp.alpha, lo, hi);
		return;
	}
	for (size_t i = 0; i < h->nchanges; i++) {
		const struct amd_history_change *c = &h->changes[i];
		char ci[64];
		amd_history_ratio_ci_text(h, c, ci, sizeof ci);
		report_text_add(out, "History of %s: the change starts at %s — the median of the "
				"runs went from %.4g (%zu runs, %s..%s) to %.4g (%zu runs, %s..%s), "
				"%.1f%% %s: ratio %.3f%s, permutation p %.3g (over every split searched).",
				subj, h->groups[c->group].label, c->before, c->nbefore,
				h->groups[c->from].label, h->groups[c->group - 1].label, c->after,
				c->nafter, h->groups[c->group].label, h->groups[c->to - 1].label,
				100 * (c->ratio > 1 ? c->ratio - 1 : 1 - c->ratio),
				amd_history_direction(h, c), c->ratio, ci, c->p_perm);
	}
}

static const char *const caption =
	"Every run as a grey point at its group's place in the order; the group medians with "
	"their 95% bootstrap intervals joined by a line; each stretch between change points as "
	"a dashed line at the median of its runs, the change labelled with the ratio after/before. "
	"Change points: E-Divisive means with its permutation test, which marks a change in a "
	"history without one with probability at most alpha.";

/* The findings: the gate's sentence (when there is one) first, then the
 * history's, then the rest. */
static int put_first(struct report_ctx *c, struct amd_err *err)
{
	struct report_text all = {0};
	size_t keep = c->cmp ? 1 : 0;
	for (size_t i = 0; i < keep && i < c->findings.n; i++)
		report_text_add(&all, "%s", c->findings.v[i]);
	for (size_t i = 0; i < c->hist_text.n; i++)
		report_text_add(&all, "%s", c->hist_text.v[i]);
	for (size_t i = keep; i < c->findings.n; i++)
		report_text_add(&all, "%s", c->findings.v[i]);
	report_text_free(&c->findings);
	c->findings = all;
	return all.failed ? amd_fail(err, "findings: out of memory") : 0;
}

int report_history(struct report_ctx *c, struct amd_err *err)
{
	if (!c->o->history)
		return 0;
	struct amd_history_opts o = *c->o->history;
	if (!o.select)
		o.select = c->s->sweep;
	if (!o.metric)
		o.metric = c->o->analysis.metric;
	if (amd_history(c->st, &o, &c->hist, err) < 0)
		return -1;
	sentences(c->hist, &c->hist_text);
	if (c->hist_text.failed)
		return amd_fail(err, "history: out of memory");
	c->hist_chart.chart = history_chart(c->hist);
	c->hist_chart.name = strdup("history");
	c->hist_chart.title = strdup("History and change points");
	c->hist_chart.caption = strdup(caption);
	if (chart_failed(c->hist_chart.chart) || !c->hist_chart.name || !c->hist_chart.title ||
	    !c->hist_chart.caption)
		return amd_fail(err, "history chart: out of memory");
	return put_first(c, err);
}

void report_history_free(struct report_ctx *c)
{
	amd_history_free(c->hist);
	report_text_free(&c->hist_text);
	chart_free(c->hist_chart.chart);
	free(c->hist_chart.name);
	free(c->hist_chart.title);
	free(c->hist_chart.caption);
}

/* ---- the PDF page ---- */

/* Per change point: where, both sides' medians with runs and groups,
 * ratio [95% CI], the two p-values and the direction. */
static struct amd_table *changes_table(const struct amd_history *h)
{
	static const char *const hd[] = {"change at", "before (runs, groups)",
					 "after (runs, groups)", "ratio [95% CI]",
					 "permutation p", "direction"};
	struct amd_table *t = amd_table_new(6, hd);
	for (size_t col = 1; col < 5; col++)
		amd_table_right(t, col);
	for (size_t i = 0; t && i < h->nchanges; i++) {
		const struct amd_history_change *c = &h->changes[i];
		char b[96], a[96], r[96], pp[32];
		snprintf(b, sizeof b, "%.4g (%zu, %s..%s)", c->before, c->nbefore,
			 h->groups[c->from].label, h->groups[c->group - 1].label);
		snprintf(a, sizeof a, "%.4g (%zu, %s..%s)", c->after, c->nafter,
			 h->groups[c->group].label, h->groups[c->to - 1].label);
		char ci[64];
		snprintf(r, sizeof r, "%.3f%s", c->ratio, amd_history_ratio_ci_text(h, c, ci, sizeof ci));
		snprintf(pp, sizeof pp, "%.3g", c->p_perm);
		const char *row[] = {h->groups[c->group].label, b, a, r, pp,
				     amd_history_direction(h, c)};
		amd_table_add(t, row);
	}
	return t;
}

static void draw_table(struct pdf *d, struct amd_table *t)
{
	if (t)
		pdf_table_draw(d, t, 7.0);
	amd_table_free(t);
}

void report_history_page(struct pdf *d, struct report_ctx *c)
{
	const struct amd_history *h = c->hist;
	if (!h)
		return;
	char title[400], method[300];
	pdf_new_page(d);
	snprintf(title, sizeof title, "History of %s by %s", h->metric, h->by);
	pdf_heading(d, title, 1);
	for (size_t i = 0; i < c->hist_text.n; i++)
		pdf_paragraph(d, c->hist_text.v[i], 9.5, 0.1);
	pdf_chart(d, c->hist_chart.chart, d->w - 2 * d->margin, HISTORY_CHART_H,
		  c->hist_chart.caption);
	amd_history_method_text(h, method, sizeof method);
	pdf_need(d, 60);
	pdf_paragraph(d, method, 8.5, 0.25);
	if (h->nchanges)
		draw_table(d, changes_table(h));
	pdf_need(d, 80);
	pdf_paragraph(d, "Groups in order: runs, median of the runs and its 95% bootstrap "
			 "interval; the first group after each change is marked.", 8.5, 0.25);
	draw_table(d, amd_history_table(h));
}

/* ---- summaries and report.json ---- */

void report_history_model(struct tpl *t, const struct report_ctx *c)
{
	const struct amd_history *h = c->hist;
	if (!h)
		return;
	char method[300];
	tpl_set(t, "history", "1");
	tpl_set(t, "history_title", "History of %s by %s", h->metric, h->by);
	tpl_set(t, "history_method", "%s", amd_history_method_text(h, method, sizeof method));
	tpl_set(t, "history_caption", "%s", c->hist_chart.caption);
	for (size_t i = 0; i < c->hist_text.n; i++) {
		struct tpl *s = tpl_add(t, "history_text");
		if (s)
			tpl_set(s, "text", "%s", c->hist_text.v[i]);
	}
	for (size_t g = 0; g < h->ngroups; g++) {
		const struct amd_history_group *hg = &h->groups[g];
		struct tpl *r = tpl_add(t, "history_rows");
		if (!r)
			continue;
		tpl_set(r, "group", "%s", hg->label);
		tpl_set(r, "runs", "%zu", hg->nruns);
		tpl_set(r, "median", "%.4g", hg->median);
		if (hg->ci.valid)
			tpl_set(r, "ci", "[%.4g, %.4g]", hg->ci.lo, hg->ci.hi);
		else
			tpl_set(r, "ci", "%s", hg->ci.why ? hg->ci.why : "–");
		tpl_set(r, "change", "%s", amd_history_is_change(h, g) ? "change" : "");
	}
}

cJSON *report_history_json(const struct report_ctx *c)
{
	cJSON *o = amd_history_json(c->hist);
	cJSON *s = cJSON_CreateArray();
	int ok = o && s && cJSON_AddStringToObject(o, "png", "charts/history.png") &&
		 cJSON_AddStringToObject(o, "svg", "charts/history.svg") &&
		 cJSON_AddStringToObject(o, "caption", c->hist_chart.caption);
	for (size_t i = 0; ok && i < c->hist_text.n; i++) {
		cJSON *x = cJSON_CreateString(c->hist_text.v[i]);
		ok = x && cJSON_AddItemToArray(s, x);
		if (!ok)
			cJSON_Delete(x);
	}
	if (ok && cJSON_AddItemToObject(o, "sentences", s))
		return o;
	cJSON_Delete(s);
	cJSON_Delete(o);
	return NULL;
}
