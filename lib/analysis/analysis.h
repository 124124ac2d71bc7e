/* analysis.h — the numbers of a sweep, computed from the store: per run
 * (epoch time after the exclusion rules), per configuration (strategy,
 * n) with spread and intervals, per strategy (speedup, efficiency,
 * Karp–Flatt, Amdahl and USL fits), plus energy, utilisation and
 * trace-derived shares. The report, `stats`, `compare` and `gate` all
 * read this one structure (see docs/design.md). The work is split:
 * analysis.c (the sweep), analysis_run.c (one run), analysis_energy.c
 * (its energy), analysis_points.c (configurations, strategies, fits).
 *
 * Every double is NAN when it cannot be computed (missing data); every
 * interval says whether it is valid and, when not, why. */
#ifndef AMD_ANALYSIS_H
#define AMD_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "err.h"
#include "phase.h"
#include "run.h"
#include "store.h"

struct amd_coll_set; /* store collectives.h */

struct amd_analysis_opts {
	const char *sweep;   /* NULL: the only sweep, or error naming them; a name
	                      * that is no sweep but a selector (selector.h,
	                      * "param.variant=B,n>=4") analyses the runs it picks */
	const char *metric;  /* default "epoch_time_s" */
	const char *axis;    /* NULL: the sweep's own axis, else the world size n;
	                      * "n": the world size (what the table calls n);
	                      * else a numeric param name */
	int keep_first;      /* 1: keep epoch 0 (default 0: drop warm-up) */
	int keep_profiled;   /* 1: keep epochs overlapping a profiler window */
	double mad_k;        /* flag epochs beyond k·MAD (default 3.5); never dropped */
	int resamples;       /* bootstrap resamples (default 4000, at least 2000) */
	unsigned long seed;  /* bootstrap seed (default 20260101) */
	double level;        /* interval level (default 0.95) */
	enum amd_aggregate aggregate; /* a configuration's runs to one value:
	                      * median (default) or MLPerf's rule (aggregate.h) */
	/* NULL, or the sweep's collective set when the caller read it (a
	 * report, for explain too: store collectives.h): the counted runs'
	 * arrival spreads from it, not read again run by run */
	const struct amd_coll_set *colls;
	/* NULL, or exactly the runs to analyse (copied), nruns of them,
	 * which sweep then only labels: the runs of one group of
	 * amd_select_groups (a history's commit), not picked again by
	 * listing and matching every run of the store */
	const struct amd_run_view *runs;
	size_t nruns;
};

struct amd_ci {
	double lo, hi;
	int valid;          /* 0: not computed */
	const char *why;    /* when not valid: e.g. "n=2: no CI" */
	double level;       /* its own exact coverage (an order-statistic interval
	                     * of the median); 0: the level the sweep asked for */
};

struct amd_run_value {
	int64_t run_id;
	char *ext_id, *name;
	int repeat;
	double value;          /* the run's metric (median of kept epochs) */
	int epochs_kept, epochs_total;
	char *excluded;        /* "epoch 0 (warm-up), epoch 2 (profiled)", or "" */
	char *flagged;         /* epochs flagged as outliers by MAD, or "" */
	double throughput;     /* samples/s: total samples over total time */
	double energy_epoch_j; /* mean energy per epoch, per GPU */
	double energy_run_j;   /* energy of the whole run (all GPUs) */
	double power_w, util_pct; /* mean over GPUs and samples */
	int gpu_from_nvsmi;    /* 1: energy/power/util from nvidia-smi samples (the run logged none) */
	/* added by stats: */
	char *strategy;        /* the run's strategy ("" when unknown) */
	double n;              /* the run's axis value (NAN when unknown) */
	int status;            /* enum amd_run_status */
	double samples, time_s; /* kept epochs: samples processed and seconds */
	double energy_kept_j;  /* energy of the kept epochs (all GPUs), NAN if unknown */
	int profiled_rule;     /* 0 none, 1 trace window overlap, 2 run has traces, window unknown: last epoch */
};

