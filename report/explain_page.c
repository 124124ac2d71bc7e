/* explain_page.c — "Where the efficiency went" (explain_page.h): the
 * budget computed once per report (amd_explain), a finding per strategy
 * and a page with a stacked-bar chart per strategy (the shares in points
 * per n), the budget table and the ranks named stragglers. */
#include "explain_page.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "pdf.h"

#define EXPLAIN_CHART_H 200.0
/* A chart with gains is a line shorter (its caption is a line longer),
 * so that the bundled CPU sweep's page still holds both strategies; its
 * legend of 8 entries takes one column, names whole (chart_layout.c) */
#define EXPLAIN_GAINS_H 188.0
#define EXPLAIN_TFONT 7.5

static const char *const words[AMD_EXPLAIN_NPARTS] = {
	"data transfer", "waiting at collectives", "imbalance", "compute that does not shrink",
	"idle time", "other",
};

/* The finding of strategy s: its largest n's largest share. */
static void finding(const struct amd_explain_strategy *s, struct report_text *out)
{
	const struct amd_explain_point *p = &s->points[s->npoints - 1];
	int best = 0;
	for (int c = 1; c < AMD_EXPLAIN_NPARTS; c++)
		if (p->share[c].value > p->share[best].value)
			best = c;
	double lost = (1 - p->efficiency.value) * 100;
	const char *strategy = *s->strategy ? s->strategy : "no strategy";
	if (lost < 0) {
		report_text_add(out, "Where the efficiency went (%s, n = %d, traced steps): none is lost;"
				" the traced steps scale %.1f points better than linear against n = %d.",
				strategy, p->n, -lost, s->base_n);
		return;
	}
	report_text_add(out, "Where the efficiency went (%s, n = %d, traced steps): %.1f of the 100 "
			"points are lost against n = %d, the largest share to %s (%.1f points).",
			strategy, p->n, lost, s->base_n, words[best], p->share[best].value * 100);
}

int report_explain(struct report_ctx *c, struct amd_err *err)
{
	struct amd_explain_opts o = {.sweep = c->s->sweep, .level = 0.95, .alpha = 0.01,
				     .analysis = c->s, .share = c->share, /* read once: prepare's */
				     .scaling = c->charts.limits, /* fitted once: the limits charts' */
				     .colls = c->colls}; /* read once: prepare's */
	struct amd_err why;
	if (amd_explain(c->st, &o, &c->explain, &why) < 0) {
		/* the page is an extra: a store that cannot answer leaves it out */
		c->explain = NULL;
		report_text_add(&c->gaps, "Where the efficiency went: not computed (%s).", why.msg);
		return c->gaps.failed ? amd_fail(err, "findings: out of memory") : 0;
	}
	for (size_t i = 0; i < c->explain->nstrategies; i++)
		if (c->explain->strategies[i].npoints > 1)
			finding(&c->explain->strategies[i], &c->findings);
	return c->findings.failed ? amd_fail(err, "findings: out of memory") : 0;
}

void report_explain_free(struct report_ctx *c)
{
	amd_explain_free(c->explain);
	c->explain = NULL;
}

/* A share below this (points) is a gain the chart draws: -0.0 and
 * rounding noise are not. */
#define EXPLAIN_GAIN_MIN (-0.05)

/* The stacked bars of one strategy: a group per n, a series per part.
 * A part's share below 0 (a gain: e.g. compute that shrank faster than
 * 1/n) is a hatched bar of its own series "PART (gain)", stacked down
 * from the dashed 0 line, the axis saying so. */
static struct chart *budget_chart(const struct amd_explain_strategy *s, int *any)
{
	char title[160];
	snprintf(title, sizeof title, "Where the efficiency went: %s", *s->strategy ? s->strategy : "no strategy");
	double v[AMD_EXPLAIN_NPARTS][64], gain[AMD_EXPLAIN_NPARTS][64];
	int gains[AMD_EXPLAIN_NPARTS] = {0};
	*any = 0;
	size_t np = s->npoints < 64 ? s->npoints : 64;
	for (size_t j = 0; j < np; j++)
		for (int c = 0; c < AMD_EXPLAIN_NPARTS; c++) {
			double x = s->points[j].share[c].value * 100;
			int g = x < EXPLAIN_GAIN_MIN;
			v[c][j] = g ? NAN : x;
			gain[c][j] = g ? x : NAN;
			gains[c] |= g;
			*any |= g;
		}
	struct chart *ch = chart_new(CHART_BARS, title, "world size n",
				     *any ? "points lost (below 0: gained)" : "points of efficiency lost");
	for (size_t j = 0; j < np; j++) {
		char g[16];
		snprintf(g, sizeof g, "%d", s->points[j].n);
		chart_group(ch, g, NULL);
	}
	for (int c = 0; c < AMD_EXPLAIN_NPARTS; c++)
		chart_bars(ch, amd_explain_part_names[c], c == AMD_EXPLAIN_OTHER ? CHART_GREY : c, 0,
			   v[c], NULL, NULL);
	for (int c = 0; c < AMD_EXPLAIN_NPARTS; c++)
		if (gains[c]) {
			char name[64];
			snprintf(name, sizeof name, "%s (gain)", amd_explain_part_names[c]);
			chart_bars(ch, name, c == AMD_EXPLAIN_OTHER ? CHART_GREY : c, 1, gain[c],
				   NULL, NULL);
		}
	if (*any)
		chart_ref(ch, 0, NULL);
	chart_stacked(ch, 1);
	return ch;
}

