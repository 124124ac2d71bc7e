/* analysis_json.c — the statistics of a sweep (analysis.h) as JSON
 * (cJSON): the one shape `amdahl stats --json` prints and report.json
 * builds on. Non-finite numbers are written as null. Every add is
 * checked: a tree that could not be built whole is not returned. */
#include "analysis_json.h"

#include <math.h>

#include "num.h"
#include "run.h"

cJSON *amd_json_num(cJSON *o, const char *k, double v)
{
	if (amd_num_ok(v))
		return cJSON_AddNumberToObject(o, k, v);
	return cJSON_AddNullToObject(o, k);
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

cJSON *amd_ci_json(const struct amd_ci *ci)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddBoolToObject(o, "valid", ci->valid));
	if (ci->valid) {
		num(&b, o, "lo", ci->lo);
		num(&b, o, "hi", ci->hi);
	} else
		put(&b, cJSON_AddStringToObject(o, "why", ci->why ? ci->why : "not computed"));
	return done(&b, o);
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

static cJSON *point_json(const struct amd_point_stats *p)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	num(&b, o, "n", p->n);
	put(&b, cJSON_AddNumberToObject(o, "runs", (double)p->nruns));
	put(&b, cJSON_AddNumberToObject(o, "excluded_runs", (double)p->nexcluded_runs));
	num(&b, o, "median", p->median);
	num(&b, o, "mean", p->mean);
	num(&b, o, "sd", p->sd);
	num(&b, o, "cv", p->cv);
	num(&b, o, "min", p->min);
	num(&b, o, "max", p->max);
	child(&b, o, "ci", amd_ci_json(&p->ci));
	child(&b, o, "mean_ci_t", amd_ci_json(&p->ci_mean_t));
	num(&b, o, "speedup", p->speedup);
	child(&b, o, "speedup_ci", amd_ci_json(&p->ci_speedup));
	num(&b, o, "efficiency", p->efficiency);
	child(&b, o, "efficiency_ci", amd_ci_json(&p->ci_efficiency));
	num(&b, o, "karp_flatt", p->karp_flatt);
	num(&b, o, "throughput", p->throughput);
	num(&b, o, "energy_epoch_j", p->energy_epoch_j);
	num(&b, o, "energy_solution_j", p->energy_solution_j);
	num(&b, o, "energy_per_sample_j", p->energy_per_sample_j);
	num(&b, o, "power_w", p->power_w);
	num(&b, o, "util_pct", p->util_pct);
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

static cJSON *fit_json(const struct amd_fit *f, int amdahl)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddBoolToObject(o, "ok", f->ok));
	if (!f->ok) {
		put(&b, cJSON_AddStringToObject(o, "why", f->why));
		return done(&b, o);
	}
	if (amdahl) {
		num(&b, o, "a", f->a);
		num(&b, o, "b", f->b);
		num(&b, o, "serial_fraction", f->serial_fraction);
		child(&b, o, "serial_fraction_ci", amd_ci_json(&f->ci_serial));
		num(&b, o, "r2", f->r2);
	} else {
		num(&b, o, "alpha", f->alpha);
		num(&b, o, "beta", f->beta);
		num(&b, o, "gamma", f->gamma);
		num(&b, o, "n_peak", f->n_peak);
	}
	return done(&b, o);
}

static cJSON *strategy_json(const struct amd_strategy_stats *st)
{
	struct jb b = {1};
	cJSON *o = put(&b, cJSON_CreateObject());
	put(&b, cJSON_AddStringToObject(o, "strategy", st->strategy));
	cJSON *base = put(&b, cJSON_AddObjectToObject(o, "base"));
	num(&b, base, "n", st->base_n);
	num(&b, base, "value", st->base_value);
	cJSON *pts = put(&b, cJSON_AddArrayToObject(o, "points"));
	for (size_t p = 0; p < st->npoints; p++)
		child(&b, pts, NULL, point_json(&st->points[p]));
	child(&b, o, "amdahl", fit_json(&st->amdahl, 1));
	child(&b, o, "usl", fit_json(&st->usl, 0));
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
	if (*s->note)
		put(&b, cJSON_AddStringToObject(o, "note", s->note));
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
		child(&b, arr, NULL, strategy_json(&s->strategies[i]));
	cJSON *ex = put(&b, cJSON_AddArrayToObject(o, "excluded"));
	for (size_t i = 0; i < s->nexcluded; i++)
		child(&b, ex, NULL, run_json(&s->excluded[i]));
	return done(&b, o);
}
