/* compare.h — a candidate sweep against a baseline (docs/design.md,
 * "Comparing"): per metric and configuration (strategy, n) both medians,
 * the ratio of medians candidate/baseline with a bootstrap interval, a
 * two-sided Mann–Whitney U (exact null distribution for small samples
 * without ties, normal approximation with tie and continuity correction
 * otherwise), Holm's correction across the gated rows, and a verdict per
 * row. The gate's verdict on the whole is lib/compare/verdict.h; the
 * JSON, compare_json.h; the tables and cells, compare_table.h. */
#ifndef AMD_COMPARE_H
#define AMD_COMPARE_H

#include <stddef.h>

#include "analysis.h"
#include "config.h"
#include "err.h"
#include "store.h"

#include "significance.h"

/* ---- the comparison ---- */

enum amd_direction { AMD_LOWER_IS_BETTER, AMD_HIGHER_IS_BETTER };

enum amd_verdict {
	AMD_NO_CHANGE,
	AMD_IMPROVEMENT,
	AMD_REGRESSION,
	AMD_INSUFFICIENT, /* the sample sizes cannot reach alpha */
	AMD_MISSING,      /* the configuration is on one side only */
};

const char *amd_verdict_name(enum amd_verdict v);
struct amd_cmp_row;
/* The row's verdict as shown: rows that are not gated say "worse" or
 * "better" instead of regression or improvement (they fail nothing). */
const char *amd_row_verdict(const struct amd_cmp_row *r);
/* The verdict in JSON, one vocabulary for every output (analysis_json.h):
 * "regression", "improvement", "no_change", "insufficient_data" (the
 * sample sizes cannot reach alpha, or one side has no runs: missing).
 * Whether the row is gated is its "gated" key, not its verdict. */
const char *amd_verdict_json(enum amd_verdict v);
const char *amd_direction_name(enum amd_direction d);

struct amd_cmp_row {
	char *metric;
	char *strategy, *cand_strategy; /* baseline's and candidate's strategy */
	double n;
	int gated;               /* judged (counts for the exit code) */
	enum amd_direction dir;
	double threshold, alpha; /* relative change, significance level */
	size_t nb, nc;           /* runs on each side */
	size_t nb_base, nc_base; /* speedup/efficiency rows: runs at the base n (else 0) */
	double *base, *cand;     /* the runs' values */
	double med_base, med_cand, ratio; /* NAN when a side is empty */
	struct amd_ci ci;        /* of the ratio */
	struct amd_mwu mwu;      /* valid when both sides have runs */
	double p_min;            /* smallest attainable p for nb, nc */
	double p_adj;            /* Holm-adjusted p; NAN outside the Holm family */
	enum amd_verdict verdict;
	int runs_needed;         /* per side, when insufficient */
	char note[240];          /* why insufficient / missing, in a sentence */
	double detectable;       /* smallest detectable relative change (detectable.h) */
	int likely;              /* insufficient, interval wholly past the threshold:
				  * 1 likely regression, -1 likely improvement */
};

struct amd_comparison {
	char *base_sweep, *cand_sweep;
	char *base_strategy, *cand_strategy; /* NULL: every strategy, matched by name */
	char *metric;                        /* the time metric (epoch_time_s) */
	size_t nrows;
	struct amd_cmp_row *rows;
	size_t family;      /* gated rows in the Holm family */
	size_t ngated;
	int resamples;
	unsigned long seed;
	double level;
	enum amd_aggregate aggregate; /* med_base/med_cand: median or MLPerf's mean */
	size_t regressions, improvements, insufficient, missing;
	size_t likely_regressions; /* gated insufficient rows (detectable.h) */
};

struct amd_compare_opts {
	const char *base_sweep, *base_strategy;  /* strategy NULL: all */
	const char *cand_sweep, *cand_strategy;
	const char *axis;       /* NULL: world size */
	const char *metric;     /* time metric, default epoch_time_s */
	const struct amd_config *cfg; /* amdahl.yaml, typed: its gate settings; may be NULL */
	double alpha, threshold; /* defaults when cfg says nothing: 0.05, 0.05 */
	int resamples;           /* default 4000 */
	unsigned long seed;      /* default 20260101 */
	double level;            /* default 0.95 */
	enum amd_aggregate aggregate; /* sides reduced by (default: median) */
	const char *const *only_metrics; /* NULL-terminated: gate only these */
	int only_n_set;
	double only_n;           /* compare only configurations with this n */
};

/* Builds the rows from two analysed sweeps; strategies NULL match by name.
 * Reads the gate's settings from o->cfg->gate. */
int amd_compare_stats(const struct amd_sweep_stats *base, const struct amd_sweep_stats *cand,
		      const struct amd_sweep_stats *const *base_extra,
		      const struct amd_sweep_stats *const *cand_extra, size_t nextra,
		      const struct amd_compare_opts *o, struct amd_comparison **out,
		      struct amd_err *err);

/* Analyses both sweeps (each from its own store) and compares them,
 * including the extra metrics amdahl.yaml lists under gate.metrics.
 * Fails when the sweeps share no configuration (every row is on one side
 * only): there is nothing to compare. */
int amd_compare(struct amd_store *base_st, struct amd_store *cand_st,
		const struct amd_compare_opts *o, struct amd_comparison **out,
		struct amd_err *err);

void amd_comparison_free(struct amd_comparison *c);

/* 1 when name is one of the metrics every comparison has (the time
 * metric, throughput, speedup, efficiency, energy, power, utilisation). */
int amd_compare_builtin(const char *name, const char *time_metric);

#endif
