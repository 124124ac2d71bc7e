/* stats_table.c — the row builders of `amdahl stats`' tables; see
 * stats_table.h. Cells: lib/core/table.h ("–" where there is no value). */
#include "stats_table.h"

#include <stdio.h>

#include "num.h"
#include "statistic.h"

const char *amd_stats_ci_cell(char *b, size_t n, const struct amd_ci *ci, const char *f,
			      double stated)
{
	if (!ci->valid) {
		snprintf(b, n, "%s", ci->why ? ci->why : "");
		return b;
	}
	char lo[32], hi[32], own[16] = "";
	if (ci->level > 0 && ci->level < stated - 1e-12)
		snprintf(own, sizeof own, " (%.3g%%)", ci->level * 100);
	snprintf(b, n, "[%s, %s]%s", amd_cell(lo, sizeof lo, f, ci->lo), amd_cell(hi, sizeof hi, f, ci->hi),
		 own);
	return b;
}

/* The registry's statistics (statistic.h) each table shows after its
 * first columns: n, runs, the aggregate with its interval (and, scaling,
 * the speedup with its interval). */
static const char *const scaling_cols[] = {"cv", "efficiency", "karp_flatt", "throughput"};
static const char *const axis_cols[] = {"cv", "throughput", "energy_per_sample_j", "power_w",
					"util_pct"};
static const char *const energy_cols[] = {"energy_epoch_j", "energy_solution_j",
					  "energy_per_sample_j", "power_w", "util_pct"};
#define NCOLS(a) (sizeof a / sizeof a[0])

static void scaling_row(struct amd_table *t, const struct amd_point_stats *p, double stated)
{
	char n[32], runs[16], med[32], ci[64], sp[32], spci[64], sps[100], b[4][32];
	const char *c[4];
	snprintf(runs, sizeof runs, "%zu", p->nruns);
	snprintf(sps, sizeof sps, "%s %s", amd_cell(sp, sizeof sp, "%.2f", p->speedup),
		 p->ci_speedup.valid ? amd_stats_ci_cell(spci, sizeof spci, &p->ci_speedup, "%.2f", stated) : "");
	amd_statistic_cells(scaling_cols, 4, 0, p, b, c);
	const char *row[] = {amd_cell(n, sizeof n, "%g", p->n), runs,
			     amd_cell(med, sizeof med, "%.4g", p->median),
			     amd_stats_ci_cell(ci, sizeof ci, &p->ci, "%.4g", stated),
			     c[0], sps, c[1], c[2], c[3]};
	amd_table_add(t, row);
}

static void axis_row(struct amd_table *t, const struct amd_point_stats *p, double stated)
{
	char n[32], runs[16], med[32], ci[64], b[5][32];
	const char *c[5];
	snprintf(runs, sizeof runs, "%zu", p->nruns);
	amd_statistic_cells(axis_cols, 5, 0, p, b, c);
	const char *row[] = {amd_cell(n, sizeof n, "%g", p->n), runs,
			     amd_cell(med, sizeof med, "%.4g", p->median),
			     amd_stats_ci_cell(ci, sizeof ci, &p->ci, "%.4g", stated),
			     c[0], c[1], c[2], c[3], c[4]};
	amd_table_add(t, row);
}

struct amd_table *amd_stats_table(const struct amd_sweep_stats *s,
				  const struct amd_strategy_stats *st)
{
	const char *agg = amd_aggregate_label(s->aggregate);
	const char *hs[9] = {"n", "runs", agg, "95% CI", NULL, "speedup [95% CI]"};
	const char *ha[9] = {s->axis, "runs", agg, "95% CI"};
	amd_statistic_columns(scaling_cols, 1, 0, &hs[4]);
	amd_statistic_columns(scaling_cols + 1, 3, 0, &hs[6]);
	amd_statistic_columns(axis_cols, NCOLS(axis_cols), 0, &ha[4]);
	struct amd_table *t = amd_table_new(9, s->scaling ? hs : ha);
	if (!t)
		return NULL;
	for (size_t c = 0; c < 9; c++)
		if (c != 3 && c != 5)
			amd_table_right(t, c);
	double below = 1; /* the lowest own level under the stated one */
	int speedup_below = 0;
	for (size_t p = 0; p < st->npoints; p++) {
		const struct amd_ci *c = &st->points[p].ci, *sp = &st->points[p].ci_speedup;
		(s->scaling ? scaling_row : axis_row)(t, &st->points[p], s->level);
		if (c->valid && c->level > 0 && c->level < below && c->level < s->level - 1e-12)
			below = c->level;
		if (s->scaling && sp->valid && sp->level > 0 && sp->level < s->level - 1e-12)
			speedup_below = 1;
	}
	if (below < 1 && s->aggregate == AMD_AGG_MLPERF)
		amd_table_note(t, "a percentage after an interval is its own coverage, below the stated "
			       "%.3g%%: the bootstrap interval of MLPerf's mean covers 73%% with 3 "
			       "runs, 86%% with 4, 89%% with 5, 90%% with 6, 91%% with 7-11 and 92%% with "
			       "12-19; 93-94%% from 20 (simulated, normal and log-normal noise)", s->level * 100);
	else if (below < 1)
		amd_table_note(t, "a percentage after an interval is its own coverage, below the stated "
			       "%.3g%%: with fewer than 6 runs no interval of the median reaches 95%%; "
			       "[min, max] covers the true median exactly "
			       "75%% of the time with 3 runs, 87.5%% with 4, 93.8%% with 5 (order "
			       "statistics, any distribution)", s->level * 100);
	if (speedup_below)
		amd_table_note(t, "a speedup interval with 3 runs on a side covers about 89%%, not "
			       "95%% (bootstrap of medians, simulated with normal and log-normal "
			       "noise): 85–92%% with 3 against 3 to 50, 92%% with 4 against 4; "
			       "the percentage after it is what it covers");
	return t;
}

