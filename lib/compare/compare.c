/* compare.c — the comparison of two sweeps (compare.h): the rows and
 * their verdicts — which metrics exist per configuration (strategy, n),
 * which are gated and with what direction, threshold and alpha
 * (amdahl.yaml gate.*), which rows form the Holm family, and the verdict
 * per row — and, at the end, analysing the baseline and the candidate
 * sweep (each from its own store) with amd_analyse, once for the time
 * metric and once per extra metric amdahl.yaml lists under gate.metrics,
 * refusing two sweeps that share no configuration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compare.h"
#include "detectable.h"
#include "num.h"
#include "statistic.h"
#include "stats.h"
#include "sweep_keys.h"

const char *amd_verdict_name(enum amd_verdict v)
{
	switch (v) {
	case AMD_IMPROVEMENT: return "improvement";
	case AMD_REGRESSION: return "regression";
	case AMD_INSUFFICIENT: return "insufficient data";
	case AMD_MISSING: return "missing";
	default: return "no change";
	}
}

const char *amd_verdict_json(enum amd_verdict v)
{
	switch (v) {
	case AMD_IMPROVEMENT: return "improvement";
	case AMD_REGRESSION: return "regression";
	case AMD_INSUFFICIENT:
	case AMD_MISSING: return "insufficient_data";
	default: return "no_change";
	}
}

const char *amd_row_verdict(const struct amd_cmp_row *r)
{
	if (!r->gated && r->verdict == AMD_REGRESSION)
		return "worse";
	if (!r->gated && r->verdict == AMD_IMPROVEMENT)
		return "better";
	return amd_verdict_name(r->verdict);
}

const char *amd_direction_name(enum amd_direction d)
{
	return d == AMD_HIGHER_IS_BETTER ? "higher" : "lower";
}

/* ---- metric settings ---- */

struct metric_cfg {
	enum amd_direction dir;
	double threshold, alpha;
	int gated;
};

/* The rows a comparison has are the compared statistics of the registry
 * (lib/analysis/statistic.h), in its order, then the extra metrics. */

/* Where the gate's settings came from, for their errors. */
static const char *cfg_file(const struct amd_config *cfg)
{
	return cfg && cfg->path ? cfg->path : "amdahl.yaml";
}

/* *v from setting n when it is there, which must be a number in [0, 1). */
static int cfg_number(const struct amd_config *cfg, const struct amd_cfg_num *n,
		      const char *where, const char *key, double *v, struct amd_err *err)
{
	if (!n || !n->set)
		return 0;
	if (n->ok)
		*v = n->value;
	if (!n->ok || !(*v >= 0) || !(*v < 1))
		return amd_fail(err, "%s: %s.%s: '%s' is not a number in [0, 1)", cfg_file(cfg),
				where, key, n->text ? n->text : "(not a value)");
	return 0;
}