static struct amd_table *straggler_table(const struct amd_explain_strategy *s)
{
	static const char *const hd[] = {"n", "rank", "last at", "of", "Holm p", "wait caused (rank-ms/step)",
					 "extra work (ms)"};
	struct amd_table *t = amd_table_new(7, hd);
	for (size_t col = 0; col < 7; col++)
		amd_table_right(t, col);
	for (size_t j = 0; j < s->npoints; j++)
		for (size_t r = 0; r < s->points[j].nranks; r++) {
			const struct amd_explain_rank *k = &s->points[j].ranks[r];
			if (!k->straggler)
				continue;
			char b[7][32];
			snprintf(b[0], 32, "%d", s->points[j].n);
			snprintf(b[1], 32, "%d", k->rank);
			snprintf(b[2], 32, "%.0f%%", k->last_share.value * 100);
			snprintf(b[3], 32, "%lld", (long long)k->instances);
			snprintf(b[4], 32, "%.2g", k->p_holm);
			snprintf(b[5], 32, "%.2f", k->wait_caused_s * 1e3);
			snprintf(b[6], 32, "%.2f", k->extra_work_s * 1e3);
			amd_table_add(t, (const char *const[]){b[0], b[1], b[2], b[3], b[4], b[5], b[6]});
		}
	return t;
}

static const char *const caption =
	"The efficiency lost at each n (1 - E of the traced steps against the smallest n) split "
	"into shares of the total rank-time that add up to it: data transfer at collectives (from "
	"the last rank's arrival to the end), waiting for the last rank, imbalance (a rank's "
	"compute above the other ranks' median), compute that does not shrink, idle time and the "
	"rest. Collectives matched across ranks by name and sequence number; communication "
	"overlapped with compute is credited. docs/explain.md has the method.";
static const char *const caption_gains =
	"The efficiency lost at each n (1 - E of the traced steps against the smallest n) split "
	"into shares of the total rank-time that add up to it: data transfer at collectives (from "
	"the last rank's arrival to the end), waiting for the last rank, imbalance (a rank's "
	"compute above the other ranks' median), compute that does not shrink, idle time and the "
	"rest. Collectives matched across ranks by name and sequence number; communication "
	"overlapped with compute is credited. docs/explain.md has the method. Hatched below 0: "
	"a gain (less rank-time than at the smallest n).";

void report_explain_page(struct pdf *d, struct report_ctx *c)
{
	if (!c->explain || c->explain->nstrategies == c->explain->single_n)
		return;
	pdf_new_page(d);
	pdf_heading(d, "Where the efficiency went", 1);
	double w = d->w - 2 * d->margin;
	for (size_t i = 0; i < c->explain->nstrategies; i++) {
		const struct amd_explain_strategy *s = &c->explain->strategies[i];
		if (s->npoints < 2)
			continue; /* one n: nothing to explain */
		int gains = 0;
		struct chart *ch = budget_chart(s, &gains);
		pdf_chart(d, ch, w, gains ? EXPLAIN_GAINS_H : EXPLAIN_CHART_H,
			  gains ? caption_gains : caption);
		chart_free(ch);
		struct amd_table *t = amd_explain_table(s);
		pdf_table_draw(d, t, EXPLAIN_TFONT);
		amd_table_free(t);
		t = straggler_table(s);
		if (amd_table_cell(t, 0, 0)[0]) {
			pdf_space(d, 6);
			pdf_paragraph(d, "Stragglers: ranks that arrive last more often than chance "
				      "(binomial test, Holm, alpha 0.01).", 8.5, 0.2);
			pdf_table_draw(d, t, EXPLAIN_TFONT);
		}
		amd_table_free(t);
		pdf_space(d, 10);
	}
}
