/* compare_bench.c — benchstat's table and the CSV of a comparison
 * (compare_bench.h). */
#include "compare_bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_table.h"
#include "num.h"
#include "stats.h"

/* "1.112 ± 4%" from the values' aggregate and its interval: for the
 * median the order-statistic interval, with its own exact level after it
 * when that is below the stated one ("± 9% (75%)" for [min, max] of 3
 * runs); for MLPerf's mean the bootstrap, as stats gives it, with the
 * coverage it has at n runs ("± 3% (89%)" for 5). */
static void with_spread(const struct amd_comparison *c, const double *v, size_t n, double med,
			char *buf, size_t size)
{
	if (!amd_num_ok(med)) {
		snprintf(buf, size, "-");
		return;
	}
	struct amd_boot b = {.resamples = c->resamples, .seed = c->seed, .level = c->level,
			     .aggregate = c->aggregate};
	struct amd_interval ci = {0};
	int rc = n < 3 ? -1
		 : c->aggregate == AMD_AGG_MEDIAN ? amd_median_os_ci(v, n, c->level, &ci)
						  : amd_boot_median_ci(v, n, &b, &ci);
	if (rc == 0 && c->aggregate == AMD_AGG_MLPERF && ci.valid && fabs(c->level - 0.95) < 1e-9)
		ci.level = amd_mlperf_boot_coverage(n); /* what it covers (stats.h), as stats says */
	char own[16] = "";
	if (rc == 0 && ci.valid && ci.level > 0 && ci.level < c->level - 1e-12)
		snprintf(own, sizeof own, " (%.3g%%)", 100 * ci.level);
	if (rc == 0 && ci.valid && med != 0)
		snprintf(buf, size, "%.4g ± %.0f%%%s", med,
			 100 * fmax(med - ci.lo, ci.hi - med) / fabs(med), own);
	else
		snprintf(buf, size, "%.4g ± ∞", med);
}

static int changed(const struct amd_cmp_row *r)
{
	return r->verdict == AMD_REGRESSION || r->verdict == AMD_IMPROVEMENT;
}

static void bench_row(struct amd_table *t, const struct amd_comparison *c,
		      const struct amd_cmp_row *r)
{
	char name[400], cfg[300], old[64], new[64], delta[48], pn[96];
	amd_cmp_config(r, cfg, sizeof cfg);
	snprintf(name, sizeof name, "%s %s", r->metric, cfg);
	with_spread(c, r->base, r->nb, r->med_base, old, sizeof old);
	with_spread(c, r->cand, r->nc, r->med_cand, new, sizeof new);
	if (changed(r) && amd_num_ok(r->ratio))
		snprintf(delta, sizeof delta, "%+.2f%%", (r->ratio - 1) * 100);
	else if (r->likely && amd_num_ok(r->ratio))
		snprintf(delta, sizeof delta, "~ likely %+.2f%%", (r->ratio - 1) * 100);
	else
		snprintf(delta, sizeof delta, "~");
	double p = amd_num_ok(r->p_adj) ? r->p_adj : r->mwu.p;
	if (r->verdict == AMD_MISSING)
		snprintf(pn, sizeof pn, "(n=%zu+%zu)", r->nb, r->nc);
	else
		snprintf(pn, sizeof pn, "(p=%.3f n=%zu+%zu)", p, r->nb, r->nc);
	const char *row[] = {name, old, new, delta, pn};
	amd_table_add(t, row);
	if (changed(r))
		amd_table_strong(t, 3);
}

/* One geomean row per metric over its gated rows with both medians > 0. */
static void geomean_rows(struct amd_table *t, const struct amd_comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const char *m = c->rows[i].metric;
		int first = 1;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(c->rows[j].metric, m) != 0 || !c->rows[j].gated;
		if (!c->rows[i].gated || !first)
			continue;
		double lb = 0, lc = 0;
		size_t k = 0;
		for (size_t j = i; j < c->nrows; j++) {
			const struct amd_cmp_row *r = &c->rows[j];
			if (!r->gated || strcmp(r->metric, m) != 0 || !(r->med_base > 0) ||
			    !(r->med_cand > 0))
				continue;
			lb += log(r->med_base);
			lc += log(r->med_cand);
			k++;
		}
		if (!k)
			continue;
		char name[300], old[32], new[32], delta[32], rows[48];
		double gb = exp(lb / (double)k), gc = exp(lc / (double)k);
		snprintf(name, sizeof name, "geomean %s", m);
		snprintf(old, sizeof old, "%.4g", gb);
		snprintf(new, sizeof new, "%.4g", gc);
		snprintf(delta, sizeof delta, "%+.2f%%", (gc / gb - 1) * 100);
		snprintf(rows, sizeof rows, "(%zu row%s)", k, k == 1 ? "" : "s");
		const char *row[] = {name, old, new, delta, rows};
		amd_table_add(t, row);
	}
}