static int metric_settings(const struct amd_compare_opts *o, const char *name,
			   enum amd_direction dflt_dir, int primary, int known,
			   struct metric_cfg *mc, struct amd_err *err)
{
	const struct amd_config *cfg = o->cfg;
	const struct amd_cfg_gate *g = cfg ? &cfg->gate : NULL;
	mc->dir = dflt_dir;
	mc->alpha = o->alpha > 0 ? o->alpha : 0.05;
	mc->threshold = o->threshold > 0 ? o->threshold : 0.05;
	if (cfg_number(cfg, g ? &g->alpha : NULL, "gate", "alpha", &mc->alpha, err) < 0 ||
	    cfg_number(cfg, g ? &g->threshold : NULL, "gate", "threshold", &mc->threshold,
		       err) < 0)
		return -1;
	const struct amd_cfg_metric *m = amd_cfg_gate_metric(cfg, name);
	char where[300];
	snprintf(where, sizeof where, "gate.metrics.%s", name);
	if (cfg_number(cfg, m ? &m->alpha : NULL, where, "alpha", &mc->alpha, err) < 0 ||
	    cfg_number(cfg, m ? &m->threshold : NULL, where, "threshold", &mc->threshold, err) < 0)
		return -1;
	if (mc->alpha <= 0)
		return amd_fail(err, "%s: %s.alpha must be above 0", cfg_file(cfg), where);
	enum amd_cfg_direction d = m ? m->direction : AMD_CFG_DIR_UNSET;
	if (d == AMD_CFG_DIR_LOWER)
		mc->dir = AMD_LOWER_IS_BETTER;
	else if (d == AMD_CFG_DIR_HIGHER)
		mc->dir = AMD_HIGHER_IS_BETTER;
	else if (d == AMD_CFG_DIR_BAD)
		return amd_fail(err, "%s: %s.direction: '%s' is neither lower nor higher",
				cfg_file(cfg), where,
				m->direction_text ? m->direction_text : "(not a value)");
	else if (!known)
		return amd_fail(err, "%s: %s.direction: missing (lower or higher)", cfg_file(cfg),
				where);
	if (o->only_metrics) {
		mc->gated = 0;
		for (const char *const *s = o->only_metrics; *s; s++)
			mc->gated |= strcmp(*s, name) == 0;
	} else
		mc->gated = primary || m != NULL;
	return 0;
}

/* ---- values per configuration ---- */

static const struct amd_strategy_stats *find_strategy(const struct amd_sweep_stats *s,
						      const char *name)
{
	for (size_t i = 0; s && i < s->nstrategies; i++)
		if (s->strategies[i].strategy && strcmp(s->strategies[i].strategy, name) == 0)
			return &s->strategies[i];
	return NULL;
}

static const struct amd_point_stats *find_point(const struct amd_strategy_stats *s, double n)
{
	for (size_t i = 0; s && i < s->npoints; i++)
		if (s->points[i].n == n)
			return &s->points[i];
	return NULL;
}

/* The usable values of statistic st (its runs' values) for the point
 * (NULL point: none) into *out (NULL when none); -1 when out of memory. */
static int point_values(const struct amd_statistic *st, const struct amd_strategy_stats *s,
			const struct amd_point_stats *p, double **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!p || p->nruns == 0)
		return 0;
	double *v = malloc(p->nruns * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < p->nruns; i++) {
		double x = st->run(s, p, &p->runs[i]);
		if (amd_num_ok(x))
			v[(*n)++] = x;
	}
	*out = v;
	return 0;
}

/* Speedup and efficiency need several n on both sides and the same base. */
static int scaling_applies(const struct amd_strategy_stats *b, const struct amd_strategy_stats *c,
			   double n)
{
	return b && c && b->npoints > 1 && c->npoints > 1 && b->base_n == c->base_n &&
	       amd_num_ok(b->base_value) && amd_num_ok(c->base_value) && n > b->base_n;
}

struct builder {
	struct amd_comparison *c;
	size_t cap;
	const struct amd_compare_opts *o;
};

/* A new zeroed row, or NULL when out of memory. */
static struct amd_cmp_row *new_row(struct builder *bd)
{
	struct amd_comparison *c = bd->c;
	if (amd_grow(&c->rows, c->nrows, &bd->cap, sizeof *c->rows, 32) < 0)
		return NULL;
	struct amd_cmp_row *r = &c->rows[c->nrows++];
	memset(r, 0, sizeof *r);
	return r;
}

/* The row's names, settings and values (which it owns from now on). */
static int fill_row(struct amd_cmp_row *r, const char *metric, const struct metric_cfg *mc,
		    const struct amd_strategy_stats *bs, const struct amd_strategy_stats *cs,
		    double n)
{
	r->metric = strdup(metric);
	r->strategy = strdup(bs ? bs->strategy : cs->strategy);
	r->cand_strategy = strdup(cs ? cs->strategy : bs->strategy);
	r->n = n;
	r->gated = mc->gated;
	r->dir = mc->dir;
	r->threshold = mc->threshold;
	r->alpha = mc->alpha;
	r->med_base = r->med_cand = r->ratio = r->p_adj = NAN;
	r->mwu.p = NAN;
	r->p_min = amd_mwu_min_p(r->nb, r->nc);
	return r->metric && r->strategy && r->cand_strategy ? 0 : -1;
}

