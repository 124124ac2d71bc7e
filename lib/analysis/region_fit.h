/* region_fit.h — one region's scaling model, Extra-P's performance-model
 * normal form: t(n) = c0 + Σ_k c_k · n^i_k · log2(n)^j_k, with i from
 * {-1, -1/2, 0, 1/4, 1/3, 1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2, 2, 3} and j
 * from {0, 1, 2}, or the constant t = c0.
 *
 * Search: every hypothesis is fitted by weighted least squares (GSL) on
 * all observations, weights 1/m_n² (m_n the mean at the observation's
 * n, floored at 1% of the largest), as the noise of times is relative;
 * the criterion is leave-one-n-out cross-validation (all
 * observations at one n left out, predicted from the others) scored by
 * SMAPE, 2|y - p| / (|y| + |p|), averaged within each n, then over n. Parsimony:
 * only models whose term passes an F test (weighted RSS) against the
 * constant at p < 0.05 / 41 (Bonferroni over the hypotheses) compete,
 * and the best of them is kept
 * only when its CV score is lower than that model's — noise never buys
 * a term. A time model must stay above 0 over the range it is used
 * for (the smallest measured n up to amd_rfit_opts.upto, checked at 16
 * points per doubling of n and at upto): a one-term candidate that
 * reaches 0 there is fitted again under c0 >= 0 (the constraint binds:
 * c0 = 0, a fit through the origin, in its cross-validation and
 * bootstrap too); a candidate that still reaches 0 — and any two-term
 * one that does — is rejected and the next best competes (the
 * constant, c0 > 0, always can). One-term models need 3 distinct n. Two-term models need 6:
 * every pair of terms with different exponents of n, each term passing
 * its partial F test at 0.05 / (number of pairs), the best kept when its
 * CV beats the one-term model's.
 *
 * Uncertainty: the run is the independent unit (ranks of one run share
 * its noise: amd_rfit_search_runs says which run each observation is
 * of, and the intervals see the runs' means). Prediction intervals are t
 * intervals on the relative scale: for the chosen model and each model
 * as plausible as it (same number of terms, RSS within the F bound of
 * the chosen one's), value ± t(df) · sqrt(s2 · (value² + x'(X'VX)^-1 x)),
 * s2 the variance of the relative residuals on df = runs - parameters,
 * V = 1 / fitted²; with ranks as observations, a model whose relative
 * RSS over the runs' means is within the F bound of the chosen one's
 * (df = runs - p) is plausible too; the union over those models (issue 33 item 3: the
 * residual and wild bootstraps covered 20-88%). Coefficient intervals
 * and the draws that sums and shares use come from a wild bootstrap
 * with a fixed seed (mt19937): each resample is the fitted values plus
 * every observation's own residual times a Rademacher sign, in
 * antithetic pairs, refitting the plausible models in turn; a linear
 * fit's refits are symmetric about it, so its interval holds it.
 * Beyond the measured n the 95% interval is printed with the level it
 * covers in simulation (amd_rfit_interval_level; tests/eval/coverage_eval)
 * where that is below 93%: two-term truths at 5-10% noise cover 67-86%.
 * Optional (amd_rfit_opts.reselect, off in amdahl; docs/methods.md has
 * the measurement): bootstrap with re-selection — wild-bootstrap
 * replicates (one Rademacher sign per run) with the whole search rerun
 * in each, the models they choose refitted on the data and counted, and
 * the interval joined with the central interval of the mixture of those
 * models' t distributions weighted by their counts (amd_rfit_interval). */
#ifndef AMD_REGION_FIT_H
#define AMD_REGION_FIT_H

#include <stddef.h>

