/* analysis.c — amd_analyse (analysis.h): picks the sweep, applies the
 * options, evaluates each run (analysis_run.c, with its energy from
 * analysis_energy.c), builds the per configuration and per strategy
 * statistics of the runs that count (analysis_points.c) and lists those
 * left out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_points.h"
#include "analysis_run.h"
#include "pooled.h"
#include "buf.h"
#include "run_facts.h"
#include "runs.h"
#include "selector.h"
#include "store_read.h"
#include "store.h"
#include "sweep_keys.h"

static int metric_higher_is_better(const char *m)
{
	return strstr(m, "throughput") || strstr(m, "per_s") || strstr(m, "samples_s");
}

/* ---- the sweep ---- */

/* The names of the sweeps, ", "-separated, in *names; -1 out of memory. */
static int sweep_names(const struct amd_sweep_view *sw, size_t n, struct amd_buf *names)
{
	for (size_t i = 0; i < n; i++)
		if (amd_buf_printf(names, "%s%s", i ? ", " : "", sw[i].name) < 0)
			return -1;
	return 0;
}

/* "S: no sweep named 'x' (sweeps: a, b); closest: 'a'", or without the
 * list when the sweeps are many and one is near (amd_sweeps_closest). */
static int no_sweep(struct amd_store *st, const char *want, const struct amd_sweep_view *sw,
		    size_t n, const char *names, struct amd_err *err)
{
	char near[512];
	if (amd_sweeps_closest(sw, n, want, near, sizeof near))
		return amd_fail(err, "%s: no sweep named '%s' (sweeps: %s)%s", amd_store_path(st),
				want, names, near);
	return amd_fail(err, "%s: no sweep named '%s'%s (%zu sweeps)", amd_store_path(st), want, near,
			n);
}

/* The sweep named want, or the only one when want is NULL; 1 (and *out
 * NULL) when want names no sweep but is a selector (selector.h). */
static int pick_sweep_in(struct amd_store *st, const char *want, char **out,
			 struct amd_err *err)
{
	struct amd_sweep_view *sw;
	size_t n;
	*out = NULL;
	if (amd_sweeps_list(st, &sw, &n, err) < 0)
		return -1;
	const char *found = !want && n == 1 ? sw[0].name : NULL;
	for (size_t i = 0; want && i < n; i++)
		if (strcmp(sw[i].name, want) == 0)
			found = want;
	struct amd_buf names = {0};
	int rc = 0;
	if (found)
		rc = (*out = strdup(found)) ? 0 : amd_fail(err, "out of memory");
	else if (want && amd_selector_is(want))
		rc = 1;
	else if (n == 0)
		rc = amd_fail(err, "%s: no sweeps in the store; 'amdahl ingest PATH' loads some",
			      amd_store_path(st));
	else if (sweep_names(sw, n, &names) < 0)
		rc = amd_fail(err, "out of memory");
	else if (want)
		rc = no_sweep(st, want, sw, n, names.data, err);
	else
		rc = amd_fail(err, "%s: %zu sweeps (%s); name one with --sweep", amd_store_path(st), n,
			      names.data);
	amd_buf_free(&names);
	amd_sweeps_free(sw, n);
	return rc;
}

/* pick_sweep_in; on a part of a store (store.h) that lacks the sweep,
 * the error lists the whole store's sweeps, as on SQLite. */
static int pick_sweep(struct amd_store *st, const char *want, char **out,
		      struct amd_err *err)
{
	struct amd_store *whole;
	int rc = pick_sweep_in(st, want, out, err);
	if (rc >= 0 || amd_store_whole(st, &whole, err) < 0 || whole == st)
		return rc;
	rc = pick_sweep_in(whole, want, out, err);
	amd_store_close(whole);
	if (rc == 0) {
		free(*out);
		*out = NULL;
		return amd_fail(err, "%s: sweep '%s' is not in the part read", amd_store_path(st), want);
	}
	return rc;
}

