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
 * Uncertainty: a wild bootstrap with a fixed seed (mt19937): each
 * resample is the fitted values plus every observation's own residual
 * times a Rademacher sign, in antithetic pairs (issue 33: the pairs and
 * residual bootstraps drew residuals uniformly though the weights
 * differ by orders of magnitude, and 38 of 2,239 estimates fell outside
 * their own interval). The coefficient intervals refit the chosen
 * model: a linear fit's refits are then symmetric about it, so its
 * interval holds it. Prediction intervals also carry the uncertainty
 * of the choice: resamples are shared out among the models as
 * plausible as the chosen one (same number of terms, RSS within the F
 * bound of the chosen one's), each draw adds a centred (antithetic)
 * relative residual to its refitted value, and the interval is joined
 * with that of the chosen model's own draws (the plausible ones can all
 * lie on one side of it). Ranks of one run are still treated as
 * independent repeats (issue 33, item 3: not done). */
#ifndef AMD_REGION_FIT_H
#define AMD_REGION_FIT_H

#include <stddef.h>

#define AMD_RFIT_MAX_TERMS 2
#define AMD_RFIT_PLAUSIBLE 8    /* models the prediction intervals mix */
#define AMD_RFIT_STRIDE (1 + AMD_RFIT_MAX_TERMS) /* doubles per bootstrap draw */
#define AMD_RFIT_CRITERION "leave-one-n-out SMAPE"

struct amd_rfit_opts {
	int resamples;         /* bootstrap resamples (1000 in amdahl scaling; 0: no intervals) */
	unsigned long seed;    /* default 20260101 */
	double level;          /* interval level (default 0.95) */
	double alpha;          /* F-test level of the parsimony rule (default 0.05) */
	double upto;           /* the largest n the model is used for: it must stay
				  above 0 from the smallest measured n up to the larger
				  of upto and 4× the largest measured n */
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
	int residual_boot;     /* 1: one observation at some n, residual bootstrap */
	int nplausible;        /* models the resamples are shared among (chosen first) */
	struct amd_rmodel {
		int nt;
		double i[AMD_RFIT_MAX_TERMS];
		int j[AMD_RFIT_MAX_TERMS];
		int origin;    /* 1: c0 fixed at 0 */
	} plausible[AMD_RFIT_PLAUSIBLE];
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

/* The model's value at n. */
double amd_rfit_value(const struct amd_rfit *f, double n);
/* Resample b's value at n, with its noise draw when noisy. */
double amd_rfit_draw(const struct amd_rfit *f, int b, double n, int noisy);
/* The prediction interval at n at level (percentiles of the noisy
 * draws, each clamped at 0: a time is never negative, and lo <= hi),
 * joined with that of the chosen model's own draws. */
int amd_rfit_interval(const struct amd_rfit *f, double n, double level, double *lo,
		      double *hi);
/* The variance of the model's value at `at` (the fit's weighted
 * residual variance times x'(X'WX)^-1 x) for the observations it was
 * fitted to, with k_add more observations at n_add (k_add 0: none):
 * how much a measurement at n_add would narrow the interval at `at`.
 * NAN when it cannot be computed (no residual degrees of freedom). */
double amd_rfit_pred_var(const struct amd_rfit *f, const double *n, const double *y, size_t m,
			 double at, double n_add, int k_add);
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
