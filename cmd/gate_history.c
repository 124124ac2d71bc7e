/* gate_history.c — `amdahl gate --history N --by KEY`: the candidate
 * group against the N groups before it (lib/compare/history_gate.h),
 * printed as a sentence or --json; the exit code is the verdict's. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare_cmd.h"

static int candidate_index(const struct compare_args *a, const struct amd_history *h, size_t *out)
{
	*out = h->ngroups - 1;
	if (!a->cand_value)
		return 0;
	for (size_t i = 0; i < h->ngroups; i++)
		if (strcmp(h->groups[i].label, a->cand_value) == 0) {
			*out = i;
			return 0;
		}
	return cmd_error(a->name, "--candidate: no group %s=%s among the %zu groups (first %s, "
			 "last %s)", a->by, a->cand_value, h->ngroups, h->groups[0].label,
			 h->groups[h->ngroups - 1].label);
}

static int print_json(const struct amd_history *h, const struct amd_history_verdict *v,
		      const struct amd_history_rates *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "result", amd_gate_result_json(v->result));
	cJSON_AddNumberToObject(o, "exit", v->exit_code);
	cJSON_AddStringToObject(o, "metric", h->metric);
	cJSON_AddStringToObject(o, "by", h->by);
	cJSON_AddStringToObject(o, "candidate", h->groups[v->cand].label);
	cJSON_AddNumberToObject(o, "candidate_median", v->cand_median);
	cJSON *win = cJSON_AddArrayToObject(o, "window");
	for (size_t i = v->win; i <= v->cand; i++)
		cJSON_AddItemToArray(win, cJSON_CreateString(h->groups[i].label));
	cJSON_AddNumberToObject(o, "window_median", v->win_median);
	cJSON *hist = cJSON_AddArrayToObject(o, "history");
	for (size_t i = v->first; i < v->win; i++)
		cJSON_AddItemToArray(hist, cJSON_CreateString(h->groups[i].label));
	cJSON_AddNumberToObject(o, "history_median", v->base_median);
	cJSON_AddNumberToObject(o, "ratio", v->ratio);
	cJSON_AddNumberToObject(o, "divergence", v->q);
	cJSON_AddNumberToObject(o, "p", v->p);
	cJSON_AddNumberToObject(o, "p_min", v->p_min);
	cJSON_AddNumberToObject(o, "alpha", v->alpha);
	cJSON_AddNumberToObject(o, "alpha_night", v->alpha_night);
	cJSON_AddNumberToObject(o, "threshold", v->threshold);
	if (r->valid) {
		cJSON *x = cJSON_AddObjectToObject(o, "rates");
		cJSON_AddNumberToObject(x, "spread", r->spread);
		cJSON_AddNumberToObject(x, "false_fail_10", r->false_fail[0]);
		cJSON_AddNumberToObject(x, "false_fail_20", r->false_fail[1]);
		cJSON_AddNumberToObject(x, "false_fail_40", r->false_fail[2]);
		cJSON_AddNumberToObject(x, "step_caught_3", r->caught3);
		cJSON_AddNumberToObject(x, "histories", (double)r->histories);
	}
	cJSON_AddStringToObject(o, "sentence", v->sentence);
	return cmd_print_json("gate", o);
}

int gate_history(struct cmd_ctx *ctx, const struct compare_args *a)
{
	struct amd_history_opts o = {.select = a->select, .by = a->by, .metric = a->o.metric};
	struct amd_err err = {{0}};
	struct amd_history *h;
	if (amd_history(ctx->store, &o, &h, &err) < 0)
		return cmd_error("gate", "%s", err.msg);
	double alpha = amd_cfg_num_or(&ctx->config.gate.alpha, 0.05);
	double threshold = amd_cfg_num_or(&ctx->config.gate.threshold, 0.05);
	size_t cand;
	struct amd_history_verdict v;
	int rc = candidate_index(a, h, &cand);
	struct amd_history_rates r;
	if (rc == 0 && (amd_history_gate(h, cand, (size_t)a->history, alpha, threshold, &v, &err) < 0 ||
			amd_history_gate_rates(h, &v, &r, &err) < 0))
		rc = cmd_error("gate", "%s", err.msg);
	if (rc == 0 && a->json)
		rc = print_json(h, &v, &r);
	else if (rc == 0)
		printf("%s\n", v.sentence);
	if (rc == 0)
		rc = v.exit_code;
	amd_history_free(h);
	return rc;
}
