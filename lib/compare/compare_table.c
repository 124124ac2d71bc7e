/* compare_table.c — the text of a comparison's rows and its tables; see
 * compare_table.h. */
#include "compare_table.h"
#include "selector.h"

#include <stdio.h>
#include <string.h>

#include "num.h"

const char *amd_cmp_side(const char *sweep, const char *strategy, char *buf, size_t n)
{
	if (strategy && !amd_selector_is(sweep))
		snprintf(buf, n, "%s:%s", sweep, strategy);
	else
		snprintf(buf, n, "%s", sweep);
	return buf;
}

void amd_cmp_strategy(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (strcmp(r->strategy, r->cand_strategy) == 0)
		snprintf(buf, n, "%s", r->strategy);
	else
		snprintf(buf, n, "%s→%s", r->strategy, r->cand_strategy);
}

void amd_cmp_config(const struct amd_cmp_row *r, char *buf, size_t n)
{
	char s[256];
	amd_cmp_strategy(r, s, sizeof s);
	snprintf(buf, n, "%s n=%g", s, r->n);
}

void amd_cmp_ratio(const struct amd_cmp_row *r, const char *none, char *buf, size_t n)
{
	if (!amd_num_ok(r->ratio))
		snprintf(buf, n, "%s", none);
	else if (r->ci.valid && r->ci.level > 0)
		snprintf(buf, n, "%.3f [%.3f, %.3f] (%.3g%%)", r->ratio, r->ci.lo, r->ci.hi,
			 100 * r->ci.level);
	else if (r->ci.valid)
		snprintf(buf, n, "%.3f [%.3f, %.3f]", r->ratio, r->ci.lo, r->ci.hi);
	else
		snprintf(buf, n, "%.3f (no CI)", r->ratio);
}

void amd_cmp_cells(const struct amd_cmp_row *r, enum amd_cmp_style style,
		   struct amd_cmp_cells *c)
{
	int text = style == AMD_CMP_TEXT;
	const char *none = text ? "-" : AMD_CELL_NONE, *pf = text ? "%.4g" : "%.3g";
	double p = r->verdict == AMD_MISSING ? NAN : r->mwu.p;
	snprintf(c->n, sizeof c->n, "%g", r->n);
	if (text) {
		amd_cell_or(c->base, sizeof c->base, "%.4g", r->med_base, none);
		amd_cell_or(c->cand, sizeof c->cand, "%.4g", r->med_cand, none);
	} else {
		amd_cell_sig(c->base, sizeof c->base, r->med_base);
		amd_cell_sig(c->cand, sizeof c->cand, r->med_cand);
	}
	snprintf(c->nb, sizeof c->nb, "%zu", r->nb);
	snprintf(c->nc, sizeof c->nc, "%zu", r->nc);
	amd_cmp_ratio(r, none, c->ratio, text ? 80 : sizeof c->ratio);
	amd_cell_or(c->p, sizeof c->p, pf, p, none);
	amd_cell_or(c->p_holm, sizeof c->p_holm, pf, r->p_adj, none);
}

/* ---- tables ---- */

/* A row of the text table; a table of 9 columns does not read the 10th
 * cell ("gated"). */
static void text_row(struct amd_table *t, const struct amd_cmp_row *r)
{
	struct amd_cmp_cells c;
	char strategy[256], mb[64], mc[64];
	amd_cmp_cells(r, AMD_CMP_TEXT, &c);
	amd_cmp_strategy(r, strategy, sizeof strategy);
	snprintf(mb, sizeof mb, "%s (%s)", c.base, c.nb);
	snprintf(mc, sizeof mc, "%s (%s)", c.cand, c.nc);
	const char *cells[] = {r->metric, strategy, c.n, mb, mc, c.ratio, c.p, c.p_holm,
			       amd_row_verdict(r), r->gated ? "yes" : "no"};
	if (amd_table_add(t, cells) == 0 && r->gated && r->verdict == AMD_REGRESSION)
		amd_table_strong(t, 8);
}

struct amd_table *amd_cmp_table_text(const struct amd_comparison *c, int which)
{
	static const char *const h[] = {"metric", "strategy", "n", "baseline (runs)",
					"candidate (runs)", "ratio [95% CI]", "p", "p Holm",
					"verdict", "gated"};
	int all = which == AMD_CMP_ALL;
	struct amd_table *t = amd_table_new(all ? 10 : 9, h);
	if (!t)
		return NULL;
	for (size_t col = 2; col <= 7; col++)
		if (col != 5)
			amd_table_right(t, col);
	for (int gated = 1; gated >= 0; gated--) {
		if (!all && gated != which)
			continue;
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].gated == gated)
				text_row(t, &c->rows[i]);
	}
	return t;
}

static void report_row(struct amd_table *t, const struct amd_cmp_row *r)
{
	struct amd_cmp_cells c;
	char cfg[160];
	amd_cmp_cells(r, AMD_CMP_REPORT, &c);
	amd_cmp_config(r, cfg, sizeof cfg);
	const char *cells[] = {r->metric, cfg, c.base, c.nb, c.cand, c.nc, c.ratio, c.p, c.p_holm,
			       amd_row_verdict(r)};
	amd_table_add(t, cells);
}

struct amd_table *amd_cmp_table_report(const struct amd_comparison *c, int gated)
{
	static const char *const h[] = {"metric", "configuration", "baseline", "runs", "candidate",
					"runs", "ratio [95% CI]", "p", "Holm p", "verdict"};
	struct amd_table *t = amd_table_new(10, h);
	if (!t)
		return NULL;
	for (size_t col = 2; col <= 8; col++)
		amd_table_right(t, col);
	t->elastic = 1;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated == gated)
			report_row(t, &c->rows[i]);
	return t;
}

const struct amd_cmp_row *amd_cmp_next_note(const struct amd_comparison *c, size_t *i,
					    int gated_only)
{
	for (; *i < c->nrows; (*i)++) {
		const struct amd_cmp_row *r = &c->rows[*i];
		if (!r->note[0] || (gated_only && !r->gated))
			continue;
		int seen = 0;
		for (size_t j = 0; j < *i && !seen; j++)
			seen = (!gated_only || c->rows[j].gated) && strcmp(c->rows[j].note, r->note) == 0;
		if (!seen)
			return &c->rows[(*i)++];
	}
	return NULL;
}
