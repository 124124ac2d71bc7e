/* history_eval.c — the evaluation of `history`'s change points (issue 33
 * item 6; lib/compare/changepoint.c), rerun by `make eval`: generated
 * histories with known truth, each figure printed beside its target.
 *
 *   - reverted regressions: 30 commits, one value per commit with 5%
 *     log-normal noise, +20% from a commit in [6, 18] for 4-10 commits,
 *     then back. A detected change point within 2 commits of a true one
 *     is a hit (each true one matched once); F1 over all histories pooled
 *     (target 0.85: Apache Otava 0.8.0 scores 0.86 on these, its E-Divisive
 *     0.88), and the share of histories with no change point at all;
 *   - A/A: 30 commits, no change: the share with any change point (the
 *     permutation test's level, alpha 0.05);
 *   - delay: a +10% step at commit 15 with 5% noise, the history grown a
 *     commit at a time; the delay is the number of commits from the step
 *     (itself included) until a change point within 1 commit of it is
 *     reported (target: median 3, Otava's);
 *   - `gate --history 20` night after night (lib/compare/history_gate.c):
 *     20 nights of history, then 40 nightly checks, each night the median
 *     of 1 or 3 runs with 5% log-normal noise, alpha 0.05, threshold 5%.
 *     A/A: the share of histories with any false FAIL within 10, 20 and 40
 *     nights (target over 40: <= 10%); a +10% step at night 20 of the 40:
 *     the share caught within 3 nights (the step's night and the 2 after;
 *     target >= 90%), and the share with a false FAIL before it.
 *
 * usage: history_eval [--quick] [--seed S]   (exit 1 when a figure misses
 * its target). Deterministic for a given seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "changepoint.h"
#include "history_gate.h"

#define LEN 30

struct figures {
	size_t tp, detected, truth, none;
	size_t histories;
};

static void noisy(gsl_rng *r, double *x, size_t n, double sigma)
{
	for (size_t i = 0; i < n; i++)
		x[i] *= exp(gsl_ran_gaussian(r, sigma));
}

static size_t hits(const struct amd_change *cp, size_t ncp, const size_t *truth, size_t nt,
		   size_t tol)
{
	size_t tp = 0;
	int used[8] = {0};
	for (size_t i = 0; i < ncp; i++)
		for (size_t t = 0; t < nt; t++)
			if (!used[t] && (cp[i].at + tol >= truth[t] && cp[i].at <= truth[t] + tol)) {
				used[t] = 1;
				tp++;
				break;
			}
	return tp;
}

static int detect(const double *x, size_t n, unsigned long seed, int perms,
		  struct amd_change **cp, size_t *ncp)
{
	struct amd_cp_opts o = {.alpha = 0.05, .permutations = perms, .seed = seed};
	struct amd_err err = {{0}};
	if (amd_edivisive(x, n, &o, cp, ncp, &err) < 0) {
		fprintf(stderr, "history_eval: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static int reverted(gsl_rng *r, size_t histories, int perms, struct figures *f)
{
	*f = (struct figures){.histories = histories};
	for (size_t h = 0; h < histories; h++) {
		double x[LEN];
		size_t s = 6 + gsl_rng_uniform_int(r, 13), len = 4 + gsl_rng_uniform_int(r, 7);
		for (size_t i = 0; i < LEN; i++)
			x[i] = i >= s && i < s + len ? 1.2 : 1.0;
		noisy(r, x, LEN, 0.05);
		struct amd_change *cp;
		size_t ncp, truth[2] = {s, s + len};
		if (detect(x, LEN, 1000 + h, perms, &cp, &ncp) < 0)
			return -1;
		f->tp += hits(cp, ncp, truth, 2, 2);
		f->detected += ncp;
		f->truth += 2;
		f->none += ncp == 0;
		free(cp);
	}
	return 0;
}

static int aa(gsl_rng *r, size_t histories, int perms, size_t *alarms)
{
	*alarms = 0;
	for (size_t h = 0; h < histories; h++) {
		double x[LEN];
		for (size_t i = 0; i < LEN; i++)
			x[i] = 1.0;
		noisy(r, x, LEN, 0.05);
		struct amd_change *cp;
		size_t ncp;
		if (detect(x, LEN, 5000 + h, perms, &cp, &ncp) < 0)
			return -1;
		*alarms += ncp > 0;
		free(cp);
	}
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Median delay of a +10% step at commit 15 (LEN + 1: not found by LEN). */
static int delay(gsl_rng *r, size_t histories, int perms, double *median, double *within3)
{
	size_t *d = malloc(histories * sizeof *d), in3 = 0;
	if (!d)
		return -1;
	for (size_t h = 0; h < histories; h++) {
		double x[LEN];
		for (size_t i = 0; i < LEN; i++)
			x[i] = i >= 15 ? 1.1 : 1.0;
		noisy(r, x, LEN, 0.05);
		d[h] = LEN + 1;
		for (size_t n = 16; n <= LEN && d[h] > LEN; n++) {
			struct amd_change *cp;
			size_t ncp, truth = 15;
			if (detect(x, n, 9000 + h, perms, &cp, &ncp) < 0)
				return free(d), -1;
			if (hits(cp, ncp, &truth, 1, 1))
				d[h] = n - 15;
			free(cp);
		}
		in3 += d[h] <= 3;
	}
	qsort(d, histories, sizeof *d, cmp_size);
	*median = histories % 2 ? (double)d[histories / 2]
				: (d[histories / 2 - 1] + d[histories / 2]) / 2.0;
	*within3 = (double)in3 / (double)histories;
	free(d);
	return 0;
}

