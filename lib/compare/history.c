/* history.c — amd_history (history.h): the groups a key splits a
 * selection into (selector.h), each analysed as one configuration
 * (amd_analyse), put in order, and the change points among their medians
 * with the runs' statistics on either side. */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "num.h"
#include "scale_ratio.h"
#include "selector.h"
#include "stats.h"

/* "ddp n=4, ddp n=8" — the configurations of s, for the error. */
static int list_configs(const struct amd_sweep_stats *s, struct amd_buf *b)
{
	int k = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t p = 0; p < s->strategies[i].npoints; p++)
			if (amd_buf_printf(b, "%s%s %s=%g", k++ ? ", " : "", s->strategies[i].strategy,
					   s->axis, s->strategies[i].points[p].n) < 0)
				return -1;
	return k;
}

static int take_point(struct amd_history_group *hg, const struct amd_sweep_stats *s,
		      const struct amd_point_stats *p, struct amd_err *err)
{
	hg->values = malloc(p->nruns * sizeof *hg->values);
	if (!hg->values || asprintf(&hg->config, "%s %s=%g", p->strategy, s->axis, p->n) < 0) {
		hg->config = NULL;
		return amd_fail(err, "out of memory");
	}
	for (size_t i = 0; i < p->nruns; i++)
		hg->values[i] = p->runs[i].value;
	hg->nruns = p->nruns;
	hg->median = p->median;
	hg->ci = p->ci;
	return 0;
}

/* The group's one configuration (strategy, n), analysed. */
static int fill_group(struct amd_store *st, const struct amd_history_opts *o,
		      const char *by, const struct amd_run_group *runs,
		      struct amd_history_group *hg, int *higher, struct amd_err *err)
{
	struct amd_analysis_opts a = {.sweep = hg->selector, .metric = o->metric,
				      .resamples = o->resamples, .seed = o->seed, .level = o->level,
				      .runs = runs->runs, .nruns = runs->nruns};
	struct amd_sweep_stats *s;
	if (amd_analyse(st, &a, &s, err) < 0)
		return -1;
	*higher = s->higher_is_better;
	struct amd_buf b = {0};
	int k = list_configs(s, &b), rc;
	if (k < 0)
		rc = amd_fail(err, "out of memory");
	else if (k == 0)
		rc = amd_fail(err, "%s: group %s=%s has no run in statistics (%zu left out)",
			      amd_store_path(st), by, hg->label, s->nruns_excluded);
	else if (k > 1)
		rc = amd_fail(err, "%s: group %s=%s holds %d configurations (%s): a history follows"
			      " one; narrow the runs, e.g. --sweep 'strategy=%s,n=%g'",
			      amd_store_path(st), by, hg->label, k, b.data, s->strategies[0].strategy,
			      s->strategies[0].points[0].n);
	else
		rc = take_point(hg, s, &s->strategies[0].points[0], err);
	amd_buf_free(&b);
	amd_sweep_stats_free(s);
	return rc;
}

/* ---- order ---- */

static int order_before(const struct amd_history_group *x, const struct amd_history_group *y,
			int numeric)
{
	if (!numeric)
		return strcmp(x->order, y->order) < 0;
	return strtod(x->order, NULL) < strtod(y->order, NULL);
}

/* The order key's value of each group (its earliest run's), then a
 * stable sort by it: numbers as numbers when every value is one. */
static int sort_groups(struct amd_store *st, const char *key, struct amd_history *h,
		       struct amd_err *err)
{
	int numeric = 1;
	for (size_t i = 0; i < h->ngroups; i++) {
		struct amd_run_group *g;
		size_t ng, skipped;
		struct amd_history_group *hg = &h->groups[i];
		if (amd_select_groups(st, hg->selector, key, &g, &ng, &skipped, err) < 0)
			return amd_fail_prefix(err, "--order %s: group %s=%s", key, h->by, hg->label);
		hg->order = g[0].value;
		g[0].value = NULL;
		amd_run_groups_free(g, ng);
		double v;
		numeric &= amd_parse_double(hg->order, &v) == 0 && amd_num_ok(v);
	}
	for (size_t i = 1; i < h->ngroups; i++) {
		struct amd_history_group x = h->groups[i];
		size_t j = i;
		for (; j > 0 && order_before(&x, &h->groups[j - 1], numeric); j--)
			h->groups[j] = h->groups[j - 1];
		h->groups[j] = x;
	}
	return 0;
}

/* ---- change points ---- */

/* The runs' values of groups [from, to) into *out. */
static double *pool(const struct amd_history *h, size_t from, size_t to, size_t *n)
{
	*n = 0;
	for (size_t g = from; g < to; g++)
		*n += h->groups[g].nruns;
	double *v = malloc((*n ? *n : 1) * sizeof *v);
	size_t k = 0;
	for (size_t g = from; v && g < to; g++)
		for (size_t i = 0; i < h->groups[g].nruns; i++)
			v[k++] = h->groups[g].values[i];
	return v;
}

