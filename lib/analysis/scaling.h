/* scaling.h — why a sweep stops scaling: a scaling model for every
 * region (region_fit.h) of every strategy, ranked by its share of the
 * step, the n where a growing region overtakes the work that shrinks,
 * the whole extrapolated to untested n from the sum of the region
 * models (next to the Amdahl and USL fits), and which n to measure next.
 *
 * Input: amd_store_region_times (region_times.h), one table of (region,
 * kind, strategy, n, repeat, rank, seconds per step). A region's
 * observations are its per-rank times (self time for operators), one
 * per trace — every rank of every run at each n (a trace without the
 * region counts 0); the bootstrap resamples them within each n. A big
 * sweep (AMD_SCALING_RANK_OBS below) has one observation per run
 * instead, the mean over its ranks, so the runs are resampled. Strong
 * scaling: per-rank time per step. The regions' times
 * overlap across threads (a gloo collective on its own thread runs
 * beside compute) and the overlap changes with n, so their sum is not
 * the step: shares are of that sum (which the step is made of). The
 * whole at a measured n is measured: the step time the profiler
 * measured and the epoch time and efficiency `stats` prints (so the
 * efficiency is exactly 1 at the base n). At an n not measured it is
 * predicted: the step and epoch time measured at the largest measured
 * n below it, times the ratio of the sum of the region models (each
 * clamped at 0) at n to that sum there — the overlap and the epoch/step
 * ratio held at their value at that n, stated as an assumption. Its
 * prediction interval comes from the same ratio draw by draw of the
 * regions' bootstrap, times the step model's relative residuals.
 * Work split: scaling.c (regions,
 * ranking), scaling_whole.c (the whole, the advice), scaling_json.c. */
#ifndef AMD_SCALING_H
#define AMD_SCALING_H

#include <stddef.h>

#include "err.h"
#include "analysis.h"
#include "region_fit.h"
#include "store.h"

/* More rank traces than this at one n, and two runs or more at every n:
 * a region's observations are its runs (the mean over their ranks), not
 * its traces — the ranks of one run share its noise, the run is the
 * repeat the fits' bootstrap resamples. */
#define AMD_SCALING_RANK_OBS 16
#define AMD_SCALING_RANK_OBS_TEXT "16" /* the same, for sentences */
/* Why "what to measure next" predicts no narrowing with one run per n
 * (tests/eval/coverage_eval, 500 sweeps a regime: the prediction from
 * the current models was 0.32-0.52 of the narrowing realised in 5 of the
 * 6 regimes, 1.02 in the sixth (two terms at 1% noise), as the new runs
 * change the chosen model; docs/methods.md). */
#define AMD_SCALING_NO_NARROWING "with one run per n the narrowing new runs bring cannot be" \
	" predicted: they change the chosen model (in simulation the prediction was 0.3-0.5x the" \
	" narrowing realised in 5 of 6 regimes); measure more runs per n first"
/* Why it predicts none with more runs per n unless every region's
 * model is in the regime where the evaluation found the prediction
 * within 10% of the narrowing realised (amd_rfit_narrowing_holds:
 * elsewhere, 3-5 runs per n, 0.2-2.4x; docs/methods.md). */
#define AMD_SCALING_NARROWING_UNSURE "the narrowing new runs bring is predicted only where every" \
	" region's model has one term, with 3 or more runs per n and noise below 2.5% at 95%" \
	" confidence (in simulation within 10% of the narrowing realised there, 0.2-2.4x elsewhere:" \
	" a second, growing term hidden by the noise or resolved by the new runs)"


struct amd_scaling_opts {
	const char *sweep;     /* NULL: the only sweep (or every sweep's traces) */
	const char *strategy;  /* NULL: all */
	const char *kind;      /* NULL: all kinds (the step is never ranked) */
	const char *axis;      /* NULL: world size n; else a size param (weak
				  scaling, scaling_axis.h): "n" is its value */
	double target;         /* n to extrapolate to; 0: 4 × the largest n */
	const double *next;    /* candidate n to measure next; NULL: powers of two */
	size_t nnext;
	int resamples;         /* default 1000 */
	unsigned long seed;    /* default 20260101 */
	double level;          /* default 0.95 */
	/* the sweep's statistics when the caller has them (a report): used
	 * when they are what scaling reads (amd_analysis_is), else computed */
	const struct amd_sweep_stats *analysis;
	/* NULL, or the scan a region list of the sweep already shared
	 * (regions.h's amd_region_share) */
	struct amd_region_share *share;
};