/* ---- gate --history, night after night ---- */

#define WARM 20
#define NIGHTS 40

struct gate_figures {
	double aa10, aa20, aa40, caught3, false_before;
};

static void nights(gsl_rng *r, double *x, size_t n, int runs, size_t step_at, double step)
{
	for (size_t i = 0; i < n; i++) {
		double v[3];
		for (int k = 0; k < runs; k++)
			v[k] = (i >= step_at ? 1 + step : 1.0) * exp(gsl_ran_gaussian(r, 0.05));
		x[i] = runs == 1 ? v[0] : fmax(fmin(v[0], v[1]), fmin(fmax(v[0], v[1]), v[2]));
	}
}

/* The first night in [from, to) the gate fails, or to. */
static size_t first_fail(struct amd_history *h, size_t from, size_t to)
{
	for (size_t c = from; c < to; c++) {
		struct amd_history_verdict v;
		struct amd_err err = {{0}};
		if (amd_history_gate(h, c, WARM, 0.05, 0.05, &v, &err) == 0 &&
		    v.result == AMD_GATE_REGRESSION)
			return c;
	}
	return to;
}

static void gate_sim(gsl_rng *r, size_t histories, int runs, struct gate_figures *f)
{
	struct amd_history_group g[WARM + NIGHTS];
	double x[WARM + NIGHTS];
	char by[] = "night", label[] = "n";
	struct amd_history h = {.by = by, .groups = g, .ngroups = WARM + NIGHTS};
	memset(g, 0, sizeof g);
	for (size_t i = 0; i < WARM + NIGHTS; i++)
		g[i].label = label;
	size_t a10 = 0, a20 = 0, a40 = 0, caught = 0, before = 0, s = WARM + NIGHTS / 2;
	for (size_t k = 0; k < histories; k++) {
		nights(r, x, WARM + NIGHTS, runs, WARM + NIGHTS, 0);
		for (size_t i = 0; i < WARM + NIGHTS; i++)
			g[i].median = x[i];
		size_t at = first_fail(&h, WARM, WARM + NIGHTS);
		a10 += at < WARM + 10, a20 += at < WARM + 20, a40 += at < WARM + NIGHTS;
		nights(r, x, WARM + NIGHTS, runs, s, 0.10);
		for (size_t i = 0; i < WARM + NIGHTS; i++)
			g[i].median = x[i];
		before += first_fail(&h, WARM, s) < s;
		caught += first_fail(&h, s, s + 3) < s + 3;
	}
	double n = (double)histories;
	*f = (struct gate_figures){a10 / n, a20 / n, a40 / n, caught / n, before / n};
}

