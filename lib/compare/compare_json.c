/* compare_json.c — a comparison row as JSON (cJSON): the one shape that
 * `amdahl compare --json`, `amdahl gate --json` and the "gate" object of
 * report.json share. */
#include "compare_json.h"

#include "analysis_json.h"

static cJSON *side_json(const double *v, size_t n, double median)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "runs", (double)n);
	amd_json_num(o, "median", median);
	cJSON *arr = cJSON_AddArrayToObject(o, "values");
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[i]));
	return o;
}

cJSON *amd_compare_row_json(const struct amd_cmp_row *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "metric", r->metric);
	cJSON_AddStringToObject(o, "strategy", r->strategy);
	cJSON_AddStringToObject(o, "candidate_strategy", r->cand_strategy);
	cJSON_AddNumberToObject(o, "n", r->n);
	cJSON_AddBoolToObject(o, "gated", r->gated);
	cJSON_AddStringToObject(o, "direction", amd_direction_name(r->dir));
	cJSON_AddNumberToObject(o, "threshold", r->threshold);
	cJSON_AddNumberToObject(o, "alpha", r->alpha);
	cJSON_AddItemToObject(o, "baseline", side_json(r->base, r->nb, r->med_base));
	cJSON_AddItemToObject(o, "candidate", side_json(r->cand, r->nc, r->med_cand));
	amd_json_num(o, "ratio", r->ratio);
	if (r->ci.valid) {
		cJSON *ci = cJSON_AddObjectToObject(o, "ci");
		cJSON_AddNumberToObject(ci, "lo", r->ci.lo);
		cJSON_AddNumberToObject(ci, "hi", r->ci.hi);
	} else {
		cJSON_AddNullToObject(o, "ci");
		if (r->ci.why)
			cJSON_AddStringToObject(o, "ci_note", r->ci.why);
	}
	if (r->verdict != AMD_MISSING) {
		cJSON_AddNumberToObject(o, "u", r->mwu.u);
		cJSON_AddNumberToObject(o, "p", r->mwu.p);
		cJSON_AddStringToObject(o, "method", r->mwu.exact ? "exact" : "asymptotic");
		cJSON_AddBoolToObject(o, "ties", r->mwu.ties);
	}
	cJSON_AddNumberToObject(o, "p_min", r->p_min);
	amd_json_num(o, "p_adjusted", r->p_adj);
	cJSON_AddStringToObject(o, "verdict", amd_row_verdict(r));
	if (r->verdict == AMD_INSUFFICIENT)
		cJSON_AddNumberToObject(o, "runs_needed_per_side", r->runs_needed);
	if (r->note[0])
		cJSON_AddStringToObject(o, "note", r->note);
	return o;
}

