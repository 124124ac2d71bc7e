/* step_time.c — the step-time breakdown (see step_time.h): loaders
 * parsed from the metric keys, groups of runs from the run model,
 * medians with amd_median. */
#include "step_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_run.h"
#include "num.h"
#include "runs.h"
#include "sources.h"
#include "stats.h"

#define KEY_PREFIX "profile/train/"

const char *const amd_step_phases[AMD_STEP_PHASES] = {"data", "forward", "backward", "optimizer"};

/* The phase of key "profile/train/dl_<loader>/time_<phase>_ms" with its
 * loader in loader; -1 when the key is not the step profiler's. */
static int parse_step_key(const char *key, char *loader, size_t n)
{
	const char *p = key + strlen(KEY_PREFIX);
	const char *slash = strchr(p, '/');
	if (!slash || strncmp(p, "dl_", 3) != 0)
		return -1;
	for (int i = 0; i < AMD_STEP_PHASES; i++) {
		char want[64];
		snprintf(want, sizeof want, "/time_%s_ms", amd_step_phases[i]);
		if (strcmp(slash, want) == 0) {
			snprintf(loader, n, "%.*s", (int)(slash - p - 3), p + 3);
			return i;
		}
	}
	return -1;
}

static int find_loaders(struct amd_store *st, const struct amd_sweep_stats *s,
			struct amd_step_time *t, struct amd_err *err)
{
	char **keys;
	size_t nk;
	if (amd_store_sweep_metric_keys(st, s->sweep, KEY_PREFIX, &keys, &nk, err) < 0)
		return -1;
	for (size_t i = 0; i < nk; i++) {
		char l[64];
		if (parse_step_key(keys[i], l, sizeof l) < 0)
			continue;
		size_t j = 0;
		while (j < t->nloaders && strcmp(t->loaders[j], l) != 0)
			j++;
		if (j == t->nloaders && t->nloaders < AMD_STEP_MAX_LOADERS)
			snprintf(t->loaders[t->nloaders++], sizeof t->loaders[0], "%s", l);
	}
	amd_strings_free(keys, nk);
	return 0;
}

static int same_group(const struct amd_step_group *g, const char *strategy, double x)
{
	return strcmp(g->strategy, strategy) == 0 && (g->x == x || (isnan(x) && isnan(g->x)));
}

/* Adds run id to the group of (strategy, x), a new one when none
 * matches; groups has room for nr groups of nr runs. */
static int add_run(struct amd_step_time *t, size_t nr, const char *strategy, double x,
		   int64_t id)
{
	size_t k = 0;
	while (k < t->ngroups && !same_group(&t->groups[k], strategy, x))
		k++;
	struct amd_step_group *g = &t->groups[k];
	if (k == t->ngroups) {
		snprintf(g->strategy, sizeof g->strategy, "%s", strategy);
		g->x = x;
		g->runs = calloc(nr, sizeof *g->runs);
		if (!g->runs)
			return -1;
		t->ngroups++;
	}
	g->runs[g->nruns++] = id;
	return 0;
}

static int cmp_group(const void *a, const void *b)
{
	const struct amd_step_group *x = a, *y = b;
	int c = strcmp(x->strategy, y->strategy);
	return c ? c : (x->x > y->x) - (x->x < y->x);
}

/* The sweep's finished runs grouped by strategy and axis value. */
static int find_groups(struct amd_store *st, const struct amd_sweep_stats *s,
		       struct amd_step_time *t, struct amd_err *err)
{
	struct amd_run_view *runs;
	size_t nr;
	if (amd_runs_list(st, s->sweep, &runs, &nr, err) < 0)
		return -1;
	int rc = 0;
	t->groups = calloc(nr + 1, sizeof *t->groups);
	if (!t->groups)
		rc = amd_fail(err, "out of memory");
	for (size_t i = 0; rc == 0 && i < nr; i++) {
		if (!amd_status_ok(runs[i].status))
			continue;
		const char *strategy = runs[i].strategy ? runs[i].strategy : "?";
		double x;
		if (amd_run_axis_value(st, &runs[i], s->scaling ? NULL : s->axis, &x, err) < 0)
			rc = -1;
		else if (add_run(t, nr, strategy, x, runs[i].id) < 0)
			rc = amd_fail(err, "out of memory");
	}
	amd_runs_free(runs, nr);
	if (rc == 0)
		qsort(t->groups, t->ngroups, sizeof *t->groups, cmp_group);
	return rc;
}