struct amd_table *amd_cmp_table_bench(const struct amd_comparison *c)
{
	static const char *const h[] = {"", "old", "new", "delta", ""};
	struct amd_table *t = amd_table_new(5, h);
	if (!t)
		return NULL;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].gated)
			bench_row(t, c, &c->rows[i]);
	geomean_rows(t, c);
	char base[512], cand[512];
	amd_table_note(t, "old = baseline %s, new = candidate %s; ± is the half-width of the "
		       "%s's %g%% %s interval (∞: fewer than 3 runs; a percentage after it is its "
		       "own coverage, below the stated one: [min, max] of 3 runs covers the "
		       "median 75%% of the time)",
		       amd_cmp_side(c->base_sweep, c->base_strategy, base, sizeof base),
		       amd_cmp_side(c->cand_sweep, c->cand_strategy, cand, sizeof cand),
		       amd_aggregate_label(c->aggregate), c->level * 100,
		       c->aggregate == AMD_AGG_MEDIAN ? "order-statistic" : "bootstrap");
	if (c->aggregate == AMD_AGG_MLPERF)
		amd_table_note(t, "old and new: %s", amd_aggregate_rule(c->aggregate));
	size_t raw = 0; /* rows printed with their raw p: outside the Holm family */
	for (size_t i = 0; i < c->nrows; i++)
		raw += c->rows[i].gated && c->rows[i].verdict != AMD_MISSING &&
		       !amd_num_ok(c->rows[i].p_adj);
	amd_table_note(t, "a delta is shown when p <= alpha and the change passes the threshold "
		       "(asv's rule), else ~ (\"likely\": too few runs for the test, but the "
		       "ratio's interval lies wholly past the threshold); p is Holm-adjusted "
		       "across the gated rows%s",
		       raw ? " that can reach alpha; a row too small to reach it (outside the Holm "
			     "family) shows its raw p" : "");
	return t;
}

static void num(char *buf, size_t n, double v)
{
	amd_cell_or(buf, n, "%.17g", v, "");
}

/* One row; the *_median columns hold agg's value (the "aggregate" column). */
static void csv_row(struct amd_table *t, const struct amd_cmp_row *r, enum amd_aggregate agg)
{
	char n[32], nb[24], nc[24], mb[32], mc[32], ratio[32], lo[32], hi[32], p[32], ph[32],
		det[32];
	snprintf(n, sizeof n, "%g", r->n);
	snprintf(nb, sizeof nb, "%zu", r->nb);
	snprintf(nc, sizeof nc, "%zu", r->nc);
	num(mb, sizeof mb, r->med_base);
	num(mc, sizeof mc, r->med_cand);
	num(ratio, sizeof ratio, r->ratio);
	num(lo, sizeof lo, r->ci.valid ? r->ci.lo : NAN);
	num(hi, sizeof hi, r->ci.valid ? r->ci.hi : NAN);
	num(p, sizeof p, r->verdict == AMD_MISSING ? NAN : r->mwu.p);
	num(ph, sizeof ph, r->p_adj);
	if (isinf(r->detectable))
		snprintf(det, sizeof det, "inf");
	else
		num(det, sizeof det, r->detectable);
	const char *row[] = {r->metric, r->strategy, r->cand_strategy, n, r->gated ? "1" : "0",
			     amd_direction_name(r->dir), nb, mb, nc, mc, ratio, lo, hi, p, ph,
			     amd_row_verdict(r), det,
			     r->likely > 0 ? "regression" : r->likely < 0 ? "improvement" : "",
			     amd_aggregate_name(agg)};
	amd_table_add(t, row);
}

struct amd_table *amd_cmp_table_csv(const struct amd_comparison *c)
{
	static const char *const h[] = {
		"metric", "strategy", "candidate_strategy", "n", "gated", "direction",
		"baseline_runs", "baseline_median", "candidate_runs", "candidate_median", "ratio",
		"ci_lo", "ci_hi", "p", "p_holm", "verdict", "detectable_change", "likely",
		"aggregate"};
	struct amd_table *t = amd_table_new(sizeof h / sizeof h[0], h);
	for (size_t i = 0; t && i < c->nrows; i++)
		csv_row(t, &c->rows[i], c->aggregate);
	return t;
}
