/* explain_json.c — amd_explain_json (explain_json.h). Every add goes
 * through J, which clears *ok when it fails (out of memory); the tree is
 * then dropped whole. */
#include <math.h>

#include "explain_json.h"
#include "analysis_json.h"

#define J(expr) do { if (!(expr)) *ok = 0; } while (0)

/* Appends item to array a; on failure drops item and clears *ok. */
static cJSON *append(cJSON *a, cJSON *item, int *ok)
{
	if (!item || !cJSON_AddItemToArray(a, item)) {
		cJSON_Delete(item);
		*ok = 0;
		return NULL;
	}
	return item;
}

static void value_ci(cJSON *o, const char *k, const char *kci, const struct amd_explain_value *v,
		     double level, int *ok)
{
	J(amd_json_num(o, k, v->value));
	J(amd_json_interval(o, kci, v->has_ci, v->lo, v->hi, level));
}

static cJSON *rank_json(const struct amd_explain_rank *r, double level, int *ok)
{
	cJSON *o = cJSON_CreateObject();
	J(o);
	J(cJSON_AddNumberToObject(o, "rank", r->rank));
	value_ci(o, "last_share", "last_share_ci", &r->last_share, level, ok);
	J(cJSON_AddNumberToObject(o, "last", (double)r->last));
	J(cJSON_AddNumberToObject(o, "instances", (double)r->instances));
	J(amd_json_num(o, "wait_caused_s", r->wait_caused_s));
	J(amd_json_num(o, "extra_work_s", r->extra_work_s));
	J(amd_json_num(o, "p", r->p));
	J(amd_json_num(o, "p_holm", r->p_holm));
	J(cJSON_AddBoolToObject(o, "straggler", r->straggler));
	return o;
}

/* compute_growth's regions: those whose work does not shrink as 1/n. */
static void regions(cJSON *x, const struct amd_explain_point *p, int *ok)
{
	cJSON *a = cJSON_AddArrayToObject(x, "regions");
	J(a);
	for (size_t i = 0; i < p->nregions; i++) {
		const struct amd_explain_region *r = &p->regions[i];
		cJSON *o = append(a, cJSON_CreateObject(), ok);
		J(amd_json_str(o, "name", r->name));
		J(amd_json_str(o, "kind", r->kind));
		J(amd_json_str(o, "model", r->model));
		J(amd_json_str(o, "growth", r->growth));
		J(amd_json_num(o, "share", r->share));
		J(amd_json_num(o, "seconds", r->seconds));
	}
}

static void components(cJSON *o, const struct amd_explain_point *p, double level, int *ok)
{
	cJSON *c = cJSON_AddArrayToObject(o, "components");
	J(c);
	for (int i = 0; i < AMD_EXPLAIN_NPARTS; i++) {
		cJSON *x = append(c, cJSON_CreateObject(), ok);
		J(amd_json_str(x, "name", amd_explain_part_names[i]));
		value_ci(x, "share", "share_ci", &p->share[i], level, ok);
		J(amd_json_num(x, "seconds", p->seconds[i]));
		if (i == AMD_EXPLAIN_GROWTH)
			regions(x, p, ok);
	}
}

static void collectives(cJSON *o, const struct amd_explain_point *p, int *ok)
{
	cJSON *k = cJSON_AddObjectToObject(o, "collectives");
	J(k);
	J(cJSON_AddNumberToObject(k, "instances", (double)p->instances));
	J(amd_json_num(k, "measured_s", p->coll_s));
	J(amd_json_num(k, "transfer_s", p->transfer_s));
	J(amd_json_num(k, "wait_s", p->wait_s));
	J(amd_json_num(k, "overlap_credited_s", p->overlap_s));
	J(amd_json_str(k, "top", p->top_collective[0] ? p->top_collective : NULL));
	cJSON *clk = cJSON_AddObjectToObject(o, "clock");
	J(clk);
	J(cJSON_AddBoolToObject(clk, "consistent", p->clock_ok));
	J(amd_json_num(clk, "skew_bound_s", p->clock_skew_s));
}

static cJSON *point_json(const struct amd_explain_point *p, double level, int *ok)
{
	cJSON *o = cJSON_CreateObject();
	J(o);
	J(cJSON_AddNumberToObject(o, "n", p->n));
	J(cJSON_AddNumberToObject(o, "runs", (double)p->runs));
	J(amd_json_num(o, "step_s", p->step_s));
	cJSON *e = cJSON_AddObjectToObject(o, "efficiency");
	J(e);
	value_ci(e, "traces", "traces_ci", &p->efficiency, level, ok);
	J(amd_json_num(e, "epoch", p->epoch_efficiency));
	components(o, p, level, ok);
	collectives(o, p, ok);
	cJSON *s = cJSON_AddArrayToObject(o, "stragglers");
	J(s);
	cJSON *r = cJSON_AddArrayToObject(o, "ranks");
	J(r);
	for (size_t i = 0; i < p->nranks; i++) {
		if (p->ranks[i].straggler)
			append(s, rank_json(&p->ranks[i], level, ok), ok);
		append(r, rank_json(&p->ranks[i], level, ok), ok);
	}
	return o;
}

cJSON *amd_explain_json(const struct amd_explain *e)
{
	int okv = 1, *ok = &okv;
	cJSON *doc = cJSON_CreateObject();
	J(doc);
	J(amd_json_str(doc, "sweep", e->sweep));
	J(amd_json_num(doc, "level", e->level));
	J(amd_json_num(doc, "alpha", e->alpha));
	J(cJSON_AddNumberToObject(doc, "runs_partial", (double)e->runs_partial));
	J(cJSON_AddNumberToObject(doc, "strategies_one_n", (double)e->single_n));
	cJSON *ss = cJSON_AddArrayToObject(doc, "strategies");
	J(ss);
	for (size_t i = 0; i < e->nstrategies; i++) {
		const struct amd_explain_strategy *s = &e->strategies[i];
		cJSON *o = append(ss, cJSON_CreateObject(), ok);
		J(amd_json_str(o, "strategy", s->strategy));
		J(cJSON_AddNumberToObject(o, "base_n", s->base_n));
		cJSON *pts = cJSON_AddArrayToObject(o, "points");
		J(pts);
		for (size_t j = 0; j < s->npoints; j++)
			append(pts, point_json(&s->points[j], e->level, ok), ok);
	}
	if (!okv || amd_json_versioned(doc) < 0) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}