#define AMD_RFIT_MAX_TERMS 2
#define AMD_RFIT_PLAUSIBLE 8    /* models the prediction intervals mix */
#define AMD_RFIT_BAG 16         /* distinct models the reselect replicates keep */
#define AMD_RFIT_STRIDE (1 + AMD_RFIT_MAX_TERMS) /* doubles per bootstrap draw */
#define AMD_RFIT_CRITERION "leave-one-n-out SMAPE"
#define AMD_RFIT_INTERVAL_TEXT "t interval of the runs' relative noise with leverage (each run the" \
	" mean over its ranks), joined over the plausible models"

struct amd_rfit_opts {
	int resamples;         /* bootstrap resamples (1000 in amdahl scaling; 0: no intervals) */
	unsigned long seed;    /* default 20260101 */
	double level;          /* interval level (default 0.95) */
	double alpha;          /* F-test level of the parsimony rule (default 0.05) */
	double upto;           /* the largest n the model is used for: it must stay
				  above 0 from the smallest measured n up to the larger
				  of upto and 4× the largest measured n */
	int reselect;          /* 0 (amdahl's default): off; else that many wild
				  bootstrap replicates with the model search rerun
				  in each (the selection's uncertainty in the
				  prediction interval; tests/eval/coverage_eval
				  --reselect) */
};

struct amd_rterm {
	double i;              /* exponent of n */
	int j;                 /* exponent of log2 n */
	double coef, lo, hi;   /* coefficient and its bootstrap interval */
};

struct amd_rfit {
	int nterms;            /* 0: the constant model */
	struct amd_rterm term[AMD_RFIT_MAX_TERMS];
	double c0, c0_lo, c0_hi;
	int origin;            /* 1: c0 fixed at 0 (the fit under c0 >= 0) */
	double cv, cv_const;   /* CV score of the chosen and the constant model */
	double p_trend;        /* F-test p of the chosen terms (1 for constant) */
	double rel_noise;      /* sd of the relative residuals */
	int distinct_n, nobs;
	int runs;              /* independent runs (the units of the intervals) */
	double max_n;          /* the largest measured n */
	int residual_boot;     /* 1: one observation at some n, residual bootstrap */
	int nplausible;        /* models the resamples are shared among (chosen first) */
	struct amd_rmodel {
		int nt;
		double i[AMD_RFIT_MAX_TERMS];
		int j[AMD_RFIT_MAX_TERMS];
		int origin;    /* 1: c0 fixed at 0 */
		double c[1 + AMD_RFIT_MAX_TERMS]; /* its coefficients (c0, terms) */
		double M[(1 + AMD_RFIT_MAX_TERMS) * (1 + AMD_RFIT_MAX_TERMS)];
		               /* X'VX of its p free coefficients (p × p, row-major),
				  V = 1 / fitted² at each observation */
		double s2;     /* variance of its relative residuals, RSS / df */
		double floor;  /* fitted values floored here in V (1% of the largest) */
		int df;        /* observations (runs) - p */
	} plausible[AMD_RFIT_PLAUSIBLE];
	int nbag;              /* distinct models the reselect replicates chose */
	struct amd_rmodel bag[AMD_RFIT_BAG]; /* each refitted on the data */
	int bag_count[AMD_RFIT_BAG]; /* replicates that chose it */
	int B;                 /* resamples kept */
	double *draws;         /* B × AMD_RFIT_STRIDE refitted coefficients;
				  draw b is of model plausible[b % nplausible] */
	double *noise;         /* B relative residual draws */
};

/* Fits the region's observations y[k] at n[k] (k < m; n >= 1). Returns
 * -1 only when out of memory; too little data gives the constant model.
 * The caller frees with amd_rfit_free. */
int amd_rfit_search(const double *n, const double *y, size_t m,
		    const struct amd_rfit_opts *o, struct amd_rfit *out);
void amd_rfit_free(struct amd_rfit *f);
/* The same with unit[k] the run observation k is of (ranks of one run
 * share its noise): the search and the bootstrap see the observations,
 * the prediction intervals the runs' means (unit NULL: each observation
 * its own run). */
