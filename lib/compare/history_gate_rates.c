/* history_gate_rates.c — the gate's false-FAIL and detection rates at the
 * history's own spread across groups, by a seeded simulation of the rule
 * itself (history_gate_rates.h). */
#include "history_gate_rates.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKS 40
#define SEED 20260101UL

/* The median absolute deviation of the logs of v's history, scaled to a
 * normal sd (1 / Φ⁻¹(3/4) ≈ 1.4826). */
static double spread_of(const struct amd_history *h, const struct amd_history_verdict *v)
{
	double *x = malloc(v->n * sizeof *x), *w = malloc(v->n * sizeof *w);
	double s = NAN;
	if (x && w) {
		for (size_t i = 0; i < v->n; i++)
			x[i] = log(h->groups[v->first + i].median);
		s = gsl_stats_mad0(x, 1, v->n, w) / gsl_cdf_ugaussian_Pinv(0.75);
	}
	free(x);
	free(w);
	return s;
}

struct sim {
	struct amd_history h;
	const struct amd_history_verdict *v;
	gsl_rng *rng;
	double sigma, worse; /* a worse step's factor: 1.1 or 1/1.1 */
};

/* The first check in [from, to) that fails, or to. */
static size_t first_fail(struct sim *s, size_t from, size_t to)
{
	for (size_t c = from; c < to; c++) {
		struct amd_history_verdict v;
		struct amd_err err = {{0}};
		if (amd_history_gate(&s->h, c, s->v->n, s->v->alpha, s->v->threshold, &v, &err) == 0 &&
		    v.result == AMD_GATE_REGRESSION)
			return c;
	}
	return to;
}

static void draw(struct sim *s, size_t n, size_t step_at)
{
	for (size_t i = 0; i < n; i++)
		s->h.groups[i].median = (i >= step_at ? s->worse : 1.0) *
					exp(gsl_ran_gaussian(s->rng, s->sigma));
}

/* The simulated histories: fewer for a long history (each check counts
 * C(N+3, 3) triples in O(N² log N)). */
static size_t histories_for(size_t n)
{
	double k = 400.0 * (40.0 / (double)n) * (40.0 / (double)n);
	return k > 400 ? 400 : k < 100 ? 100 : (size_t)k;
}

static void simulate(struct sim *s, struct amd_history_rates *r)
{
	size_t n = s->v->n, start = n + AMD_HISTORY_WINDOW - 1, ff[3] = {0}, caught = 0;
	for (size_t k = 0; k < r->histories; k++) {
		draw(s, start + CHECKS, start + CHECKS);
		size_t at = first_fail(s, start, start + CHECKS) - start;
		ff[0] += at < 10, ff[1] += at < 20, ff[2] += at < CHECKS;
		draw(s, start + 3, start);
		caught += first_fail(s, start, start + 3) < start + 3;
	}
	for (int i = 0; i < 3; i++)
		r->false_fail[i] = (double)ff[i] / (double)r->histories;
	r->caught3 = (double)caught / (double)r->histories;
}

static void append(struct amd_history_verdict *v, const struct amd_history_rates *r)
{
	size_t k = strlen(v->sentence);
	if (!r->valid)
		snprintf(v->sentence + k, sizeof v->sentence - k,
			 "; the history's group medians do not vary: no error rate simulated");
	else
		snprintf(v->sentence + k, sizeof v->sentence - k,
			 "; at this history's spread across groups (%.1f%%), the rule gives a false "
			 "FAIL within 10/20/40 checks without a change in %.1f/%.1f/%.1f%% of "
			 "histories and catches a +10%% step within 3 checks in %.0f%% (simulated, "
			 "%zu histories)", 100 * r->spread, 100 * r->false_fail[0],
			 100 * r->false_fail[1], 100 * r->false_fail[2], 100 * r->caught3,
			 r->histories);
}

int amd_history_gate_rates(const struct amd_history *h, struct amd_history_verdict *v,
			   struct amd_history_rates *r, struct amd_err *err)
{
	*r = (struct amd_history_rates){.spread = spread_of(h, v), .histories = histories_for(v->n)};
	r->valid = r->spread > 0 && isfinite(r->spread) && v->result != AMD_GATE_INSUFFICIENT;
	if (r->valid) {
		size_t total = v->n + AMD_HISTORY_WINDOW - 1 + CHECKS;
		struct sim s = {.v = v, .sigma = r->spread,
				.worse = h->higher_is_better ? 1 / 1.1 : 1.1};
		s.h = (struct amd_history){.by = h->by, .higher_is_better = h->higher_is_better,
					   .ngroups = total};
		s.h.groups = calloc(total, sizeof *s.h.groups);
		s.rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!s.h.groups || !s.rng) {
			free(s.h.groups);
			if (s.rng)
				gsl_rng_free(s.rng);
			return amd_fail(err, "gate --history: out of memory");
		}
		for (size_t i = 0; i < total; i++)
			s.h.groups[i].label = h->groups[0].label;
		gsl_rng_set(s.rng, SEED);
		simulate(&s, r);
		free(s.h.groups);
		gsl_rng_free(s.rng);
	}
	if (v->result != AMD_GATE_INSUFFICIENT)
		append(v, r);
	return 0;
}
