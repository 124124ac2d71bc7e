/* analysis_json.c — the statistics of a sweep (lib/analysis.h) as JSON
 * (cJSON): the one shape `amdahl stats --json` prints and report.json
 * builds on. Non-finite numbers are written as null. */
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

cJSON *amd_ci_json(const struct amd_ci *ci)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "valid", ci->valid);
	if (ci->valid) {
		amd_json_num(o, "lo", ci->lo);
		amd_json_num(o, "hi", ci->hi);
	} else
		cJSON_AddStringToObject(o, "why", ci->why ? ci->why : "not computed");
	return o;
}

static cJSON *run_json(const struct amd_run_value *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", r->ext_id);
	cJSON_AddStringToObject(o, "name", r->name);
	cJSON_AddStringToObject(o, "strategy", r->strategy);
	amd_json_num(o, "n", r->n);
	cJSON_AddNumberToObject(o, "repeat", r->repeat);
	cJSON_AddStringToObject(o, "status", amd_status_name(r->status));
	amd_json_num(o, "value", r->value);
	cJSON_AddNumberToObject(o, "epochs_kept", r->epochs_kept);
	cJSON_AddNumberToObject(o, "epochs_total", r->epochs_total);
	cJSON_AddStringToObject(o, "excluded", r->excluded ? r->excluded : "");
	cJSON_AddStringToObject(o, "flagged", r->flagged ? r->flagged : "");
	static const char *const rule[] = {"none", "trace window overlap",
					   "run has traces, window unknown: last epoch"};
	cJSON_AddStringToObject(o, "profiled_rule", rule[r->profiled_rule % 3]);
	amd_json_num(o, "throughput", r->throughput);
	amd_json_num(o, "samples", r->samples);
	amd_json_num(o, "time_s", r->time_s);
	amd_json_num(o, "energy_epoch_j", r->energy_epoch_j);
	amd_json_num(o, "energy_run_j", r->energy_run_j);
	amd_json_num(o, "energy_kept_j", r->energy_kept_j);
	amd_json_num(o, "power_w", r->power_w);
	amd_json_num(o, "util_pct", r->util_pct);
	return o;
}

static cJSON *point_json(const struct amd_point_stats *p)
{
	cJSON *o = cJSON_CreateObject();
	amd_json_num(o, "n", p->n);
	cJSON_AddNumberToObject(o, "runs", (double)p->nruns);
	cJSON_AddNumberToObject(o, "excluded_runs", (double)p->nexcluded_runs);
	amd_json_num(o, "median", p->median);
	amd_json_num(o, "mean", p->mean);
	amd_json_num(o, "sd", p->sd);
	amd_json_num(o, "cv", p->cv);
	amd_json_num(o, "min", p->min);
	amd_json_num(o, "max", p->max);
	cJSON_AddItemToObject(o, "ci", amd_ci_json(&p->ci));
	cJSON_AddItemToObject(o, "mean_ci_t", amd_ci_json(&p->ci_mean_t));
	amd_json_num(o, "speedup", p->speedup);
	cJSON_AddItemToObject(o, "speedup_ci", amd_ci_json(&p->ci_speedup));
	amd_json_num(o, "efficiency", p->efficiency);
	cJSON_AddItemToObject(o, "efficiency_ci", amd_ci_json(&p->ci_efficiency));
	amd_json_num(o, "karp_flatt", p->karp_flatt);
	amd_json_num(o, "throughput", p->throughput);
	amd_json_num(o, "energy_epoch_j", p->energy_epoch_j);
	amd_json_num(o, "energy_solution_j", p->energy_solution_j);
	amd_json_num(o, "energy_per_sample_j", p->energy_per_sample_j);
	amd_json_num(o, "power_w", p->power_w);
	amd_json_num(o, "util_pct", p->util_pct);
	cJSON_AddBoolToObject(o, "has_trace", p->has_trace);
	cJSON *ph = cJSON_AddObjectToObject(o, "phase_share");
	for (int i = 0; i < AMD_PHASE_COUNT; i++)
		amd_json_num(ph, amd_phase_names[i], p->phase_share[i]);
	amd_json_num(o, "comp_fraction", p->comp_fraction);
	amd_json_num(o, "comm_share", p->comm_share);
	amd_json_num(o, "straggler_ns", p->straggler_ns);
	cJSON *runs = cJSON_AddArrayToObject(o, "run_values");
	for (size_t i = 0; i < p->nruns; i++)
		cJSON_AddItemToArray(runs, run_json(&p->runs[i]));
	return o;
}