/* ---- a rule on the spread across nights (tried; docs/methods.md) ---- */

/* t of the window's mean log against the history's, with the history's
 * spread across nights (sd of its logs): FAIL when t > the t quantile at
 * level a a night and the window's median is worse by > 5%. sigma > 0:
 * the spread is known (sigma) and the history's mean is 0 (an oracle: no
 * rule that must estimate them can do better). */
static int t_fails(const double *x, size_t c, double a, double sigma)
{
	double m = 0, ss = 0, w = 0, n = WARM;
	const double *hist = x + c - 2 - WARM;
	for (size_t i = 0; i < WARM; i++)
		m += log(hist[i]) / n;
	for (size_t i = 0; i < WARM; i++)
		ss += (log(hist[i]) - m) * (log(hist[i]) - m);
	for (size_t i = c - 2; i <= c; i++)
		w += log(x[i]) / 3;
	if (sigma > 0)
		return w / (sigma / sqrt(3)) > gsl_cdf_ugaussian_Qinv(a);
	double t = (w - m) / (sqrt(ss / (n - 1)) * sqrt(1 / 3.0 + 1 / n));
	double meds[3] = {x[c - 2], x[c - 1], x[c]}, sorted[WARM];
	memcpy(sorted, hist, sizeof sorted);
	gsl_sort(sorted, 1, WARM);
	gsl_sort(meds, 1, 3);
	double ratio = meds[1] / gsl_stats_median_from_sorted_data(sorted, 1, WARM);
	return t > gsl_cdf_tdist_Qinv(a, n - 1) && ratio > 1.05;
}

static size_t t_first_fail(const double *x, size_t from, size_t to, double a, double sigma)
{
	for (size_t c = from; c < to; c++)
		if (t_fails(x, c, a, sigma))
			return c;
	return to;
}

/* The t rule at per-night level a (sigma: the oracle), 1 run a night. */
static void spread_sim(gsl_rng *r, size_t histories, double a, double sigma, double *aa40,
		       double *caught3)
{
	double x[WARM + NIGHTS];
	size_t fa = 0, caught = 0, s = WARM + NIGHTS / 2;
	for (size_t k = 0; k < histories; k++) {
		nights(r, x, WARM + NIGHTS, 1, WARM + NIGHTS, 0);
		fa += t_first_fail(x, WARM, WARM + NIGHTS, a, sigma) < WARM + NIGHTS;
		nights(r, x, WARM + NIGHTS, 1, s, 0.10);
		caught += t_first_fail(x, s, s + 3, a, sigma) < s + 3;
	}
	*aa40 = (double)fa / (double)histories;
	*caught3 = (double)caught / (double)histories;
}

