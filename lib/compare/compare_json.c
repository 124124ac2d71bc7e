/* compare_json.c — a comparison as JSON and back (cJSON); the shape is
 * described in compare_json.h. Every item added is checked: a document
 * that could not be completed is an error, never a shorter document. */
#include "compare_json.h"

#include <math.h>

#include "analysis_json.h"

static cJSON *side_json(const double *v, size_t n, double median)
{
	cJSON *o = cJSON_CreateObject();
	int ok = o && cJSON_AddNumberToObject(o, "runs", (double)n) &&
		 amd_json_num(o, "median", median);
	cJSON *arr = ok ? cJSON_AddArrayToObject(o, "values") : NULL;
	ok = arr != NULL;
	for (size_t i = 0; ok && i < n; i++)
		ok = cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[i]));
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Adds item under key; deletes it when that fails. 0 or -1. */
static int add_item(cJSON *o, const char *key, cJSON *item)
{
	if (item && cJSON_AddItemToObject(o, key, item))
		return 0;
	cJSON_Delete(item);
	return -1;
}

/* "ci" and "ci_why" (amd_json_ci), at the comparison's level. */
static int add_ci(cJSON *o, const struct amd_cmp_row *r, double level)
{
	return amd_json_ci(o, "ci", &r->ci, level);
}

/* U, p, method and ties: null on rows with one side only. */
static int add_test(cJSON *o, const struct amd_cmp_row *r)
{
	if (r->verdict == AMD_MISSING)
		return cJSON_AddNullToObject(o, "u") && cJSON_AddNullToObject(o, "p") &&
		       cJSON_AddNullToObject(o, "method") && cJSON_AddNullToObject(o, "ties") ? 0 : -1;
	return cJSON_AddNumberToObject(o, "u", r->mwu.u) && cJSON_AddNumberToObject(o, "p", r->mwu.p) &&
	       cJSON_AddStringToObject(o, "method", r->mwu.exact ? "exact" : "asymptotic") &&
	       cJSON_AddBoolToObject(o, "ties", r->mwu.ties) ? 0 : -1;
}

/* detectable_change (null: none with these run counts, or unknown) and
 * likely: "regression" / "improvement" for rows too small for the test. */
static int add_noise(cJSON *o, const struct amd_cmp_row *r)
{
	if (!amd_json_num(o, "detectable_change", isinf(r->detectable) ? NAN : r->detectable))
		return -1;
	if (!amd_json_str(o, "detectable_note", isinf(r->detectable) ? "no change: the run counts"
			  " cannot reach the level" : NULL))
		return -1;
	return amd_json_str(o, "likely", !r->likely ? NULL : r->likely > 0 ? "regression"
			    : "improvement") ? 0 : -1;
}

static int add_verdict(cJSON *o, const struct amd_cmp_row *r)
{
	if (!cJSON_AddNumberToObject(o, "p_min", r->p_min) || !amd_json_num(o, "p_holm", r->p_adj) ||
	    !cJSON_AddStringToObject(o, "verdict", amd_verdict_json(r->verdict)))
		return -1;
	if (!amd_json_num(o, "runs_needed_per_side", r->verdict == AMD_INSUFFICIENT
			  ? r->runs_needed : NAN))
		return -1;
	if (!amd_json_str(o, "note", r->note[0] ? r->note : NULL))
		return -1;
	return add_noise(o, r);
}

cJSON *amd_compare_row_json(const struct amd_cmp_row *r, double level)
{
	cJSON *o = cJSON_CreateObject();
	int ok = o && cJSON_AddStringToObject(o, "metric", r->metric) &&
		 cJSON_AddStringToObject(o, "strategy", r->strategy) &&
		 cJSON_AddStringToObject(o, "candidate_strategy", r->cand_strategy) &&
		 cJSON_AddNumberToObject(o, "n", r->n) && cJSON_AddBoolToObject(o, "gated", r->gated) &&
		 cJSON_AddStringToObject(o, "direction", amd_direction_name(r->dir)) &&
		 cJSON_AddNumberToObject(o, "threshold", r->threshold) &&
		 cJSON_AddNumberToObject(o, "alpha", r->alpha);
	ok = ok && add_item(o, "baseline", side_json(r->base, r->nb, r->med_base)) == 0 &&
	     add_item(o, "candidate", side_json(r->cand, r->nc, r->med_cand)) == 0 &&
	     amd_json_num(o, "ratio", r->ratio) && add_ci(o, r, level) == 0 && add_test(o, r) == 0 &&
	     add_verdict(o, r) == 0;
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *sweep_json(const char *sweep, const char *strategy, const char *store)
{
	cJSON *o = cJSON_CreateObject();
	int ok = o && cJSON_AddStringToObject(o, "sweep", sweep) &&
		 amd_json_str(o, "strategy", strategy) && amd_json_str(o, "store", store);
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

int amd_comparison_json_head(cJSON *o, const struct amd_comparison *c,
			     const struct amd_cmp_json_opts *w)
{
	if (add_item(o, "baseline", sweep_json(c->base_sweep, c->base_strategy, w->base_store)) < 0 ||
	    add_item(o, "candidate", sweep_json(c->cand_sweep, c->cand_strategy, w->cand_store)) < 0 ||
	    !cJSON_AddStringToObject(o, "metric", c->metric))
		return -1;
	if (!w->settings)
		return 0;
	return cJSON_AddNumberToObject(o, "resamples", c->resamples) &&
	       cJSON_AddNumberToObject(o, "seed", (double)c->seed) &&
	       cJSON_AddNumberToObject(o, "level", c->level) &&
	       cJSON_AddStringToObject(o, "aggregate", amd_aggregate_name(c->aggregate)) ? 0 : -1;
}

int amd_comparison_json_rows(cJSON *o, const struct amd_comparison *c)
{
	cJSON *rows = cJSON_AddArrayToObject(o, "rows");
	if (!rows)
		return -1;
	for (size_t i = 0; i < c->nrows; i++) {
		cJSON *r = amd_compare_row_json(&c->rows[i], c->level);
		if (!r || !cJSON_AddItemToArray(rows, r)) {
			cJSON_Delete(r);
			return -1;
		}
	}
	cJSON *s = cJSON_AddObjectToObject(o, "summary");
	return s && cJSON_AddNumberToObject(s, "gated", (double)c->ngated) &&
	       cJSON_AddNumberToObject(s, "holm_family", (double)c->family) &&
	       cJSON_AddNumberToObject(s, "regressions", (double)c->regressions) &&
	       cJSON_AddNumberToObject(s, "improvements", (double)c->improvements) &&
	       cJSON_AddNumberToObject(s, "insufficient", (double)c->insufficient) &&
	       cJSON_AddNumberToObject(s, "missing", (double)c->missing) &&
	       cJSON_AddNumberToObject(s, "likely_regressions", (double)c->likely_regressions)
	       ? 0 : -1;
}

cJSON *amd_comparison_json(const struct amd_comparison *c, const struct amd_cmp_json_opts *w)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || amd_comparison_json_head(o, c, w) < 0 || amd_comparison_json_rows(o, c) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

const char *amd_comparison_json_result(const cJSON *o)
{
	if (!cJSON_IsObject(o) || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "rows")))
		return NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "result");
	return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}
