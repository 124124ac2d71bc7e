/* coverage_eval.c — the evaluation of `scaling`'s 95% prediction
 * intervals by regime (issue 33 item 3; lib/analysis/region_fit.c),
 * rerun by `make eval`: generated sweeps with known truth, the coverage
 * of a new measurement at 2× and 4× the largest n printed beside its
 * 93–97% target, MISS where it falls outside.
 *
 * A sweep: n = 1, 2, 4, ..., 32 (6 distinct n, so two-term models
 * compete), R runs per n (1, 3 or 5), each run with n ranks (one trace
 * per rank). A region's true time per step is
 *   one term:  t(n) = 0.002 + 0.4/n                  (shrinking compute)
 *   two terms: t(n) = 0.002 + 0.4/n + 0.004·log2(n)   (+ growing communication)
 * seconds. A run draws one relative noise e_run ~ N(0, s²), s = 1%, 5%
 * or 10%, that all its ranks share; each rank adds its own e_rank ~
 * N(0, (s/4)²): rank value t(n)·(1 + e_run)·(1 + e_rank). The
 * observations are exactly what `scaling` fits (lib/analysis/scaling.c
 * run_units/observe): one per run (the mean over its ranks) when
 * amd_region_runs_rule(AMD_SCALING_RANK_OBS) holds (some n has more
 * than 16 traces and every n at least two runs), else one per rank
 * (with the run each is of: the run is the unit of the intervals). They
 * go to amd_rfit_search_runs with `scaling`'s defaults (1000 resamples, seed
 * 20260101, level 0.95, target 4× the largest n), and the interval is
 * amd_rfit_interval with its low end clamped at 0, as `scaling --json`
 * prints it (scaling_whole.c region_preds). The new measurement at x =
 * 64 and 128 is a new run there: the mean over its x ranks, drawn the
 * same way. Also: the narrowing of the interval at 4x that as many
 * more runs at 2x predict (amd_rfit_pred_var, `scaling`'s "what to
 * measure next") beside the one realised by measuring them and fitting
 * again (mean over sweeps), target: within 10% where scaling prints it
 * (amd_rfit_narrowing_holds: one term, 3+ runs per n, noise below
 * 2.5% at 95% confidence; "(none printed)" and not counted where it
 * prints none), beside the
 * ratio over every sweep (before, every prediction from 2 runs per n
 * was printed); at the end the ratio by what the tool sees and the
 * truth's shape, from which that rule was taken. Beside each coverage, the
 * mean level printed with the interval (amd_rfit_interval_level: what it
 * covers in simulation where that is below 93%); a coverage misses when
 * the interval is labelled 95% and covers outside 93-97%, or is
 * relabelled and covers more than 5 points below its label. At the end:
 * the coverage by the regime the tool sees (amd_rfit_regime), from which
 * region_fit.c's SIMULATED_COVER table was taken (one term and two
 * terms run separately with --terms: the smaller of the two per cell),
 * and the same split by the chosen model's number of terms and the
 * truth's shape.
 *
 * With --reselect B, each sweep is also fitted with B replicates of
 * the model search rerun (amd_rfit_opts.reselect: bootstrap with
 * re-selection, off in amdahl), and under each regime's row a line
 * gives that interval's coverage of the same new runs, its width over
 * the default one's (mean over sweeps) and the CPU of a fit with and
 * without it; the default columns are unchanged (its draws are its own).
 *
 * usage: coverage_eval [--quick] [--seed S] [--sweeps K] [--terms 1|2] [--reselect B]
 * (quick: 20 sweeps a regime; full: 500, ~12 minutes of CPU, about 20
 * times that with --reselect 20; exit 1 when a figure misses its target
 * in the full run). Deterministic for a given seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "region_fit.h"
#include "region_times.h"
#include "scaling.h"

#define NPTS 6
#define MAX_OBS (63 * 5 + 5 * 64) /* ranks over n = 1..32 (5 runs each), 5 new runs at 64 */

static const double NS[NPTS] = { 1, 2, 4, 8, 16, 32 };
static const double AT[2] = { 64, 128 };

struct regime {
	int terms, runs;
	double noise;
};

static double truth(int terms, double n)
{
	return 0.002 + 0.4 / n + (terms == 2 ? 0.004 * log2(n) : 0);
}

/* One run at n: its ranks' values into y (n of them); their mean. */
static double one_run(gsl_rng *r, const struct regime *g, int n, double *y)
{
	double run = 1 + gsl_ran_gaussian(r, g->noise), sum = 0;
	for (int k = 0; k < n; k++) {
		double v = truth(g->terms, n) * run * (1 + gsl_ran_gaussian(r, g->noise / 4));
		if (y)
			y[k] = v;
		sum += v;
	}
	return sum / n;
}

