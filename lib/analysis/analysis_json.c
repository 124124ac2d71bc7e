/* analysis_json.c — the statistics of a sweep (analysis.h) as JSON
 * (cJSON): the one shape `amdahl stats --json` prints and report.json
 * builds on, a point's statistics taken from the registry (statistic.h);
 * and the helpers of the JSON contract every document keeps
 * (analysis_json.h). Non-finite numbers are written as null. Every add is
 * checked: a tree that could not be built whole is not returned. */
#include "analysis_json.h"

#include <math.h>
#include <stdio.h>

#include "num.h"
#include "run.h"
#include "statistic.h"

cJSON *amd_json_num(cJSON *o, const char *k, double v)
{
	if (amd_num_ok(v))
		return cJSON_AddNumberToObject(o, k, v);
	return cJSON_AddNullToObject(o, k);
}

cJSON *amd_json_str(cJSON *o, const char *k, const char *s)
{
	return s ? cJSON_AddStringToObject(o, k, s) : cJSON_AddNullToObject(o, k);
}

cJSON *amd_json_interval(cJSON *o, const char *k, int valid, double lo, double hi, double level)
{
	if (!valid || !amd_num_ok(lo) || !amd_num_ok(hi))
		return cJSON_AddNullToObject(o, k);
	cJSON *ci = cJSON_CreateObject();
	if (ci && cJSON_AddNumberToObject(ci, "lo", lo) && cJSON_AddNumberToObject(ci, "hi", hi) &&
	    amd_json_num(ci, "level", level) && cJSON_AddItemToObject(o, k, ci))
		return ci;
	cJSON_Delete(ci);
	return NULL;
}

int amd_json_ci(cJSON *o, const char *k, const struct amd_ci *ci, double level)
{
	char why[96];
	snprintf(why, sizeof why, "%s_why", k);
	int made = ci->valid && amd_num_ok(ci->lo) && amd_num_ok(ci->hi);
	if (made && ci->level > 0)
		level = ci->level; /* its own: an order-statistic interval's exact level */
	if (!amd_json_interval(o, k, made, ci->lo, ci->hi, level))
		return -1;
	return amd_json_str(o, why, made ? NULL : ci->why) ? 0 : -1;
}

int amd_json_versioned(cJSON *doc)
{
	if (!cJSON_IsObject(doc))
		return -1;
	cJSON *v = cJSON_CreateNumber(AMD_JSON_SCHEMA_VERSION);
	if (!v)
		return -1;
	if (!cJSON_AddItemToObject(doc, "schema_version", v)) {
		cJSON_Delete(v);
		return -1;
	}
	/* moved to the front, so every document opens with its version */
	cJSON_DetachItemViaPointer(doc, v);
	return cJSON_InsertItemInArray(doc, 0, v) ? 0 : (cJSON_Delete(v), -1);
}

/* A tree being built: ok falls to 0 at the first add that fails (out of
 * memory, or a parent that could not be made), and the caller drops the
 * tree then. */
struct jb {
	int ok;
};

static cJSON *put(struct jb *b, cJSON *item)
{
	if (!item)
		b->ok = 0;
	return item;
}

static void num(struct jb *b, cJSON *o, const char *k, double v)
{
	if (!amd_json_num(o, k, v))
		b->ok = 0;
}

/* Attaches child under k (k NULL: appends it to the array o). */
static void child(struct jb *b, cJSON *o, const char *k, cJSON *c)
{
	int added = c && (k ? cJSON_AddItemToObject(o, k, c) : cJSON_AddItemToArray(o, c));
	if (!added) {
		cJSON_Delete(c);
		b->ok = 0;
	}
}

/* o when every add into it worked, else NULL (o deleted). */
static cJSON *done(struct jb *b, cJSON *o)
{
	if (b->ok && o)
		return o;
	cJSON_Delete(o);
	return NULL;
}

/* An interval of the sweep's; one refused without a reason says "not computed". */
static void ci(struct jb *b, cJSON *o, const char *k, const struct amd_ci *c, double level)
{
	struct amd_ci x = *c;
	if (!x.why)
		x.why = "not computed";
	if (amd_json_ci(o, k, &x, x.level > 0 ? x.level : level) < 0)
		b->ok = 0;
}