int amd_rfit_search_runs(const double *n, const double *y, const size_t *unit, size_t m,
			 const struct amd_rfit_opts *o, struct amd_rfit *out);

/* The model's value at n. */
double amd_rfit_value(const struct amd_rfit *f, double n);
/* Resample b's value at n, with its noise draw when noisy. */
double amd_rfit_draw(const struct amd_rfit *f, int b, double n, int noisy);
/* The prediction interval of a new run at n at level: for each model
 * as plausible as the chosen one, value ± t(df) · sqrt(s2 · (value² +
 * x'(X'VX)^-1 x)) — the t interval of relative noise with the
 * leverage of n — and their union (the low end clamped at 0: a time is
 * never negative, and lo <= hi). NAN when no resamples were asked for
 * or no model has a residual degree of freedom. */
int amd_rfit_interval(const struct amd_rfit *f, double n, double level, double *lo,
		      double *hi);
/* The regime of the interval at n that tests/eval/coverage_eval
 * simulated: runs per n (0: 1, 1: 2-4, 2: 5 or more), the runs' relative
 * noise about the chosen model (0: < 2.5%, 1: < 7.5%, 2: more) and how
 * far n is (0: up to 2x the largest measured n, 1: beyond); its index
 * (runs · 6 + noise · 2 + far), -1 inside the measured range or without
 * an interval. */
int amd_rfit_regime(const struct amd_rfit *f, double n);
/* What the 95% prediction interval at n covers in simulation (make
 * eval, docs/methods.md): `level` where the simulated coverage of its
 * regime is at least 93% (or the regime is not simulated: another
 * level, inside the measured range), else that coverage — the level to
 * print beside the interval. */
double amd_rfit_interval_level(const struct amd_rfit *f, double n, double level);
/* The squared half-width of the prediction interval at `at` (as
 * amd_rfit_interval gives it, low end clamped at 0) had k_add more runs
 * been measured at n_add (k_add 0: as it is): the same t intervals of
 * the same models, with X'VX and the degrees of freedom grown by the new
 * runs and the noise estimate kept — how much measuring there would
 * narrow the interval. NAN when there is no interval. */
double amd_rfit_pred_var(const struct amd_rfit *f, double at, double level, double n_add,
			 int k_add);
/* 1 when the narrowing amd_rfit_pred_var predicts for new runs is one
 * tests/eval/coverage_eval found within 10% of the narrowing realised
 * (predicted/realised 0.98-1.00 at 3 and 5 runs per n): the chosen
 * model has one term, 3 or more runs per distinct n and the runs'
 * relative noise about it below 2.5% at 95% confidence (its upper
 * bound, s · sqrt(df / chi2(0.05; df)), below 2.5%: a point estimate
 * low by chance — 2 of 500 one-term sweeps at 5% noise — overstated
 * the narrowing, 0.76, as the new runs raise it). Elsewhere the
 * prediction was 0.2-2.4x the realised narrowing (a second, growing term hidden by
 * the noise, or resolved by the new runs) or was not simulated (a
 * constant model, fewer runs); 0 there, and without an interval. */
int amd_rfit_narrowing_holds(const struct amd_rfit *f);
/* The model as text, "0.012 + 0.0031·n^(1/2)·log2(n)" (seconds). */
void amd_rfit_model_text(const struct amd_rfit *f, char *buf, size_t n);
/* The percentile interval at level of the finite values of v[0..B)
 * (reordered; quantiles as gsl_stats_quantile_from_sorted_data); NAN
 * when fewer than half of them are finite. */
void amd_percentile_interval(double *v, size_t B, double level, double *lo, double *hi);
/* n^i · log2(n)^j. */
double amd_rfit_basis(double n, double i, int j);
/* "shrinks", "constant" or "grows": the sign of the model's slope at n. */
const char *amd_rfit_growth(const struct amd_rfit *f, double n);

#endif