/* A table of every point of st with row(), when any point has(); all
 * columns right-aligned. */
static struct amd_table *side_table(const struct amd_strategy_stats *st, size_t ncols,
				    const char *const *h,
				    void (*row)(struct amd_table *, const struct amd_point_stats *),
				    int (*has)(const struct amd_point_stats *))
{
	struct amd_table *t = amd_table_new(ncols, h);
	if (!t)
		return NULL;
	for (size_t c = 0; c < ncols; c++)
		amd_table_right(t, c);
	int any = 0;
	for (size_t p = 0; p < st->npoints; p++)
		any |= has(&st->points[p]);
	for (size_t p = 0; any && p < st->npoints; p++)
		row(t, &st->points[p]);
	return t;
}

static int has_energy(const struct amd_point_stats *p)
{
	return amd_num_ok(p->energy_solution_j) || amd_num_ok(p->power_w) ||
	       amd_num_ok(p->util_pct);
}

static void energy_row(struct amd_table *t, const struct amd_point_stats *p)
{
	char n[32], b[5][32];
	const char *row[6] = {amd_cell(n, sizeof n, "%g", p->n)};
	amd_statistic_cells(energy_cols, NCOLS(energy_cols), 0, p, b, &row[1]);
	amd_table_add(t, row);
}

struct amd_table *amd_energy_table(const struct amd_strategy_stats *st)
{
	const char *h[6] = {"n"};
	amd_statistic_columns(energy_cols, NCOLS(energy_cols), 0, &h[1]);
	return side_table(st, 6, h, energy_row, has_energy);
}

static int has_profile(const struct amd_point_stats *p)
{
	return amd_num_ok(p->phase_share[AMD_PHASE_COMPUTE]) || amd_num_ok(p->comp_fraction) ||
	       amd_num_ok(p->comm_share) || amd_num_ok(p->straggler_ns);
}

static void profile_row(struct amd_table *t, const struct amd_point_stats *p)
{
	char n[32], c[32], m[32], me[32], id[32], cs[32], cf[32], sg[32];
	const char *row[] = {amd_cell(n, sizeof n, "%g", p->n),
			     amd_cell_pct(c, sizeof c, "%.1f%%", p->phase_share[AMD_PHASE_COMPUTE]),
			     amd_cell_pct(m, sizeof m, "%.1f%%", p->phase_share[AMD_PHASE_COMM]),
			     amd_cell_pct(me, sizeof me, "%.1f%%", p->phase_share[AMD_PHASE_MEMORY]),
			     amd_cell_pct(id, sizeof id, "%.1f%%", p->phase_share[AMD_PHASE_IDLE]),
			     amd_cell_pct(cs, sizeof cs, "%.1f%%", p->comm_share),
			     amd_cell_pct(cf, sizeof cf, "%.1f%%", p->comp_fraction),
			     amd_cell(sg, sizeof sg, "%.3f", p->straggler_ns / 1e6)};
	amd_table_add(t, row);
}

struct amd_table *amd_profile_table(const struct amd_strategy_stats *st)
{
	static const char *const h[] = {"n", "compute", "comm", "memory", "idle",
					"comm share", "comp fraction", "straggler ms"};
	return side_table(st, 8, h, profile_row, has_profile);
}