static cJSON *run_json(const struct amd_run_value *r)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddStringToObject(o, "id", r->ext_id));
	put(&b, cJSON_AddStringToObject(o, "name", r->name));
	put(&b, cJSON_AddStringToObject(o, "strategy", r->strategy));
	num(&b, o, "n", r->n);
	put(&b, cJSON_AddNumberToObject(o, "repeat", r->repeat));
	put(&b, cJSON_AddStringToObject(o, "status", amd_status_name(r->status)));
	num(&b, o, "value", r->value);
	put(&b, cJSON_AddNumberToObject(o, "epochs_kept", r->epochs_kept));
	put(&b, cJSON_AddNumberToObject(o, "epochs_total", r->epochs_total));
	put(&b, cJSON_AddStringToObject(o, "excluded", r->excluded ? r->excluded : ""));
	put(&b, cJSON_AddStringToObject(o, "flagged", r->flagged ? r->flagged : ""));
	static const char *const rule[] = {"none", "trace window overlap",
					   "run has traces, window unknown: last epoch"};
	put(&b, cJSON_AddStringToObject(o, "profiled_rule", rule[r->profiled_rule % 3]));
	num(&b, o, "throughput", r->throughput);
	num(&b, o, "samples", r->samples);
	num(&b, o, "time_s", r->time_s);
	num(&b, o, "energy_epoch_j", r->energy_epoch_j);
	num(&b, o, "energy_run_j", r->energy_run_j);
	num(&b, o, "energy_kept_j", r->energy_kept_j);
	num(&b, o, "power_w", r->power_w);
	num(&b, o, "util_pct", r->util_pct);
	return done(&b, o);
}

static cJSON *point_json(const struct amd_point_stats *p, double level)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	num(&b, o, "n", p->n);
	put(&b, cJSON_AddNumberToObject(o, "runs", (double)p->nruns));
	put(&b, cJSON_AddNumberToObject(o, "excluded_runs", (double)p->nexcluded_runs));
	/* every point statistic of the registry, its interval beside it */
	for (size_t i = 0; i < amd_nstatistics; i++) {
		const struct amd_statistic *st = &amd_statistics[i];
		if (!st->key || !st->point)
			continue;
		num(&b, o, st->key, st->point(p));
		if (st->interval_key)
			ci(&b, o, st->interval_key, st->point_ci(p), level);
	}
	put(&b, cJSON_AddBoolToObject(o, "has_trace", p->has_trace));
	cJSON *ph = put(&b, cJSON_AddObjectToObject(o, "phase_share"));
	for (int i = 0; i < AMD_PHASE_COUNT; i++)
		num(&b, ph, amd_phase_names[i], p->phase_share[i]);
	num(&b, o, "comp_fraction", p->comp_fraction);
	num(&b, o, "comm_share", p->comm_share);
	num(&b, o, "straggler_ns", p->straggler_ns);
	cJSON *runs = put(&b, cJSON_AddArrayToObject(o, "run_values"));
	for (size_t i = 0; i < p->nruns; i++)
		child(&b, runs, NULL, run_json(&p->runs[i]));
	return done(&b, o);
}

/* Every key is there; a fit that failed has why and nulls. */
static cJSON *fit_json(const struct amd_fit *f, int amdahl, double level)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddBoolToObject(o, "ok", f->ok));
	put(&b, amd_json_str(o, "why", f->ok ? NULL : f->why));
	double unfit = f->ok ? 0 : NAN; /* added to each figure: null without a fit */
	if (amdahl) {
		num(&b, o, "a", f->a + unfit);
		num(&b, o, "b", f->b + unfit);
		num(&b, o, "serial_fraction", f->serial_fraction + unfit);
		struct amd_ci none = {0};
		none.why = "no fit";
		ci(&b, o, "serial_fraction_ci", f->ok ? &f->ci_serial : &none, level);
		num(&b, o, "r2", f->r2 + unfit);
	} else {
		num(&b, o, "alpha", f->alpha + unfit);
		num(&b, o, "beta", f->beta + unfit);
		num(&b, o, "gamma", f->gamma + unfit);
		num(&b, o, "n_peak", f->n_peak + unfit);
		put(&b, amd_json_str(o, "peak_why", f->ok && f->peak_why[0] ? f->peak_why : NULL));
		put(&b, cJSON_AddBoolToObject(o, "bounded", f->ok && f->bounded));
		num(&b, o, "unconstrained_alpha", f->free_alpha + unfit);
		num(&b, o, "unconstrained_beta", f->free_beta + unfit);
	}
	return done(&b, o);
}