static cJSON *fit_json(const struct amd_fit *f, int amdahl)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", f->ok);
	if (!f->ok) {
		cJSON_AddStringToObject(o, "why", f->why);
		return o;
	}
	if (amdahl) {
		amd_json_num(o, "a", f->a);
		amd_json_num(o, "b", f->b);
		amd_json_num(o, "serial_fraction", f->serial_fraction);
		cJSON_AddItemToObject(o, "serial_fraction_ci", amd_ci_json(&f->ci_serial));
		amd_json_num(o, "r2", f->r2);
	} else {
		amd_json_num(o, "alpha", f->alpha);
		amd_json_num(o, "beta", f->beta);
		amd_json_num(o, "gamma", f->gamma);
		amd_json_num(o, "n_peak", f->n_peak);
	}
	return o;
}

cJSON *amd_sweep_stats_json(const struct amd_sweep_stats *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "sweep", s->sweep);
	cJSON_AddStringToObject(o, "metric", s->metric);
	cJSON_AddStringToObject(o, "axis", s->axis);
	cJSON_AddBoolToObject(o, "higher_is_better", s->higher_is_better);
	cJSON_AddBoolToObject(o, "scaling", s->scaling);
	if (*s->note)
		cJSON_AddStringToObject(o, "note", s->note);
	cJSON_AddStringToObject(o, "rules", s->rules);
	cJSON *op = cJSON_AddObjectToObject(o, "options");
	cJSON_AddNumberToObject(op, "resamples", s->resamples);
	cJSON_AddNumberToObject(op, "seed", (double)s->seed);
	cJSON_AddNumberToObject(op, "level", s->level);
	cJSON_AddNumberToObject(op, "mad_k", s->mad_k);
	cJSON_AddBoolToObject(op, "keep_first", s->keep_first);
	cJSON_AddBoolToObject(op, "keep_profiled", s->keep_profiled);
	cJSON_AddStringToObject(op, "ci_method", "percentile bootstrap (gsl mt19937)");
	cJSON_AddStringToObject(op, "serial_fraction_ci_method", "bootstrap over runs");
	cJSON_AddNumberToObject(o, "runs_total", (double)s->nruns_total);
	cJSON_AddNumberToObject(o, "runs_excluded", (double)s->nruns_excluded);
	cJSON_AddBoolToObject(o, "has_energy", s->has_energy);
	cJSON_AddBoolToObject(o, "has_traces", s->has_traces);
	cJSON_AddBoolToObject(o, "has_util", s->has_util);
	cJSON *arr = cJSON_AddArrayToObject(o, "strategies");
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		cJSON *so = cJSON_CreateObject();
		cJSON_AddStringToObject(so, "strategy", st->strategy);
		cJSON *b = cJSON_AddObjectToObject(so, "base");
		amd_json_num(b, "n", st->base_n);
		amd_json_num(b, "value", st->base_value);
		cJSON *pts = cJSON_AddArrayToObject(so, "points");
		for (size_t p = 0; p < st->npoints; p++)
			cJSON_AddItemToArray(pts, point_json(&st->points[p]));
		cJSON_AddItemToObject(so, "amdahl", fit_json(&st->amdahl, 1));
		cJSON_AddItemToObject(so, "usl", fit_json(&st->usl, 0));
		cJSON_AddItemToArray(arr, so);
	}
	cJSON *ex = cJSON_AddArrayToObject(o, "excluded");
	for (size_t i = 0; i < s->nexcluded; i++)
		cJSON_AddItemToArray(ex, run_json(&s->excluded[i]));
	return o;
}