static void resolve_opts(const struct amd_analysis_opts *in, struct analysis_opts *o)
{
	o->metric = in->metric && *in->metric ? in->metric : "epoch_time_s";
	o->world = in->axis && strcmp(in->axis, "n") == 0;
	o->axis = in->axis && *in->axis && !o->world ? in->axis : NULL;
	o->keep_first = in->keep_first;
	o->keep_profiled = in->keep_profiled;
	o->mad_k = in->mad_k > 0 ? in->mad_k : 3.5;
	o->boot.resamples = in->resamples >= 2000 ? in->resamples : in->resamples ? 2000 : 4000;
	o->boot.seed = in->seed ? in->seed : 20260101UL;
	o->boot.level = in->level > 0 && in->level < 1 ? in->level : 0.95;
	o->boot.aggregate = in->aggregate;
	o->colls = in->colls;
}

int amd_analysis_is(const struct amd_sweep_stats *s, const struct amd_analysis_opts *o)
{
	struct analysis_opts r;
	resolve_opts(o, &r);
	return s && o->sweep && s->sweep && strcmp(s->sweep, o->sweep) == 0
		&& strcmp(s->metric, r.metric) == 0 && s->scaling == (r.axis == NULL)
		&& strcmp(s->axis, r.axis ? r.axis : "n") == 0 && s->keep_first == r.keep_first
		&& s->keep_profiled == r.keep_profiled && s->mad_k == r.mad_k
		&& s->resamples == r.boot.resamples && s->seed == r.boot.seed
		&& s->level == r.boot.level && s->aggregate == r.boot.aggregate;
}

static void write_rules(struct amd_sweep_stats *sw, const struct analysis_opts *o)
{
	char ex[200] = "";
	if (!o->keep_first && !o->keep_profiled)
		snprintf(ex, sizeof ex, "excluding epoch 0 (warm-up) and epochs overlapping a"
			 " profiler trace window (a run with traces of unknown window: its last epoch)");
	else if (!o->keep_first)
		snprintf(ex, sizeof ex, "excluding epoch 0 (warm-up), keeping profiled epochs");
	else if (!o->keep_profiled)
		snprintf(ex, sizeof ex, "keeping epoch 0, excluding epochs overlapping a profiler"
			 " trace window");
	else
		snprintf(ex, sizeof ex, "keeping every epoch");
	char agg[128] = ""; /* the default (median) says nothing: the text as before */
	if (o->boot.aggregate != AMD_AGG_MEDIAN)
		snprintf(agg, sizeof agg, " Per configuration: %s.",
			 amd_aggregate_rule(o->boot.aggregate));
	snprintf(sw->rules, sizeof sw->rules,
		 "Per run: median %s of its epochs, %s; epochs with modified z-score"
		 " 0.6745|x-median|/MAD > %g are flagged, not dropped.%s"
		 " %g%% CIs: percentile"
		 " bootstrap, %d resamples, mt19937 seed %lu (speedup: both samples resampled;"
		 " Amdahl serial fraction: runs resampled per n, refitted); fewer than 3 runs: no CI.",
		 o->metric, ex, o->mad_k, agg,
		 o->boot.level * 100, o->boot.resamples, o->boot.seed);
}

static void sweep_flags(struct amd_sweep_stats *sw, struct analysis_run *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!w[i].ok)
			continue;
		sw->has_energy |= isfinite(w[i].v.energy_run_j);
		sw->has_traces |= w[i].has_trace;
		sw->ntraces_gpu += w[i].ntraces_gpu;
		sw->ntraces_cpu += w[i].ntraces_cpu;
		sw->has_util |= isfinite(w[i].v.util_pct);
		sw->nruns_nvsmi += w[i].v.gpu_from_nvsmi == 1;
	}
	for (size_t s = 0; s < sw->nstrategies; s++)
		for (size_t p = 0; p < sw->strategies[s].npoints; p++) {
			struct amd_point_stats *ps = &sw->strategies[s].points[p];
			for (size_t i = 0; i < n; i++)
				ps->nexcluded_runs += !w[i].ok && strcmp(w[i].v.strategy, ps->strategy) == 0 &&
						      w[i].v.n == ps->n;
		}
}

static int collect_excluded(struct amd_sweep_stats *sw, struct analysis_run *w, size_t n)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += !w[i].ok;
	sw->excluded = calloc(count ? count : 1, sizeof *sw->excluded);
	if (!sw->excluded)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!w[i].ok && analysis_value_copy(&sw->excluded[sw->nexcluded++], &w[i].v) < 0) {
			sw->nexcluded--;
			return -1;
		}
	sw->nruns_total = n;
	sw->nruns_excluded = sw->nexcluded;
	return 0;
}