static cJSON *strategy_json(const struct amd_strategy_stats *st, double level)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddStringToObject(o, "strategy", st->strategy));
	cJSON *base = put(&b, cJSON_AddObjectToObject(o, "base"));
	num(&b, base, "n", st->base_n);
	num(&b, base, "value", st->base_value);
	cJSON *pts = put(&b, cJSON_AddArrayToObject(o, "points"));
	for (size_t p = 0; p < st->npoints; p++)
		child(&b, pts, NULL, point_json(&st->points[p], level));
	child(&b, o, "amdahl", fit_json(&st->amdahl, 1, level));
	child(&b, o, "usl", fit_json(&st->usl, 0, level));
	return done(&b, o);
}

cJSON *amd_sweep_stats_json(const struct amd_sweep_stats *s)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddStringToObject(o, "sweep", s->sweep));
	put(&b, cJSON_AddStringToObject(o, "metric", s->metric));
	put(&b, cJSON_AddStringToObject(o, "axis", s->axis));
	put(&b, cJSON_AddBoolToObject(o, "higher_is_better", s->higher_is_better));
	put(&b, cJSON_AddBoolToObject(o, "scaling", s->scaling));
	put(&b, amd_json_str(o, "note", *s->note ? s->note : NULL));
	put(&b, cJSON_AddStringToObject(o, "rules", s->rules));
	cJSON *op = put(&b, cJSON_AddObjectToObject(o, "options"));
	put(&b, cJSON_AddNumberToObject(op, "resamples", s->resamples));
	put(&b, cJSON_AddNumberToObject(op, "seed", (double)s->seed));
	put(&b, cJSON_AddNumberToObject(op, "level", s->level));
	put(&b, cJSON_AddNumberToObject(op, "mad_k", s->mad_k));
	/* a point's "median" holds this aggregate of its runs */
	put(&b, cJSON_AddStringToObject(op, "aggregate", amd_aggregate_name(s->aggregate)));
	put(&b, cJSON_AddBoolToObject(op, "keep_first", s->keep_first));
	put(&b, cJSON_AddBoolToObject(op, "keep_profiled", s->keep_profiled));
	put(&b, cJSON_AddStringToObject(op, "ci_method", "percentile bootstrap (gsl mt19937)"));
	put(&b, cJSON_AddStringToObject(op, "serial_fraction_ci_method", "bootstrap over runs"));
	put(&b, cJSON_AddNumberToObject(o, "runs_total", (double)s->nruns_total));
	put(&b, cJSON_AddNumberToObject(o, "runs_excluded", (double)s->nruns_excluded));
	put(&b, cJSON_AddBoolToObject(o, "has_energy", s->has_energy));
	put(&b, cJSON_AddBoolToObject(o, "has_traces", s->has_traces));
	put(&b, cJSON_AddBoolToObject(o, "has_util", s->has_util));
	put(&b, cJSON_AddNumberToObject(o, "runs_gpu_from_nvidia_smi", (double)s->nruns_nvsmi));
	cJSON *arr = put(&b, cJSON_AddArrayToObject(o, "strategies"));
	for (size_t i = 0; i < s->nstrategies; i++)
		child(&b, arr, NULL, strategy_json(&s->strategies[i], s->level));
	cJSON *ex = put(&b, cJSON_AddArrayToObject(o, "excluded"));
	for (size_t i = 0; i < s->nexcluded; i++)
		child(&b, ex, NULL, run_json(&s->excluded[i]));
	return done(&b, o);
}