static int describe_change(struct amd_history *h, struct amd_history_change *c,
			   const struct amd_history_opts *o, struct amd_err *err)
{
	double *b = pool(h, c->from, c->group, &c->nbefore);
	double *a = pool(h, c->group, c->to, &c->nafter);
	int rc = a && b ? 0 : amd_fail(err, "out of memory");
	if (rc == 0) {
		c->before = amd_median(b, c->nbefore);
		c->after = amd_median(a, c->nafter);
		c->ratio = c->before != 0 ? c->after / c->before : NAN;
		rc = amd_scale_ratio_ci(b, c->nbefore, a, c->nafter, o->level > 0 ? o->level : 0.95,
					c->ratio, &c->ci, err);
	}
	free(a);
	free(b);
	return rc;
}

static int find_changes(struct amd_history *h, const struct amd_history_opts *o,
			struct amd_err *err)
{
	double *med = malloc((h->ngroups ? h->ngroups : 1) * sizeof *med);
	if (!med)
		return amd_fail(err, "out of memory");
	for (size_t i = 0; i < h->ngroups; i++)
		med[i] = h->groups[i].median;
	struct amd_change *cp = NULL;
	size_t ncp = 0;
	int rc = amd_edivisive(med, h->ngroups, &o->cp, &cp, &ncp, err);
	free(med);
	if (rc == 0 && ncp && !(h->changes = calloc(ncp, sizeof *h->changes)))
		rc = amd_fail(err, "out of memory");
	for (size_t i = 0; rc == 0 && i < ncp; i++, h->nchanges++) {
		struct amd_history_change *c = &h->changes[i];
		c->group = cp[i].at;
		c->from = i ? cp[i - 1].at : 0;
		c->to = i + 1 < ncp ? cp[i + 1].at : h->ngroups;
		c->q = cp[i].q;
		c->p_perm = cp[i].p;
		rc = describe_change(h, c, o, err);
	}
	free(cp);
	return rc;
}

/* ---- the history ---- */

static int setup(struct amd_history *h, const struct amd_history_opts *o,
		 struct amd_run_group *g, size_t ng)
{
	h->cp = o->cp;
	h->level = o->level > 0 ? o->level : 0.95;
	h->cp.alpha = h->cp.alpha > 0 && h->cp.alpha < 1 ? h->cp.alpha : 0.05;
	h->cp.permutations = h->cp.permutations > 0 ? h->cp.permutations : 999;
	h->cp.seed = h->cp.seed ? h->cp.seed : 20260101UL;
	h->cp.min_size = h->cp.min_size ? h->cp.min_size : 3;
	h->metric = strdup(o->metric && *o->metric ? o->metric : "epoch_time_s");
	h->by = strdup(o->by);
	h->order = strdup(o->order ? o->order : "start");
	h->groups = calloc(ng, sizeof *h->groups);
	if (!h->metric || !h->by || !h->order || !h->groups)
		return -1;
	for (size_t i = 0; i < ng; i++, h->ngroups++) {
		h->groups[i].label = g[i].value;
		h->groups[i].selector = g[i].selector;
		h->groups[i].first_ms = g[i].first_ms;
		g[i].value = g[i].selector = NULL;
	}
	return 0;
}

int amd_history(struct amd_store *st, const struct amd_history_opts *o,
		struct amd_history **out, struct amd_err *err)
{
	*out = NULL;
	struct amd_run_group *g;
	size_t ng, skipped;
	if (amd_select_groups(st, o->select, o->by, &g, &ng, &skipped, err) < 0)
		return -1;
	struct amd_history *h = calloc(1, sizeof *h);
	int rc = h && setup(h, o, g, ng) == 0 ? 0 : amd_fail(err, "out of memory");
	if (h)
		h->skipped = skipped;
	struct amd_history_opts eff = *o;
	if (rc == 0)
		eff.cp = h->cp;
	/* each group analysed on the runs the split found (g[i], in the
	 * order setup kept): picking them again by the group's selector
	 * listed and matched every run of the store once a group */
	for (size_t i = 0; rc == 0 && i < h->ngroups; i++)
		rc = fill_group(st, &eff, h->by, &g[i], &h->groups[i], &h->higher_is_better, err);
	amd_run_groups_free(g, ng);
	if (rc == 0 && o->order && strcmp(o->order, "start") != 0)
		rc = sort_groups(st, o->order, h, err);
	if (rc == 0)
		rc = find_changes(h, &eff, err);
	if (rc < 0)
		amd_history_free(h);
	else
		*out = h;
	return rc;
}

void amd_history_free(struct amd_history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->ngroups; i++) {
		free(h->groups[i].label);
		free(h->groups[i].selector);
		free(h->groups[i].config);
		free(h->groups[i].order);
		free(h->groups[i].values);
	}
	free(h->groups);
	free(h->changes);
	free(h->metric);
	free(h->by);
	free(h->order);
	free(h);
}