/* What a speedup/efficiency row's 95% interval covers (stats.h): its
 * values divide each side's base-n aggregate, which the bootstrap holds
 * fixed; by the fewest runs of each side at the base n and at n. */
static double speedup_row_coverage(const struct amd_cmp_row *r, enum amd_aggregate agg)
{
	size_t nb = r->nb < r->nb_base ? r->nb : r->nb_base;
	size_t nc = r->nc < r->nc_base ? r->nc : r->nc_base;
	return amd_speedup_ratio_coverage(nb, nc, agg == AMD_AGG_MLPERF);
}

/* Medians, ratio with its interval and the test of a row with both sides. */
static int test_row(const struct amd_comparison *c, struct amd_cmp_row *r, struct amd_err *err)
{
	r->med_base = amd_aggregate(r->base, r->nb, c->aggregate);
	r->med_cand = amd_aggregate(r->cand, r->nc, c->aggregate);
	if (!amd_num_ok(r->med_base) || !amd_num_ok(r->med_cand)) /* the values are finite */
		return amd_fail(err, "compare: out of memory");
	if (amd_aggregate_ratio(r->base, r->nb, r->cand, r->nc, c->aggregate, c->resamples,
				c->seed, c->level, &r->ratio, &r->ci, err) < 0)
		return -1;
	if (r->nb_base + r->nc_base && r->ci.valid && fabs(c->level - 0.95) < 1e-12) {
		r->ci.level = speedup_row_coverage(r, c->aggregate); /* not the time rows' */
		if (r->ci.level == 0) /* under 3 runs at the base n: never simulated */
			r->ci = (struct amd_ci){NAN, NAN, 0,
						"fewer than 3 runs at the base n: no interval", 0};
	}
	return amd_mann_whitney(r->cand, r->nc, r->base, r->nb, &r->mwu, err);
}

