/* compare_bench.h — a comparison in the shapes people already read:
 * benchstat's table (old ± spread, new ± spread, delta or "~", p and run
 * counts, a geometric-mean row per metric over the gated rows) and a CSV
 * of every row's numbers at full precision. Both are tables
 * (lib/core/table.h); cmd/ renders them. */
#ifndef AMD_COMPARE_BENCH_H
#define AMD_COMPARE_BENCH_H

#include "compare.h"
#include "table.h"

/* benchstat's columns: the row ("epoch_time_s ddp n=8"), "old", "new"
 * ("1.112 ± 4%": the median and the half-width of its bootstrap interval
 * relative to it, "± ∞" below 3 runs), "delta" ("+10.00%" when the row
 * is a regression or an improvement, else "~"), and "(p=0.100 n=3+3)"
 * with the Holm-adjusted p in the family, else the row's own. Gated rows
 * only, then one "geomean METRIC" row per metric: the geometric means of
 * the medians and their change. Notes say the rule and the spread. NULL
 * when out of memory. */
struct amd_table *amd_cmp_table_bench(const struct amd_comparison *c);

/* Every row with its numbers: metric, strategy, candidate_strategy, n,
 * gated, direction, baseline_runs, baseline_median, candidate_runs,
 * candidate_median, ratio, ci_lo, ci_hi, p, p_holm, verdict,
 * detectable_change, likely. Empty cells for no value. */
struct amd_table *amd_cmp_table_csv(const struct amd_comparison *c);

#endif
