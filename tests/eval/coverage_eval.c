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
 * (ranks taken as repeats: the case of 1 run per n). They go to
 * amd_rfit_search with `scaling`'s defaults (1000 resamples, seed
 * 20260101, level 0.95, target 4× the largest n), and the interval is
 * amd_rfit_interval with its low end clamped at 0, as `scaling --json`
 * prints it (scaling_whole.c region_preds). The new measurement at x =
 * 64 and 128 is a new run there: the mean over its x ranks, drawn the
 * same way.
 *
 * usage: coverage_eval [--quick] [--seed S] [--sweeps K]
 * (quick: 20 sweeps a regime, ~20 s; full: 500, ~12 minutes; exit 1
 * when a figure misses 93–97% in the full run). Deterministic for a given seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "region_fit.h"
#include "region_times.h"
#include "scaling.h"

#define NPTS 6
#define MAX_OBS (63 * 5) /* ranks over n = 1..32, 5 runs */

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

/* One generated sweep into n/y as `scaling` observes it; m set. */
static void sweep(gsl_rng *r, const struct regime *g, double *n, double *y, size_t *m)
{
	static struct amd_region_trace tr[MAX_OBS];
	static double rank_y[MAX_OBS], rank_n[MAX_OBS], run_y[MAX_OBS], run_n[MAX_OBS];
	size_t nt = 0, nr = 0;
	for (int p = 0; p < NPTS; p++)
		for (int u = 0; u < g->runs; u++) {
			int at = (int)NS[p];
			run_y[nr] = one_run(r, g, at, rank_y + nt);
			run_n[nr] = at;
			for (int k = 0; k < at; k++, nt++) {
				tr[nt] = (struct amd_region_trace){ "s", at, u, (long long)nr,
								    (long long)nt, 0 };
				rank_n[nt] = at;
			}
			nr++;
		}
	int per_run = amd_region_runs_rule(tr, nt, AMD_SCALING_RANK_OBS);
	*m = per_run ? nr : nt;
	memcpy(n, per_run ? run_n : rank_n, *m * sizeof *n);
	memcpy(y, per_run ? run_y : rank_y, *m * sizeof *y);
}

/* covered[a] counts the new measurements at AT[a] inside their interval. */
static int regime_eval(gsl_rng *r, const struct regime *g, int sweeps, int *covered)
{
	static double n[MAX_OBS], y[MAX_OBS];
	covered[0] = covered[1] = 0;
	for (int s = 0; s < sweeps; s++) {
		size_t m;
		sweep(r, g, n, y, &m);
		struct amd_rfit_opts o = { 1000, 20260101UL, 0.95, 0.05, 0 };
		struct amd_rfit fit;
		if (amd_rfit_search(n, y, m, &o, &fit) < 0)
			return -1;
		for (int a = 0; a < 2; a++) {
			double lo, hi;
			if (amd_rfit_interval(&fit, AT[a], 0.95, &lo, &hi) < 0) {
				amd_rfit_free(&fit);
				return -1;
			}
			lo = lo > 0 ? lo : 0;
			double fresh = one_run(r, g, (int)AT[a], NULL);
			covered[a] += fresh >= lo && fresh <= hi;
		}
		amd_rfit_free(&fit);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int quick = 0, sweeps = 0;
	unsigned long seed = 20260101UL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--sweeps") == 0 && i + 1 < argc)
			sweeps = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: coverage_eval [--quick] [--seed S] [--sweeps K]\n");
			return 2;
		}
	}
	if (sweeps <= 0)
		sweeps = quick ? 20 : 500;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	printf("scaling: coverage of the 95%% prediction interval of a new run at 2x and 4x the "
	       "largest n\n(n = 1..32, ranks share their run's noise; %d sweeps a regime, seed %lu; "
	       "target 93-97%%%s)\n", sweeps, seed,
	       quick ? "; quick: +-5 points of binomial error, MISS only indicative" : "");
	printf("%-6s %-6s %-5s %-24s %-14s %-14s %s\n", "terms", "noise", "runs", "observations",
	       "at 2x", "at 4x", "target");
	static const double NOISE[3] = { 0.01, 0.05, 0.10 };
	static const int RUNS[3] = { 1, 3, 5 };
	int miss = 0, total = 0;
	for (int t = 1; t <= 2; t++)
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++) {
				struct regime g = { t, RUNS[b], NOISE[a] };
				int cov[2];
				if (regime_eval(r, &g, sweeps, cov) < 0) {
					fprintf(stderr, "coverage_eval: out of memory\n");
					return 2;
				}
				double c2 = 100.0 * cov[0] / sweeps, c4 = 100.0 * cov[1] / sweeps;
				int m2 = c2 < 93 || c2 > 97, m4 = c4 < 93 || c4 > 97;
				miss += m2 + m4;
				total += 2;
				printf("%-6d %-6s %-5d %-24s %6.1f%% %-6s %6.1f%% %-6s 93-97%%\n", t,
				       a == 0 ? "1%" : a == 1 ? "5%" : "10%", g.runs,
				       g.runs >= 2 ? "one per run" : "one per rank (repeats)", c2,
				       m2 ? "MISS" : "", c4, m4 ? "MISS" : "");
				fflush(stdout);
			}
	gsl_rng_free(r);
	printf("%d of %d figures outside 93-97%%\n", miss, total);
	return miss && !quick ? 1 : 0;
}