static int add_row(struct builder *bd, const char *metric, const struct amd_statistic *st,
		   const struct metric_cfg *mc, const struct amd_strategy_stats *bs,
		   const struct amd_strategy_stats *cs, double n, struct amd_err *err)
{
	size_t nb = 0, nc = 0;
	double *bv = NULL, *cv = NULL;
	const struct amd_point_stats *bp = find_point(bs, n), *cp = find_point(cs, n);
	int rc = point_values(st, bs, bp, &bv, &nb);
	if (rc == 0)
		rc = point_values(st, cs, cp, &cv, &nc);
	if (rc < 0 || (nb == 0 && nc == 0)) { /* or the metric is on neither side here */
		free(bv);
		free(cv);
		return rc < 0 ? amd_fail(err, "compare: out of memory") : 0;
	}
	struct amd_cmp_row *r = new_row(bd);
	if (!r) {
		free(bv);
		free(cv);
		return amd_fail(err, "compare: out of memory");
	}
	r->base = bv; /* the row owns them now; freed with the comparison */
	r->cand = cv;
	r->nb = nb;
	r->nc = nc;
	if (st->scaling) { /* the values divide each side's base-n aggregate */
		const struct amd_point_stats *b0 = find_point(bs, bs->base_n);
		const struct amd_point_stats *c0 = find_point(cs, cs->base_n);
		r->nb_base = b0 ? b0->nruns : 1; /* 1: no base point, no interval */
		r->nc_base = c0 ? c0->nruns : 1;
	}
	if (fill_row(r, metric, mc, bs, cs, n) < 0)
		return amd_fail(err, "compare: out of memory");
	if (nb == 0 || nc == 0) {
		r->verdict = AMD_MISSING;
		snprintf(r->note, sizeof r->note, "only in the %s",
			 nb ? "baseline" : "candidate");
		return 0;
	}
	return test_row(bd->c, r, err);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The union of the n values of both strategies, increasing; returns count. */
static size_t union_n(const struct amd_strategy_stats *b, const struct amd_strategy_stats *c,
		      double *out)
{
	size_t k = 0;
	for (size_t i = 0; b && i < b->npoints; i++)
		out[k++] = b->points[i].n;
	for (size_t i = 0; c && i < c->npoints; i++) {
		size_t j = 0;
		while (j < k && out[j] != c->points[i].n)
			j++;
		if (j == k)
			out[k++] = c->points[i].n;
	}
	qsort(out, k, sizeof *out, cmp_double);
	return k;
}

struct sides {
	const struct amd_sweep_stats *base, *cand;
	const struct amd_sweep_stats *const *base_extra, *const *cand_extra;
	size_t nextra;
};

/* The analysed metric is a time unless its name says it is a rate (the
 * same rule amd_analyse uses); amdahl.yaml can say otherwise. */
static enum amd_direction time_direction(const char *metric)
{
	return strstr(metric, "throughput") || strstr(metric, "per_s") ||
			       strstr(metric, "samples_s")
		       ? AMD_HIGHER_IS_BETTER
		       : AMD_LOWER_IS_BETTER;
}

static int add_pair(struct builder *bd, const struct sides *sd, const char *bname,
		    const char *cname, struct amd_err *err)
{
	const struct amd_strategy_stats *bs = bname ? find_strategy(sd->base, bname) : NULL;
	const struct amd_strategy_stats *cs = cname ? find_strategy(sd->cand, cname) : NULL;
	size_t cap = (bs ? bs->npoints : 0) + (cs ? cs->npoints : 0);
	double *ns = malloc((cap ? cap : 1) * sizeof *ns);
	if (!ns)
		return amd_fail(err, "compare: out of memory");
	size_t k = union_n(bs, cs, ns);
	int rc = 0;
	for (size_t i = 0; i < k && rc == 0; i++) {
		double n = ns[i];
		if (bd->o->only_n_set && n != bd->o->only_n)
			continue;
		struct metric_cfg tc; /* speedup = T(b)/T(n) needs a time-like metric */
		enum amd_direction tdir = time_direction(sd->base->metric);
		rc = metric_settings(bd->o, sd->base->metric, tdir, 1, 1, &tc, err);
		for (size_t b = 0; b < amd_nstatistics && rc == 0; b++) {
			const struct amd_statistic *st = &amd_statistics[b];
			if (st->gate == AMD_GATE_NOT_COMPARED)
				continue;
			const char *name = *st->row ? st->row : sd->base->metric;
			enum amd_direction dir = st->better == AMD_BETTER_AS_METRIC ? tdir
				: st->better == AMD_BETTER_HIGHER ? AMD_HIGHER_IS_BETTER
				: AMD_LOWER_IS_BETTER;
			if (st->scaling && (!scaling_applies(bs, cs, n) || tc.dir != AMD_LOWER_IS_BETTER))
				continue;
			int several_n = bs && cs && bs->npoints > 1 && cs->npoints > 1;
			struct metric_cfg mc;
			/* speedup is judged on the world-size axis only (docs/design.md) */
			int primary = st->gate == AMD_GATE_GATED &&
				      (!st->scaling || (several_n && !bd->o->axis));
			rc = metric_settings(bd->o, name, dir, primary,
					     1, &mc, err);
			if (rc == 0)
				rc = add_row(bd, name, st, &mc, bs, cs, n, err);
		}
		for (size_t e = 0; e < sd->nextra && rc == 0; e++) {
			const struct amd_strategy_stats *be =
				bname ? find_strategy(sd->base_extra[e], bname) : NULL;
			const struct amd_strategy_stats *ce =
				cname ? find_strategy(sd->cand_extra[e], cname) : NULL;
			struct metric_cfg mc;
			rc = metric_settings(bd->o, sd->base_extra[e]->metric, AMD_LOWER_IS_BETTER, 0,
					     0, &mc, err);
			if (rc == 0 && (be || ce))
				rc = add_row(bd, sd->base_extra[e]->metric, amd_statistic_by_key("median"),
					     &mc, be, ce, n, err);
		}
	}
	free(ns);
	return rc;
}

/* The epochs of a left-out run's reason an error line shows (of a run
 * whose every epoch was dropped: the rest as "and N more"). */
#define WHY_EPOCHS 10

/* Fails saying sweep s has no strategy name — or, when it has runs of
 * that strategy that were all left out (every epoch impossible, failed
 * runs), how many and why the first was. */
static int no_strategy(const struct amd_sweep_stats *s, const char *name, struct amd_err *err)
{
	size_t left = 0;
	const struct amd_run_value *first = NULL;
	for (size_t i = 0; i < s->nexcluded; i++)
		if (s->excluded[i].strategy && strcmp(s->excluded[i].strategy, name) == 0 &&
		    !left++)
			first = &s->excluded[i];
	if (!left) {
		const char *names[64];
		size_t k = 0;
		for (size_t i = 0; i < s->nstrategies && k < 64; i++)
			if (s->strategies[i].strategy)
				names[k++] = s->strategies[i].strategy;
		char near[256];
		amd_names_closest(name, names, k, near, sizeof near);
		return amd_fail(err, "sweep '%s' has no strategy '%s'%s", s->sweep, name, near);
	}
	char *why = amd_epochs_shown(first->excluded ? first->excluded : "excluded", WHY_EPOCHS);
	if (!why)
		return amd_fail(err, "out of memory");
	amd_fail(err, "sweep '%s', strategy '%s': no run to compare: %s %zu run%s left out"
		 " (%s: %s)", s->sweep, name, left == 1 ? "its" : "all", left,
		 left == 1 ? " was" : "s were", first->name ? first->name : first->ext_id, why);
	free(why);
	return -1;
}

static int add_all_pairs(struct builder *bd, const struct sides *sd, struct amd_err *err)
{
	const struct amd_compare_opts *o = bd->o;
	if (o->base_strategy || o->cand_strategy) {
		const char *bn = o->base_strategy ? o->base_strategy : o->cand_strategy;
		const char *cn = o->cand_strategy ? o->cand_strategy : o->base_strategy;
		if (!find_strategy(sd->base, bn))
			return no_strategy(sd->base, bn, err);
		if (!find_strategy(sd->cand, cn))
			return no_strategy(sd->cand, cn, err);
		return add_pair(bd, sd, bn, cn, err);
	}
	for (size_t i = 0; i < sd->base->nstrategies; i++) {
		const char *s = sd->base->strategies[i].strategy;
		if (add_pair(bd, sd, s, find_strategy(sd->cand, s) ? s : NULL, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < sd->cand->nstrategies; i++) {
		const char *s = sd->cand->strategies[i].strategy;
		if (!find_strategy(sd->base, s) && add_pair(bd, sd, NULL, s, err) < 0)
			return -1;
	}
	return 0;
}

/* ---- verdicts ---- */

static int testable(const struct amd_cmp_row *r)
{
	return r->verdict != AMD_MISSING;
}

/* Tarone's rule for discrete tests: a row whose smallest attainable p
 * cannot pass alpha/K can never be significant, so it is left out of the
 * Holm family and called insufficient. K is the smallest family size with
 * |{rows: p_min·K ≤ alpha}| ≤ K; the choice depends on the sample sizes
 * only, never on the data, so the family-wise error stays at alpha. */
static size_t tarone_k(const struct amd_comparison *c)
{
	size_t total = 0;
	for (size_t i = 0; i < c->nrows; i++)
		total += c->rows[i].gated && testable(&c->rows[i]);
	for (size_t k = 1; k <= total; k++) {
		size_t in = 0;
		for (size_t i = 0; i < c->nrows; i++) {
			const struct amd_cmp_row *r = &c->rows[i];
			in += r->gated && testable(r) && r->p_min * (double)k <= r->alpha;
		}
		if (in <= k)
			return k;
	}
	return total ? total : 1;
}

static void insufficient(struct amd_cmp_row *r, size_t ngated)
{
	r->verdict = AMD_INSUFFICIENT;
	double need = r->alpha / (double)(ngated ? ngated : 1);
	r->runs_needed = amd_mwu_runs_needed(need);
	if (ngated <= 1)
		snprintf(r->note, sizeof r->note,
			 "%zu vs %zu runs: the smallest attainable p is %.3g > alpha %g; "
			 "%d runs per side would reach it",
			 r->nc, r->nb, r->p_min, r->alpha, r->runs_needed);
	else if (r->p_min > r->alpha)
		snprintf(r->note, sizeof r->note,
			 "%zu vs %zu runs: the smallest attainable p is %.3g > alpha %g; "
			 "%d runs per side would reach it across %zu gated comparisons",
			 r->nc, r->nb, r->p_min, r->alpha, r->runs_needed, ngated);
	else
		snprintf(r->note, sizeof r->note,
			 "%zu vs %zu runs: the smallest attainable p %.3g cannot reach alpha %g "
			 "across %zu gated comparisons; %d runs per side would",
			 r->nc, r->nb, r->p_min, r->alpha, ngated, r->runs_needed);
}

static void judge(struct amd_cmp_row *r, double p)
{
	double rel = r->ratio - 1;
	int worse = r->dir == AMD_LOWER_IS_BETTER ? rel > r->threshold : rel < -r->threshold;
	int better = r->dir == AMD_LOWER_IS_BETTER ? rel < -r->threshold : rel > r->threshold;
	int sig = p <= r->alpha;
	r->verdict = sig && worse ? AMD_REGRESSION : sig && better ? AMD_IMPROVEMENT : AMD_NO_CHANGE;
	if (!amd_num_ok(r->ratio))
		snprintf(r->note, sizeof r->note, "the baseline median is 0: no ratio");
}

/* The summary: gated rows by verdict. */
static void count_verdicts(struct amd_comparison *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (!r->gated)
			continue;
		c->ngated++;
		c->regressions += r->verdict == AMD_REGRESSION;
		c->improvements += r->verdict == AMD_IMPROVEMENT;
		c->insufficient += r->verdict == AMD_INSUFFICIENT;
		c->missing += r->verdict == AMD_MISSING;
	}
}

static int assign_verdicts(struct amd_comparison *c, struct amd_err *err)
{
	size_t k = tarone_k(c), nfam = 0, ngated = 0;
	for (size_t i = 0; i < c->nrows; i++)
		ngated += c->rows[i].gated && testable(&c->rows[i]);
	double *p = malloc((c->nrows ? c->nrows : 1) * sizeof *p);
	size_t *idx = malloc((c->nrows ? c->nrows : 1) * sizeof *idx);
	if (!p || !idx) {
		free(p);
		free(idx);
		return amd_fail(err, "compare: out of memory");
	}
	for (size_t i = 0; i < c->nrows; i++) {
		struct amd_cmp_row *r = &c->rows[i];
		if (!testable(r))
			continue;
		if (r->gated && r->p_min * (double)k <= r->alpha) {
			idx[nfam] = i;
			p[nfam++] = r->mwu.p;
		} else if (r->gated)
			insufficient(r, ngated);
		else if (r->p_min > r->alpha)
			insufficient(r, 1);
		else
			judge(r, r->mwu.p); /* shown only: judged on its own p */
	}
	int rc = amd_holm(p, nfam, p);
	for (size_t f = 0; f < nfam && rc == 0; f++) {
		struct amd_cmp_row *r = &c->rows[idx[f]];
		r->p_adj = p[f];
		judge(r, r->p_adj);
	}
	c->family = nfam;
	free(p);
	free(idx);
	if (rc < 0)
		return amd_fail(err, "compare: out of memory");
	count_verdicts(c);
	amd_cmp_noise(c);
	return 0;
}

/* Every --only name is the metric of some row: a misspelt one (which
 * would gate nothing, and pass) fails naming the closest row metric. */
static int only_known(const struct amd_comparison *c, const char *const *only,
		      struct amd_err *err)
{
	for (; only && *only; only++) {
		const char *names[64];
		size_t k = 0, found = 0;
		for (size_t i = 0; i < c->nrows && !found; i++) {
			found = strcmp(c->rows[i].metric, *only) == 0;
			size_t j = 0;
			while (j < k && strcmp(names[j], c->rows[i].metric) != 0)
				j++;
			if (j == k && k < 64)
				names[k++] = c->rows[i].metric;
		}
		if (found)
			continue;
		char near[256], list[512] = "";
		amd_names_closest(*only, names, k, near, sizeof near);
		for (size_t j = 0, at = 0; j < k && at < sizeof list; j++)
			at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", j ? ", " : "",
					       names[j]);
		return amd_fail(err, "--only: no row has the metric '%s'%s (rows: %s)", *only, near,
				list);
	}
	return 0;
}

/* A copy of s (NULL stays NULL); 0, or -1 when out of memory. */
static int dup_or_null(char **out, const char *s)
{
	*out = s ? strdup(s) : NULL;
	return s && !*out ? -1 : 0;
}

int amd_compare_stats(const struct amd_sweep_stats *base, const struct amd_sweep_stats *cand,
		      const struct amd_sweep_stats *const *base_extra,
		      const struct amd_sweep_stats *const *cand_extra, size_t nextra,
		      const struct amd_compare_opts *o, struct amd_comparison **out,
		      struct amd_err *err)
{
	struct amd_comparison *c = calloc(1, sizeof *c);
	if (!c)
		return amd_fail(err, "compare: out of memory");
	if (dup_or_null(&c->base_sweep, base->sweep) < 0 ||
	    dup_or_null(&c->cand_sweep, cand->sweep) < 0 ||
	    dup_or_null(&c->base_strategy, o->base_strategy) < 0 ||
	    dup_or_null(&c->cand_strategy, o->cand_strategy) < 0 ||
	    dup_or_null(&c->metric, base->metric) < 0) {
		amd_comparison_free(c);
		return amd_fail(err, "compare: out of memory");
	}
	c->resamples = o->resamples >= 2000 ? o->resamples : 4000;
	c->seed = o->seed ? o->seed : 20260101UL;
	c->level = o->level > 0 && o->level < 1 ? o->level : 0.95;
	c->aggregate = o->aggregate;
	struct builder bd = {c, 0, o};
	struct sides sd = {base, cand, base_extra, cand_extra, nextra};
	if (add_all_pairs(&bd, &sd, err) < 0 || only_known(c, o->only_metrics, err) < 0 ||
	    assign_verdicts(c, err) < 0) {
		amd_comparison_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void amd_comparison_free(struct amd_comparison *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nrows; i++) {
		struct amd_cmp_row *r = &c->rows[i];
		free(r->metric);
		free(r->strategy);
		free(r->cand_strategy);
		free(r->base);
		free(r->cand);
	}
	free(c->rows);
	free(c->base_sweep);
	free(c->cand_sweep);
	free(c->base_strategy);
	free(c->cand_strategy);
	free(c->metric);
	free(c);
}

int amd_compare_builtin(const char *name, const char *time_metric)
{
	if (time_metric && strcmp(name, time_metric) == 0)
		return 1;
	for (size_t i = 0; i < amd_nstatistics; i++)
		if (amd_statistics[i].row && *amd_statistics[i].row &&
		    strcmp(amd_statistics[i].row, name) == 0)
			return 1;
	return 0;
}

/* ---- analysing both sweeps ---- */

static int analyse(struct amd_store *st, const char *sweep, const char *metric,
		   const struct amd_compare_opts *o, struct amd_sweep_stats **out,
		   struct amd_err *err)
{
	struct amd_analysis_opts a = {0};
	a.sweep = sweep;
	a.metric = metric;
	a.axis = o->axis;
	a.mad_k = 3.5;
	a.resamples = o->resamples >= 2000 ? o->resamples : 4000;
	a.seed = o->seed ? o->seed : 20260101UL;
	a.level = o->level > 0 && o->level < 1 ? o->level : 0.95;
	a.aggregate = o->aggregate;
	return amd_analyse(st, &a, out, err);
}

static void free_stats(struct amd_sweep_stats *s)
{
	if (s)
		amd_sweep_stats_free(s);
}

/* Names under gate.metrics that are not built in: analysed separately. */
static size_t extra_metrics(const struct amd_config *cfg, const char *time_metric,
			    const char **names, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; cfg && i < cfg->gate.nmetrics && k < max; i++)
		if (!amd_compare_builtin(cfg->gate.metrics[i].name, time_metric))
			names[k++] = cfg->gate.metrics[i].name;
	return k;
}

#define MAX_EXTRA 32

/* A comparison needs one configuration on both sides: otherwise every row
 * is on one side only and there is nothing to judge. */
static int check_shared(struct amd_comparison **c, const struct amd_compare_opts *o,
			const struct amd_sweep_stats *base, const struct amd_sweep_stats *cand,
			struct amd_err *err)
{
	for (size_t i = 0; i < (*c)->nrows; i++)
		if ((*c)->rows[i].verdict != AMD_MISSING)
			return 0;
	amd_comparison_free(*c);
	*c = NULL;
	/* a side whose every run was left out (every epoch impossible): why */
	const struct amd_sweep_stats *empty = !base->nstrategies && base->nexcluded ? base
					    : !cand->nstrategies && cand->nexcluded ? cand : NULL;
	if (empty) {
		const struct amd_run_value *r = &empty->excluded[0];
		char *why = amd_epochs_shown(r->excluded ? r->excluded : "excluded", WHY_EPOCHS);
		if (!why)
			return amd_fail(err, "out of memory");
		amd_fail(err, "%s '%s': no run to compare: all %zu runs were left out (%s: %s)",
			 empty == base ? "baseline" : "candidate",
			 empty == base ? o->base_sweep : o->cand_sweep, empty->nexcluded,
			 r->name ? r->name : r->ext_id, why);
		free(why);
		return -1;
	}
	return amd_fail(err, "baseline '%s' and candidate '%s' share no configuration",
			o->base_sweep, o->cand_sweep);
}

int amd_compare(struct amd_store *base_st, struct amd_store *cand_st,
		const struct amd_compare_opts *o, struct amd_comparison **out,
		struct amd_err *err)
{
	const char *metric = o->metric ? o->metric : "epoch_time_s";
	struct amd_sweep_stats *base = NULL, *cand = NULL;
	struct amd_sweep_stats *bx[MAX_EXTRA] = {0}, *cx[MAX_EXTRA] = {0};
	const char *names[MAX_EXTRA];
	size_t nextra = extra_metrics(o->cfg, metric, names, MAX_EXTRA);
	int rc = -1;
	if (analyse(base_st, o->base_sweep, metric, o, &base, err) < 0) {
		amd_fail_prefix(err, "baseline");
		goto done;
	}
	if (analyse(cand_st, o->cand_sweep, metric, o, &cand, err) < 0) {
		amd_fail_prefix(err, "candidate");
		goto done;
	}
	for (size_t i = 0; i < nextra; i++) {
		if (analyse(base_st, o->base_sweep, names[i], o, &bx[i], err) < 0) {
			amd_fail_prefix(err, "baseline, gate.metrics.%s", names[i]);
			goto done;
		}
		if (analyse(cand_st, o->cand_sweep, names[i], o, &cx[i], err) < 0) {
			amd_fail_prefix(err, "candidate, gate.metrics.%s", names[i]);
			goto done;
		}
	}
	rc = amd_compare_stats(base, cand, (const struct amd_sweep_stats *const *)bx,
			       (const struct amd_sweep_stats *const *)cx, nextra, o, out, err);
	if (rc == 0)
		rc = check_shared(out, o, base, cand, err);
done:
	free_stats(base);
	free_stats(cand);
	for (size_t i = 0; i < nextra; i++) {
		free_stats(bx[i]);
		free_stats(cx[i]);
	}
	return rc;
}