/* Each run evaluated: first from the server's reductions, then the
 * runs left to their points, read in that order after the store is told
 * which (amd_store_plan_reads: a remote store loads many in a query). */
static int evaluate_runs(struct amd_store *st, struct analysis_run *w, size_t n,
			 const struct analysis_opts *o, struct amd_err *err)
{
	int64_t *plan = calloc(n ? n : 1, sizeof *plan);
	size_t nplan = 0;
	int rc = plan ? 0 : amd_fail(err, "out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++)
		if ((rc = analysis_run_evaluate(st, &w[i], o, err)) == 0 && w[i].reads_points)
			plan[nplan++] = w[i].rv->id;
	if (rc == 0)
		rc = amd_store_plan_reads(st, plan, nplan, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = analysis_run_read_points(st, &w[i], o, err);
	free(plan);
	amd_store_plan_reads(st, NULL, 0, err);
	return rc;
}

static int analyse_runs(struct amd_store *st, struct amd_sweep_stats *sw,
			struct analysis_run *w, size_t n, const struct analysis_opts *o,
			struct amd_err *err)
{
	struct analysis_run **inc = calloc(n ? n : 1, sizeof *inc);
	if (!inc)
		return amd_fail(err, "out of memory");
	size_t ninc = 0;
	if (evaluate_runs(st, w, n, o, err) < 0) {
		free(inc);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (w[i].ok)
			inc[ninc++] = &w[i];
	qsort(inc, ninc, sizeof *inc, analysis_cmp_runs);
	int rc = analysis_build_strategies(sw, inc, ninc, o) < 0 || collect_excluded(sw, w, n) < 0
		? amd_fail(err, "out of memory") : 0;
	if (rc == 0)
		sweep_flags(sw, w, n);
	if (rc == 0)
		rc = amd_sweep_mark_pooled(st, sw, err);
	free(inc);
	return rc;
}

static int sweep_setup(struct amd_sweep_stats *sw, const struct analysis_opts *o)
{
	sw->metric = strdup(o->metric);
	sw->axis = strdup(o->axis ? o->axis : "n");
	sw->higher_is_better = metric_higher_is_better(o->metric);
	sw->scaling = o->axis == NULL;
	if (!sw->scaling)
		snprintf(sw->note, sizeof sw->note,
			 "axis is %s, not the world size: throughput and energy per sample,"
			 " no speedup or scaling fits", o->axis);
	sw->resamples = o->boot.resamples;
	sw->seed = o->boot.seed;
	sw->level = o->boot.level;
	sw->aggregate = o->boot.aggregate;
	sw->mad_k = o->mad_k;
	sw->keep_first = o->keep_first;
	sw->keep_profiled = o->keep_profiled;
	write_rules(sw, o);
	return sw->metric && sw->axis ? 0 : -1;
}

/* The runs rv[0..n), evaluated, into the statistics. */
static int analyse_sweep(struct amd_store *st, struct amd_sweep_stats *sw,
			 struct amd_run_view *rv, size_t n, const struct analysis_opts *o,
			 struct amd_err *err)
{
	struct analysis_run *w = calloc(n ? n : 1, sizeof *w);
	int rc = w ? 0 : amd_fail(err, "out of memory");
	size_t ready = 0;
	for (; rc == 0 && ready < n; ready++)
		if (analysis_run_init(&w[ready], &rv[ready]) < 0)
			rc = amd_fail(err, "out of memory");
	if (rc == 0)
		rc = analyse_runs(st, sw, w, n, o, err);
	for (size_t i = 0; w && i < ready; i++)
		analysis_run_release(&w[i]);
	free(w);
	return rc;
}

/* The one sweep the n runs rv belong to, NULL when several (or none). */
static const char *one_sweep(const struct amd_run_view *rv, size_t n)
{
	const char *sweep = n ? rv[0].sweep : NULL;
	for (size_t i = 1; i < n && sweep; i++)
		if (!rv[i].sweep || strcmp(rv[i].sweep, sweep) != 0)
			sweep = NULL;
	return sweep;
}

/* Copies of the runs given (amd_analysis_opts.runs) into *rv, with
 * pick_runs' label and sweep. */
static int given_runs(const struct amd_analysis_opts *in, char **label, const char **axis_sweep,
		      struct amd_run_view **rv, size_t *n, struct amd_err *err)
{
	if (!(*rv = calloc(in->nruns ? in->nruns : 1, sizeof **rv)) ||
	    !(*label = strdup(in->sweep ? in->sweep : "")))
		return amd_fail(err, "out of memory");
	for (; *n < in->nruns; ++*n)
		if (amd_run_view_copy(&(*rv)[*n], &in->runs[*n]) < 0)
			return amd_fail(err, "out of memory");
	*axis_sweep = one_sweep(*rv, *n);
	return 0;
}

/* The sweep's name (or the selector's text) in *label, its runs, and in
 * *axis_sweep the one sweep they belong to (NULL when several). */
static int pick_runs(struct amd_store *st, const struct amd_analysis_opts *in, char **label,
		     const char **axis_sweep, struct amd_run_view **rv, size_t *n,
		     struct amd_err *err)
{
	*rv = NULL;
	*n = 0;
	if (in && in->runs)
		return given_runs(in, label, axis_sweep, rv, n, err);
	const char *want = in ? in->sweep : NULL;
	int rc = pick_sweep(st, want, label, err);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		*axis_sweep = *label;
		return amd_runs_list(st, *label, rv, n, err);
	}
	if (amd_select_runs(st, want, rv, n, err) < 0)
		return -1;
	*axis_sweep = one_sweep(*rv, *n);
	return (*label = strdup(want)) ? 0 : amd_fail(err, "out of memory");
}

static int analyse(struct amd_store *st, const struct amd_analysis_opts *in,
		   struct amd_sweep_stats **out, struct amd_err *err)
{
	*out = NULL;
	struct amd_analysis_opts none = {0};
	struct analysis_opts o;
	resolve_opts(in ? in : &none, &o);
	char *sweep = NULL, *axis = NULL;
	const char *axis_sweep = NULL;
	struct amd_run_view *rv = NULL;
	size_t nrv = 0;
	struct amd_sweep_stats *sw = NULL;
	int rc = pick_runs(st, in, &sweep, &axis_sweep, &rv, &nrv, err);
	/* a --metric or --axis no run has is an error naming the closest */
	if (rc == 0 && in && in->metric && *in->metric)
		rc = amd_keys_require(st, axis_sweep, AMD_KEY_METRIC, in->metric, err);
	if (rc == 0 && o.axis)
		rc = amd_keys_require(st, axis_sweep, AMD_KEY_PARAM, o.axis, err);
	if (rc == 0 && !o.axis && !o.world && axis_sweep)
		rc = amd_store_sweep_axis(st, axis_sweep, &axis, err);
	if (!o.axis)
		o.axis = axis;
	if (rc == 0 && !(sw = calloc(1, sizeof *sw)))
		rc = amd_fail(err, "out of memory");
	if (rc == 0) {
		sw->sweep = sweep;
		sweep = NULL;
		rc = sweep_setup(sw, &o) < 0 ? amd_fail(err, "out of memory")
					     : analyse_sweep(st, sw, rv, nrv, &o, err);
	}
	free(sweep);
	free(axis);
	amd_runs_free(rv, nrv);
	if (rc < 0)
		amd_sweep_stats_free(sw);
	else
		*out = sw;
	return rc;
}

void amd_sweep_stats_free(struct amd_sweep_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nstrategies; i++) {
		struct amd_strategy_stats *st = &s->strategies[i];
		for (size_t p = 0; p < st->npoints; p++) {
			for (size_t r = 0; r < st->points[p].nruns; r++)
				analysis_value_free(&st->points[p].runs[r]);
			free(st->points[p].runs);
			free(st->points[p].strategy);
		}
		free(st->points);
		free(st->strategy);
	}
	free(s->strategies);
	for (size_t i = 0; i < s->nexcluded; i++)
		analysis_value_free(&s->excluded[i]);
	free(s->excluded);
	free(s->sweep);
	free(s->metric);
	free(s->axis);
	free(s);
}

/* The whole analysis reads one snapshot (store_read.h: one lock, not one
 * per query). */
int amd_analyse(struct amd_store *st, const struct amd_analysis_opts *in,
		struct amd_sweep_stats **out, struct amd_err *err)
{
	*out = NULL;
	if (amd_store_read_begin(st, err) < 0)
		return -1;
	int rc = analyse(st, in, out, err);
	amd_store_read_end(st);
	return rc;
}