static int line(const char *what, double v, const char *target, int ok)
{
	printf("%-66s %8.3f   %-14s %s\n", what, v, target, ok ? "ok" : "MISSES");
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	int quick = 0;
	unsigned long seed = 20260101UL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: history_eval [--quick] [--seed S]\n");
			return 2;
		}
	}
	size_t n = quick ? 100 : 1000;
	int perms = quick ? 199 : 999;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	struct figures f;
	size_t alarms;
	double med, in3;
	if (reverted(r, n, perms, &f) < 0 || aa(r, n, perms, &alarms) < 0 ||
	    delay(r, n / 2, perms, &med, &in3) < 0)
		return 2;
	struct gate_figures g1, g3;
	gate_sim(r, 2 * n, 3, &g3);
	gate_sim(r, 2 * n, 1, &g1);
	double prec = f.detected ? (double)f.tp / (double)f.detected : 0,
	       rec = (double)f.tp / (double)f.truth, f1 = prec + rec > 0 ? 2 * prec * rec / (prec + rec) : 0,
	       aa_rate = (double)alarms / (double)n, se = sqrt(0.05 * 0.95 / (double)n);
	printf("history change points (E-Divisive means, both boundaries; %zu histories of %d "
	       "commits, %d permutations, seed %lu)\n", n, LEN, perms, seed);
	printf("%-66s %8s   %-14s\n", "figure", "measured", "target");
	int miss = 0;
	miss += line("reverted +20% regression, 5% noise: F1 (within 2 commits)", f1, ">= 0.85 (Otava 0.86)",
		     f1 >= 0.85);
	line("  precision", prec, "", 1);
	line("  recall", rec, "", 1);
	miss += line("  share of histories with no change point", (double)f.none / (double)n,
		     "<= 0.05", (double)f.none / (double)n <= 0.05);
	miss += line("A/A (no change), 5% noise: share with any change point", aa_rate,
		     "<= 0.05 (+2 se)", aa_rate <= 0.05 + 2 * se);
	miss += line("+10% step, 5% noise: median delay (commits, step included)", med,
		     "<= 3 (Otava 3)", med <= 3);
	line("  share found within 3 commits", in3, "", 1);
	printf("\ngate --history %d, night after night (%zu histories of %d + %d nights, alpha 0.05 "
	       "spent at 0.005 a night, threshold 5%%)\n", WARM, 2 * n, WARM, NIGHTS);
	for (int k = 0; k < 2; k++) {
		const struct gate_figures *x = k ? &g1 : &g3;
		int runs = k ? 1 : 3;
		char what[96];
		snprintf(what, sizeof what, "%d run%s a night, 5%% noise: A/A any false FAIL in 10 nights",
			 runs, runs == 1 ? "" : "s");
		line(what, x->aa10, "", 1);
		line("  in 20 nights", x->aa20, "", 1);
		if (k == 0) { /* the targets, less 2 standard errors of the simulation */
			double gse = sqrt(0.1 * 0.9 / (double)(2 * n));
			miss += line("  in 40 nights", x->aa40, "<= 0.10 (+2 se)", x->aa40 <= 0.10 + 2 * gse);
			miss += line("  +10% step caught within 3 nights", x->caught3, ">= 0.90 (-2 se)",
				     x->caught3 >= 0.90 - 2 * gse);
		} else { /* below the bound: reported, not a target (docs/methods.md) */
			line("  in 40 nights", x->aa40, "(<= 0.10)", 1);
			line("  +10% step caught within 3 nights", x->caught3, "(>= 0.90)", 1);
		}
		line("  false FAIL before the step", x->false_before, "", 1);
	}
	printf("\na rule on the spread across nights, 1 run a night (tried, not kept: no level "
	       "meets both targets)\n");
	static const double levels[] = {0.001, 0.002, 0.005, 0.01};
	/* the t rule (spread estimated from the history), then the oracle
	 * (spread and level known: spread_sim's 5% noise) */
	static const struct { const char *name; double known; } rules[] = {
		{"t of 3 nights' mean log, history's sd", 0},
		{"oracle (spread and level known)", 0.05},
	};
	for (size_t k = 0; k < sizeof rules / sizeof *rules; k++)
		for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
			double fa, c3;
			char what[120];
			spread_sim(r, 2 * n, levels[i], rules[k].known, &fa, &c3);
			snprintf(what, sizeof what, "%s, %.3g a night: A/A 40 nights", rules[k].name,
				 levels[i]);
			line(what, fa, "(<= 0.10)", 1);
			line("  +10% step caught within 3 nights", c3, "(>= 0.90)", 1);
		}
	gsl_rng_free(r);
	printf("%d figure%s miss%s the target\n", miss, miss == 1 ? "" : "s", miss == 1 ? "es" : "");
	return miss ? 1 : 0;
}