struct amd_scaling_pred {
	double n, value, lo, hi;
};

struct amd_region_model {
	char *name, *kind;
	struct amd_rfit fit;
	const char *growth;        /* "shrinks", "constant", "grows" */
	double *measured;          /* mean seconds per step at each measured n (ns) */
	double measured_max_n;     /* mean seconds per step at the largest n */
	double share_max_n;        /* of the regions' sum at the largest n */
	size_t nshare;             /* 1 to 3: 2×, 4× the largest n and the target, */
	struct amd_scaling_pred share[3]; /* ... distinct and increasing */
	double crossover_n;        /* where it overtakes the shrinking work; NAN: never */
	size_t npred;
	struct amd_scaling_pred *pred; /* seconds per step at the measured n, 2×, 4×, target */
};

/* r's share of the step at n (one of 2×, 4× the largest n, the
 * target); NULL when it has none there. */
const struct amd_scaling_pred *amd_region_model_share(const struct amd_region_model *r, double n);

struct amd_scaling_whole {
	double n;
	struct amd_scaling_pred step, epoch, efficiency; /* measured, or predicted */
	double amdahl_epoch, usl_epoch;                  /* NAN without a fit */
	int measured;              /* 1: a measured n (measured values), 0: predicted */
	int disagree;              /* Amdahl or USL outside the region models' interval */
};

struct amd_scaling_advice {
	double n;                  /* candidate to measure */
	int repeats;               /* repeats measured there in the estimate */
	double narrowing;          /* interval width at the target after / before; NAN
				      with why set when no honest prediction is possible */
	const char *why;           /* NULL, or why narrowing is NAN (static text) */
};

struct amd_scaling_strategy {
	char *strategy;
	size_t nn;
	double *ns;                /* measured n, increasing */
	int repeats;               /* most repeats at one n */
	int per_run;               /* 1: a region's observations are its runs' means over their
				      ranks (more than AMD_SCALING_RANK_OBS traces at some n, two
				      runs or more at every n); 0: one per trace */
	double target;
	struct amd_region_model step;  /* the step itself */
	double *overlap;           /* step / sum of the regions, per measured n */
	double busy_max_n;         /* sum of the regions' times at the largest n */
	size_t nregions;
	struct amd_region_model *regions; /* ranked, largest share first */
	size_t nwhole;
	struct amd_scaling_whole *whole;  /* at the measured n, 2×, 4×, target */
	double epoch_max_n;        /* median epoch time at the largest n, NAN if none */
	size_t nadvice;
	struct amd_scaling_advice *advice; /* best first */
	double noise_cv;           /* run-to-run CV of the epoch time (median over n) */
	int repeats_needed;        /* for ±5% at 95% with that noise */
	char note[256];
};

struct amd_scaling {
	char *sweep;
	const char *axis;      /* the opts' axis (NULL: n) */
	const char *criterion;
	int resamples;
	unsigned long seed;
	double level;
	size_t nstrategies;
	struct amd_scaling_strategy *strategies;
};

/* The models of the sweep's strategies (none when no counted run of
 * the sweep has profiler traces); -1 on a store error, an unknown or
 * ambiguous sweep, or out of memory. */
int amd_scaling(struct amd_store *st, const struct amd_scaling_opts *o,
		struct amd_scaling **out, struct amd_err *err);
void amd_scaling_free(struct amd_scaling *s);

/* scaling_whole.c: the whole and the advice of one strategy, after its
 * regions are fitted; obs are the regions' observations (same order as
 * s->regions), step_obs the step's. */
struct amd_region_obs {
	double *n, *y;
	size_t m;
	const size_t *unit;        /* the run of each observation (NULL: each its own run) */
};
int amd_scaling_whole(struct amd_scaling_strategy *s, const struct amd_region_obs *obs,
		      const struct amd_region_obs *step_obs, struct amd_store *st, const char *sweep, const struct amd_scaling_opts *o,
		      struct amd_err *err);

#endif
