/* statistic.h — the statistic registry: every per-configuration statistic
 * amdahl computes is described here once — its JSON key, its name as a
 * comparison row, its unit, which direction is better, how its interval
 * is made and whether the gate judges it by default — with the accessors
 * that read it from a point and from one run. The stats JSON
 * (analysis_json.c), the comparison rows (lib/compare/compare.c) and the
 * tables' headings iterate over amd_statistics[] instead of restating
 * them. Adding a statistic: its value in struct amd_point_stats (and, to
 * compare it, struct amd_run_value), then one row in statistic.c
 * (docs/design.md, "Add a statistic"). */
#ifndef AMD_STATISTIC_H
#define AMD_STATISTIC_H

#include <stddef.h>

#include "analysis.h"

/* Which way is better. */
enum amd_better {
	AMD_BETTER_NEITHER,  /* a spread or a description: no direction */
	AMD_BETTER_LOWER,
	AMD_BETTER_HIGHER,
	AMD_BETTER_AS_METRIC, /* as the analysed metric: lower for a time, higher for a rate */
};

/* How its interval is made (every one at the sweep's level). */
enum amd_interval_rule {
	AMD_INTERVAL_NONE,
	AMD_INTERVAL_BOOT_AGGREGATE, /* percentile bootstrap of the runs' aggregate */
	AMD_INTERVAL_T_MEAN,         /* mean ± t·sd/√runs */
	AMD_INTERVAL_BOOT_RATIO,     /* bootstrap of the base point over this one (speedup) */
	AMD_INTERVAL_BOOT_SCALED,    /* the speedup's bootstrap, scaled by base n / n */
	AMD_INTERVAL_BOOT_MEAN,      /* percentile bootstrap of the runs' mean or ratio of sums */
};

/* What the gate does with it by default (amdahl.yaml's gate.metrics and
 * --only change it per comparison). */
enum amd_gate_rule {
	AMD_GATE_NOT_COMPARED, /* no comparison row */
	AMD_GATE_SHOWN,        /* a row, not gated unless amdahl.yaml names it */
	AMD_GATE_GATED,        /* a gated row */
};

/* How a table shows it: its heading and its cell. */
struct amd_stat_column {
	const char *label; /* the heading; NULL: no table shows it here */
	const char *fmt;   /* printf format of the cell; NULL: amd_cell_sig */
	int pct;           /* 1: the value is a fraction shown ×100 (amd_cell_pct) */
};

struct amd_statistic {
	const char *key;          /* its key in a point's JSON; NULL: none (a run's only) */
	const char *row;          /* its name as a comparison row; NULL: not compared;
				   * "" : the analysed metric's own name */
	const char *unit;         /* "" when it has none; "metric": the analysed metric's */
	enum amd_better better;
	enum amd_interval_rule interval;
	const char *interval_key; /* its interval's JSON key beside it; NULL: none */
	enum amd_gate_rule gate;
	/* 1: a scaling statistic (speedup): a row only where both sides scale
	 * from the same base n and the metric is a time, gated (if its rule
	 * gates) only on the world-size axis with several n on both sides */
	int scaling;
	/* its value at a point (NAN when unknown); NULL: not a point statistic */
	double (*point)(const struct amd_point_stats *p);
	/* its interval at a point; NULL when interval is AMD_INTERVAL_NONE */
	const struct amd_ci *(*point_ci)(const struct amd_point_stats *p);
	/* one run's value, for comparisons (NAN when unknown); NULL: not compared */
	double (*run)(const struct amd_strategy_stats *s, const struct amd_point_stats *p,
		      const struct amd_run_value *r);
	struct amd_stat_column term;   /* `amdahl stats`' tables (stats_table.c) */
	struct amd_stat_column report; /* the report's tables (report/report_pdf.c) */
};

/* The registry, in the order comparisons list their rows and the JSON its
 * keys. */
extern const struct amd_statistic amd_statistics[];
extern const size_t amd_nstatistics;

/* The row with this JSON key, NULL when none. */
const struct amd_statistic *amd_statistic_by_key(const char *key);
/* The cell of column c for value v into b[n] ("–" when v is unknown); b. */
const char *amd_statistic_cell(const struct amd_stat_column *c, double v, char *b, size_t n);
/* The headings and cells of the statistics keys[0..k) at point p, for a
 * table of the terminal (report 0) or of the report (report 1): heads[i]
 * and cells[i] (each cell in b[i], 32 bytes). Every key is a registry
 * row with a point value. */
void amd_statistic_columns(const char *const *keys, size_t k, int report,
			   const char **heads);
void amd_statistic_cells(const char *const *keys, size_t k, int report,
			 const struct amd_point_stats *p, char (*b)[32], const char **cells);

#endif