/* amd_median of the n values v, in *out; -1 when it could not be
 * computed for want of memory (NAN with finite values to take it of). */
static int median(const double *v, size_t n, double *out, struct amd_err *err)
{
	*out = amd_median(v, n);
	if (isnan(*out) && amd_finite_count(v, n) > 0)
		return amd_fail(err, "median: out of memory");
	return 0;
}

/* Median over the group's runs of each run's median logged value of key
 * (runs without a finite value left out; NAN when none has one). */
static int group_key_median(struct amd_store *st, const struct amd_step_group *g,
			    const char *key, double *out, struct amd_err *err)
{
	double *per_run = calloc(g->nruns + 1, sizeof *per_run);
	if (!per_run)
		return amd_fail(err, "out of memory");
	int rc = 0;
	for (size_t r = 0; rc == 0 && r < g->nruns; r++) {
		struct amd_point *pts;
		size_t n;
		if (amd_run_metric(st, g->runs[r], key, &pts, &n, err) < 0) {
			rc = -1;
			break;
		}
		double *v = malloc((n + 1) * sizeof *v);
		if (!v)
			rc = amd_fail(err, "out of memory");
		for (size_t i = 0; v && i < n; i++)
			v[i] = pts[i].value;
		if (v)
			rc = median(v, n, &per_run[r], err);
		free(v);
		free(pts);
	}
	if (rc == 0)
		rc = median(per_run, g->nruns, out, err);
	free(per_run);
	return rc;
}

static int step_values(struct amd_store *st, struct amd_step_time *t, struct amd_err *err)
{
	size_t stride = t->ngroups * t->nloaders;
	t->ms = calloc(AMD_STEP_PHASES * stride + 1, sizeof *t->ms);
	if (!t->ms)
		return amd_fail(err, "out of memory");
	double *v = t->ms;
	for (int ph = 0; ph < AMD_STEP_PHASES; ph++)
		for (size_t k = 0; k < t->ngroups; k++)
			for (size_t l = 0; l < t->nloaders; l++, v++) {
				char key[160];
				snprintf(key, sizeof key, KEY_PREFIX "dl_%s/time_%s_ms", t->loaders[l],
					 amd_step_phases[ph]);
				if (group_key_median(st, &t->groups[k], key, v, err) < 0)
					return -1;
				t->any |= amd_num_ok(*v);
			}
	return 0;
}

int amd_step_time(struct amd_store *st, const struct amd_sweep_stats *s,
		  struct amd_step_time *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	int rc = find_loaders(st, s, out, err);
	if (rc == 0 && out->nloaders)
		rc = find_groups(st, s, out, err);
	if (rc == 0 && out->ngroups)
		rc = step_values(st, out, err);
	out->runs_lo = out->ngroups ? (size_t)-1 : 0;
	for (size_t k = 0; k < out->ngroups; k++) {
		size_t n = out->groups[k].nruns;
		out->runs_lo = n < out->runs_lo ? n : out->runs_lo;
		out->runs_hi = n > out->runs_hi ? n : out->runs_hi;
	}
	if (rc < 0)
		amd_step_time_free(out);
	return rc;
}

void amd_step_time_free(struct amd_step_time *t)
{
	for (size_t k = 0; t->groups && k < t->ngroups; k++)
		free(t->groups[k].runs);
	free(t->groups);
	free(t->ms);
	memset(t, 0, sizeof *t);
}

double amd_step_ms(const struct amd_step_time *t, int phase, size_t group, size_t loader)
{
	return t->ms[((size_t)phase * t->ngroups + group) * t->nloaders + loader];
}

void amd_step_data_share(const struct amd_step_time *t, size_t loader,
			 struct amd_step_share *out)
{
	*out = (struct amd_step_share){-1, -1, 0, 0};
	for (size_t k = 0; k < t->ngroups; k++) {
		double total = 0;
		for (int ph = 0; ph < AMD_STEP_PHASES; ph++) {
			double v = amd_step_ms(t, ph, k, loader);
			total += amd_num_ok(v) ? v : 0;
		}
		double data = amd_step_ms(t, 0, k, loader);
		if (!amd_num_ok(data) || total <= 0)
			continue;
		double share = data / total;
		if (out->hi < 0 || share > out->share_hi)
			out->hi = (long)k, out->share_hi = share;
		if (out->lo < 0 || share < out->share_lo)
			out->lo = (long)k, out->share_lo = share;
	}
}