/* One generated sweep into n/y as `scaling` observes it: one
 * observation per run (the mean over its ranks) when
 * amd_region_runs_rule holds, else one per rank, unit[] its run; m set. */
static void sweep(gsl_rng *r, const struct regime *g, double *n, double *y, size_t *unit,
		  size_t *m)
{
	static struct amd_region_trace tr[MAX_OBS];
	static double rank_y[MAX_OBS], run_y[MAX_OBS], run_n[MAX_OBS];
	size_t nt = 0, nr = 0;
	for (int p = 0; p < NPTS; p++)
		for (int u = 0; u < g->runs; u++, nr++) {
			int at = (int)NS[p];
			run_y[nr] = one_run(r, g, at, rank_y + nt);
			run_n[nr] = at;
			for (int k = 0; k < at; k++, nt++) {
				tr[nt] = (struct amd_region_trace){ "s", at, u, (long long)nr, (long long)nt, 0 };
				n[nt] = at;
				unit[nt] = nr;
			}
		}
	if (amd_region_runs_rule(tr, nt, AMD_SCALING_RANK_OBS)) {
		memcpy(n, run_n, nr * sizeof *n);
		memcpy(y, run_y, nr * sizeof *y);
		for (size_t k = 0; k < nr; k++)
			unit[k] = k;
		*m = nr;
	} else {
		memcpy(y, rank_y, nt * sizeof *y);
		*m = nt;
	}
}

/* What one regime measured: new runs inside their interval at AT[a],
 * and the narrowing of the interval at 4x the largest n that measuring
 * `runs` runs at 2x predicts (amd_rfit_pred_var, as `scaling`'s "what
 * to measure next") and realises (the interval of the fit with them). */
struct tally {
	int covered[2], narrowed;
	double predicted, realised, label[2];
	int printed;               /* where amd_rfit_narrowing_holds: scaling prints it */
	int covered_rs[2];         /* --reselect: the same new runs in that fit's interval */
	double width_ratio[2];     /* its width over the default's, summed over sweeps */
	double cpu, cpu_rs;        /* CPU seconds of the default fits and of the reselect ones */
	double pred_printed, real_printed;
};

/* Coverage by the regime the tool sees (amd_rfit_regime), all truths pooled. */
static int class_n[18], class_cov[18];
/* The same by regime, the chosen model's terms and the truth's shape. */
static int terms_n[18][3][2], terms_cov[18][3][2];
/* The narrowing by what the tool sees (runs per n, noise, the chosen
 * model's terms: NARROW_KEY) and the truth's shape. */
#define NARROW_KEY(f) (amd_rfit_regime(f, AT[1]) / 2 * 3 + (f)->nterms)
static int nar_n[27][2];
static double nar_pred[27][2], nar_real[27][2];

static int reselect_b; /* --reselect: replicates of the search rerun (0: off) */

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fit_with(const double *n, const double *y, const size_t *unit, size_t m, int rs,
		    struct amd_rfit *f)
{
	struct amd_rfit_opts o = { 1000, 20260101UL, 0.95, 0.05, AT[1], rs };
	return amd_rfit_search_runs(n, y, unit, m, &o, f);
}

static int fit(const double *n, const double *y, const size_t *unit, size_t m, struct amd_rfit *f)
{
	return fit_with(n, y, unit, m, 0, f);
}

/* The narrowing predicted and realised by g->runs new runs at AT[0]
 * (n, y hold m observations and room for the new runs). */
static int narrowing(gsl_rng *r, const struct regime *g, const struct amd_rfit *f, double *n,
		     double *y, size_t *unit, size_t m, struct tally *t)
{
	double before = amd_rfit_pred_var(f, AT[1], 0.95, 0, 0);
	double after = amd_rfit_pred_var(f, AT[1], 0.95, AT[0], g->runs), lo, hi;
	if (!(before > 0) || !isfinite(after))
		return 0;
	/* the new runs observed as the sweep's: per run when it is per run */
	int per_rank = m > (size_t)(NPTS * g->runs);
	size_t k = m, next = unit[m - 1] + 1;
	for (int u = 0; u < g->runs; u++, next++) {
		double ranks[(int)AT[0]], mean = one_run(r, g, (int)AT[0], ranks);
		for (int q = 0; q < (per_rank ? (int)AT[0] : 1); q++, k++) {
			n[k] = AT[0];
			y[k] = per_rank ? ranks[q] : mean;
			unit[k] = next;
		}
	}
	struct amd_rfit more;
	if (fit(n, y, unit, k, &more) < 0)
		return -1;
	amd_rfit_interval(&more, AT[1], 0.95, &lo, &hi);
	amd_rfit_free(&more);
	if (!isfinite(lo))
		return 0;
	double p = sqrt(after / before), q = (hi - lo) / (2 * sqrt(before));
	t->predicted += p;
	t->realised += q;
	t->narrowed++;
	if (amd_rfit_narrowing_holds(f)) {
		t->printed++;
		t->pred_printed += p;
		t->real_printed += q;
	}
	int key = NARROW_KEY(f);
	if (key >= 0) {
		nar_n[key][g->terms - 1]++;
		nar_pred[key][g->terms - 1] += p;
		nar_real[key][g->terms - 1] += q;
	}
	return 0;
}