struct amd_point_stats {
	char *strategy;
	double n;                 /* the axis value */
	size_t nruns;
	struct amd_run_value *runs;
	size_t nexcluded_runs;    /* runs of this point left out (failed, …) */
	double median;            /* the runs' aggregate: their median, or under
	                           * --aggregate mlperf MLPerf's trimmed mean */
	double mean, sd, cv, min, max;
	struct amd_ci ci;         /* of the aggregate in median */
	double speedup, efficiency, karp_flatt;
	struct amd_ci ci_speedup, ci_efficiency;
	double throughput;        /* aggregated: total samples / total time */
	double energy_epoch_j, energy_solution_j, energy_per_sample_j, power_w, util_pct;
	/* percentile bootstrap over the runs, as ci: of the means (energy per
	 * sample: of Σ energy_kept_j / Σ samples, runs resampled in pairs) */
	struct amd_ci ci_energy_epoch, ci_energy_solution, ci_energy_sample, ci_power;
	double phase_share[AMD_PHASE_COUNT]; /* of the trace window, mean over ranks */
	double comp_fraction;     /* itwinai's computation fraction */
	double comm_share;        /* communication / (compute + communication) */
	double straggler_ns;      /* mean spread of collective arrivals across ranks */
	int has_trace;
	/* a point that pools runs of several configurations (pooled.c): the
	 * first param their run names differ in, its values, the names; ""
	 * and 0 when it pools none. No finding is drawn from such a point. */
	char pooled_param[64], pooled_values[160];
	size_t pooled_names;
	/* added by stats: */
	struct amd_ci ci_mean_t;  /* t-based CI of the mean (mean ± t·sd/√runs) */
};

struct amd_fit {
	int ok;
	char why[160];            /* when !ok: the reason */
	/* Amdahl: T(n) = a + b/n; serial fraction a/(a+b) */
	double a, b, serial_fraction, r2;
	struct amd_ci ci_serial;
	/* USL: X(n) = gamma n / (1 + alpha (n-1) + beta n (n-1)) */
	double alpha, beta, gamma, n_peak;
	int bounded;                  /* fitted under α, β ≥ 0 with a bound active */
	double free_alpha, free_beta; /* the unconstrained fit's; NAN without one */
	char peak_why[160];           /* when n_peak is NAN: why no peak */
};

struct amd_strategy_stats {
	char *strategy;
	double base_n, base_value; /* the smallest n and its median metric */
	size_t npoints;
	struct amd_point_stats *points; /* by increasing n */
	struct amd_fit amdahl, usl;
};

struct amd_sweep_stats {
	char *sweep, *metric, *axis;
	char rules[640];           /* the exclusion rules in a sentence */
	size_t nstrategies;
	struct amd_strategy_stats *strategies;
	size_t nruns_total, nruns_excluded;
	struct amd_run_value *excluded; /* failed / incomplete runs, with why in excluded */
	size_t nexcluded;
	int has_energy, has_traces, has_util;
	size_t ntraces_gpu, ntraces_cpu; /* traces of its runs with device (GPU) activity,
					  * and CPU-only: what the trace shares are of */
	size_t nruns_nvsmi;        /* runs whose GPU figures come from nvidia-smi samples */
	/* added by stats: */
	int higher_is_better;      /* metric direction (throughput: 1; times: 0) */
	int scaling;               /* 1: axis is the world size, speedup computed */
	char note[256];            /* why speedup/fits are absent, or "" */
	int resamples;             /* the options as applied */
	unsigned long seed;
	double level, mad_k;
	int keep_first, keep_profiled;
	enum amd_aggregate aggregate; /* how median was computed */
};

int amd_analyse(struct amd_store *st, const struct amd_analysis_opts *o,
		struct amd_sweep_stats **out, struct amd_err *err);
void amd_sweep_stats_free(struct amd_sweep_stats *s);
/* 1 when s is what amd_analyse gives with options o on the same store
 * snapshot: the same sweep and the same options once defaulted. */
int amd_analysis_is(const struct amd_sweep_stats *s, const struct amd_analysis_opts *o);
/* A run's list of epochs (excluded or flagged: "epoch 3 (NaN), epoch 7
 * (…), …", or a reason holding one, "no epoch left after the rules
 * (…)") for a person: its first `shown` entries, " and N more" and the
 * parentheses the cut left open, in a new string (NULL out of memory);
 * the whole list when it has no more entries than that. The whole list
 * stays in stats --json; a long run's made lines and cells of MBs. */
char *amd_epochs_shown(const char *list, size_t shown);

#endif