/* A coverage figure misses: outside 93-97% when its interval is
 * labelled 95% (mean printed level >= 94.5%), else more than 5 points
 * below the mean level printed beside it (the level is what the
 * interval covers at least, whichever truth shape). */
static int off(double cover, double label)
{
	return label >= 94.5 ? cover < 93 || cover > 97 : cover < label - 5;
}

static int regime_eval(gsl_rng *r, const struct regime *g, int sweeps, struct tally *t)
{
	static double n[MAX_OBS], y[MAX_OBS];
	static size_t unit[MAX_OBS];
	memset(t, 0, sizeof *t);
	for (int s = 0; s < sweeps; s++) {
		size_t m;
		sweep(r, g, n, y, unit, &m);
		struct amd_rfit f, f2;
		double t0 = cpu_now();
		if (fit(n, y, unit, m, &f) < 0)
			return -1;
		double t1 = cpu_now();
		if (reselect_b && fit_with(n, y, unit, m, reselect_b, &f2) < 0) {
			amd_rfit_free(&f);
			return -1;
		}
		t->cpu += t1 - t0;
		t->cpu_rs += reselect_b ? cpu_now() - t1 : 0;
		for (int a = 0; a < 2; a++) {
			double lo, hi, lo2 = NAN, hi2 = NAN;
			if (amd_rfit_interval(&f, AT[a], 0.95, &lo, &hi) < 0) {
				amd_rfit_free(&f);
				return -1;
			}
			if (reselect_b)
				amd_rfit_interval(&f2, AT[a], 0.95, &lo2, &hi2);
			double fresh = one_run(r, g, (int)AT[a], NULL);
			int in = fresh >= lo && fresh <= hi, k = amd_rfit_regime(&f, AT[a]);
			t->covered_rs[a] += fresh >= lo2 && fresh <= hi2;
			t->width_ratio[a] += hi > lo ? (hi2 - lo2) / (hi - lo) : 1;
			t->covered[a] += in;
			t->label[a] += amd_rfit_interval_level(&f, AT[a], 0.95);
			if (k >= 0) {
				class_n[k]++;
				class_cov[k] += in;
				terms_n[k][f.nterms][g->terms - 1]++;
				terms_cov[k][f.nterms][g->terms - 1] += in;
			}
		}
		int rc = narrowing(r, g, &f, n, y, unit, m, t);
		amd_rfit_free(&f);
		if (reselect_b)
			amd_rfit_free(&f2);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int quick = 0, sweeps = 0, only = 0;
	unsigned long seed = 20260101UL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--sweeps") == 0 && i + 1 < argc)
			sweeps = atoi(argv[++i]);
		else if (strcmp(argv[i], "--terms") == 0 && i + 1 < argc)
			only = atoi(argv[++i]);
		else if (strcmp(argv[i], "--reselect") == 0 && i + 1 < argc)
			reselect_b = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: coverage_eval [--quick] [--seed S] [--sweeps K] [--terms 1|2] [--reselect B]\n");
			return 2;
		}
	}
	if (sweeps <= 0)
		sweeps = quick ? 20 : 500;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	printf("scaling: coverage of the 95%% prediction interval of a new run at 2x and 4x the "
	       "largest n,\nand the narrowing of the interval at 4x that R more runs at 2x predict "
	       "(`what to measure next`)\nbeside the narrowing realised (n = 1..32, one observation "
	       "per run, ranks share their run's noise;\n%d sweeps a regime, seed %lu; targets: "
	       "coverage 93-97%% (a relabelled interval: at least its level - 5),\npredicted/realised narrowing 0.9-1.1%s)\n", sweeps, seed,
	       quick ? "; quick: +-5 points of binomial error, MISS only indicative" : "");
	printf("%-6s %-6s %-5s %-18s %-18s %-10s %-7s %-12s\n", "terms", "noise", "runs", "cover at 2x (lvl)",
	       "cover at 4x (lvl)", "all: p/r", "printed", "printed: p/r");
	static const double NOISE[3] = { 0.01, 0.05, 0.10 };
	static const int RUNS[3] = { 1, 3, 5 };
	int miss = 0, total = 0, nar_miss = 0, nar_total = 0, old_miss = 0, old_total = 0;
	for (int t = only ? only : 1; t <= (only ? only : 2); t++)
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++) {
				struct regime g = { t, RUNS[b], NOISE[a] };
				struct tally y;
				if (regime_eval(r, &g, sweeps, &y) < 0) {
					fprintf(stderr, "coverage_eval: out of memory\n");
					return 2;
				}
				double c2 = 100.0 * y.covered[0] / sweeps, c4 = 100.0 * y.covered[1] / sweeps;
				double q_all = y.realised > 0 ? y.predicted / y.realised : NAN;
				double q = y.real_printed > 0 ? y.pred_printed / y.real_printed : NAN;
				double l2 = 100 * y.label[0] / sweeps, l4 = 100 * y.label[1] / sweeps;
				/* scaling prints a narrowing only where amd_rfit_narrowing_holds */
				int m2 = off(c2, l2), m4 = off(c4, l4), none = y.printed == 0;
				int mq = !none && !(q >= 0.9 && q <= 1.1);
				/* before: every prediction from 2 runs per n was printed */
				int was = g.runs >= 2, mq_was = was && !(q_all >= 0.9 && q_all <= 1.1);
				miss += m2 + m4 + mq;
				total += 3 - none;
				nar_miss += mq;
				nar_total += !none;
				old_miss += mq_was;
				old_total += was;
				printf("%-6d %-6s %-5d %5.1f%% (%2.0f%%) %-4s %5.1f%% (%2.0f%%) %-4s %5.2f %-4s %4d %5.2f %s\n",
				       t, a == 0 ? "1%" : a == 1 ? "5%" : "10%", g.runs, c2, l2, m2 ? "MISS" : "",
				       c4, l4, m4 ? "MISS" : "", q_all, mq_was ? "MISS" : was ? "" : "-", y.printed,
				       q, mq ? "MISS" : none ? "(none printed)" : "");
				if (reselect_b)
					printf("       reselect %d: cover %5.1f%% at 2x, %5.1f%% at 4x; width x%.2f, x%.2f;"
					       " CPU %.1f ms a fit (default %.1f ms)\n", reselect_b,
					       100.0 * y.covered_rs[0] / sweeps, 100.0 * y.covered_rs[1] / sweeps,
					       y.width_ratio[0] / sweeps, y.width_ratio[1] / sweeps,
					       1e3 * y.cpu_rs / sweeps, 1e3 * y.cpu / sweeps);
				fflush(stdout);
			}
	gsl_rng_free(r);
	printf("coverage by the regime the tool sees (amd_rfit_regime: runs per n 1 / 2-4 / 5+, noise"
	       " < 2.5%% / < 7.5%% / more, 2x / 4x), all truths pooled:\n");
	for (int k = 0; k < 18; k++)
		printf("  regime %2d: %4d intervals, %s%.3f\n", k, class_n[k], class_n[k] ? "" : "-",
		       class_n[k] ? (double)class_cov[k] / class_n[k] : NAN);
	printf("coverage by regime and the chosen model's terms, each truth shape: covered (intervals)\n");
	for (int k = 0; k < 18; k++)
		for (int c = 0; c < 3; c++)
			if (terms_n[k][c][0] + terms_n[k][c][1])
				printf("  regime %2d terms %d: one-term truth %.3f (%4d)  two-term truth %.3f (%4d)\n",
				       k, c, (double)terms_cov[k][c][0] / terms_n[k][c][0], terms_n[k][c][0],
				       (double)terms_cov[k][c][1] / terms_n[k][c][1], terms_n[k][c][1]);
	printf("narrowing by what the tool sees (runs per n, noise, chosen terms), each truth shape:"
	       " predicted/realised (sweeps)\n");
	for (int k = 0; k < 27; k++)
		if (nar_n[k][0] + nar_n[k][1])
			printf("  runs %d noise %d terms %d: one-term truth %5.2f (%4d)  two-term truth %5.2f (%4d)\n",
			       k / 9, k / 3 % 3, k % 3, nar_pred[k][0] / nar_real[k][0], nar_n[k][0],
			       nar_pred[k][1] / nar_real[k][1], nar_n[k][1]);
	printf("narrowing (pred/real, target 0.9-1.1): %d of %d printed figures outside the target"
	       " (before, every prediction from 2 runs per n printed: %d of %d)\n", nar_miss, nar_total,
	       old_miss, old_total);
	printf("%d of %d figures outside their targets\n", miss, total);
	return miss && !quick ? 1 : 0;
}
