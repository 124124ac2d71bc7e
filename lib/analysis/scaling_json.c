/* scaling_json.c — struct amd_scaling as JSON (scaling_json.h). Each
 * builder returns -1 at the first add that fails (out of memory); the
 * caller then drops the tree. */
#include <math.h>

#include "scaling_json.h"
#include "analysis_json.h"

static int nums(cJSON *o, const char *const *k, const double *v, int n)
{
	for (int a = 0; a < n; a++)
		if (!amd_json_num(o, k[a], v[a]))
			return -1;
	return 0;
}

/* Appends a new object to array a into *o. */
static int item(cJSON *a, cJSON **o)
{
	*o = cJSON_CreateObject();
	if (*o && cJSON_AddItemToArray(a, *o))
		return 0;
	cJSON_Delete(*o);
	return -1;
}

/* k's interval {"lo", "hi", "level"} (null when not finite). */
static int ci(cJSON *o, const char *k, double lo, double hi, double level)
{
	return amd_json_interval(o, k, 1, lo, hi, level) ? 0 : -1;
}

static int pred(cJSON *arr, const struct amd_scaling_pred *p, double level)
{
	static const char *const k[] = { "n", "value" };
	cJSON *o;
	return item(arr, &o) < 0 || nums(o, k, (double[]){ p->n, p->value }, 2) < 0 ? -1
		: ci(o, "ci", p->lo, p->hi, level);
}

/* The intervals of key; with f, each its prediction interval at the
 * level it covers in simulation (amd_rfit_interval_level). */
static int preds(cJSON *o, const char *key, const struct amd_scaling_pred *p, size_t n,
		 double level, const struct amd_rfit *f)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (size_t i = 0; a && i < n; i++)
		if (pred(a, &p[i], f ? amd_rfit_interval_level(f, p[i].n, level) : level) < 0)
			return -1;
	return a ? 0 : -1;
}

static int terms(cJSON *o, const struct amd_rfit *f, double level)
{
	static const char *const k[] = { "i", "j", "coef" };
	cJSON *a = cJSON_AddArrayToObject(o, "terms"), *t;
	for (int i = 0; a && i < f->nterms; i++) {
		const struct amd_rterm *r = &f->term[i];
		if (item(a, &t) < 0 || nums(t, k, (double[]){ r->i, r->j, r->coef }, 3) < 0
		    || ci(t, "coef_ci", r->lo, r->hi, level) < 0)
			return -1;
	}
	return a ? 0 : -1;
}

static int region(cJSON *arr, const struct amd_region_model *r, const char *strategy,
		  const char *criterion, double level)
{
	static const char *const k[] = { "c0", "cv", "cv_constant", "p_trend",
					 "relative_noise", "measured_at_max_n", "share_at_max_n",
					 "crossover_n" };
	const struct amd_rfit *f = &r->fit;
	cJSON *o;
	if (item(arr, &o) < 0 || !cJSON_AddStringToObject(o, "name", r->name ? r->name : "")
	    || !cJSON_AddStringToObject(o, "kind", r->kind ? r->kind : "")
	    || !cJSON_AddStringToObject(o, "strategy", strategy)
	    || !cJSON_AddStringToObject(o, "criterion", criterion)
	    || !cJSON_AddStringToObject(o, "growth", r->growth ? r->growth : "constant")
	    || !cJSON_AddStringToObject(o, "interval", AMD_RFIT_INTERVAL_TEXT)
	    || !cJSON_AddNumberToObject(o, "distinct_n", f->distinct_n)
	    || !cJSON_AddNumberToObject(o, "plausible_models", f->nplausible)
	    || terms(o, f, level) < 0)
		return -1;
	double v[] = { f->c0, f->cv, f->cv_const, f->p_trend, f->rel_noise,
		       r->measured_max_n, r->share_max_n, r->crossover_n };
	return nums(o, k, v, 8) < 0 || ci(o, "c0_ci", f->c0_lo, f->c0_hi, level) < 0
		|| preds(o, "share", r->share, r->nshare, level, NULL) < 0
		|| preds(o, "predictions", r->pred, r->npred, level, f) < 0 ? -1 : 0;
}

static int whole(cJSON *arr, const struct amd_scaling_whole *w, double level)
{
	cJSON *o;
	static const char *const k[] = { "n", "amdahl_epoch_s", "usl_epoch_s" };
	if (item(arr, &o) < 0 || nums(o, k, (double[]){ w->n, w->amdahl_epoch, w->usl_epoch }, 3) < 0
	    || !cJSON_AddBoolToObject(o, "models_disagree", w->disagree)
	    || !cJSON_AddStringToObject(o, "source", w->measured ? "measured" : "predicted"))
		return -1;
	const struct amd_scaling_pred *x[] = { &w->step, &w->epoch, &w->efficiency };
	static const char *const names[] = { "step_s", "epoch_s", "efficiency" };
	for (int i = 0; i < 3; i++) {
		cJSON *c = cJSON_AddObjectToObject(o, names[i]);
		if (!c || !amd_json_num(c, "value", x[i]->value)
		    || ci(c, "ci", x[i]->lo, x[i]->hi, level) < 0)
			return -1;
	}
	return 0;
}

static int advice(cJSON *arr, const struct amd_scaling_advice *a)
{
	static const char *const k[] = { "n", "repeats", "narrowing" };
	cJSON *o;
	return item(arr, &o) < 0 || nums(o, k, (double[]){ a->n, a->repeats, a->narrowing }, 3) < 0
		       || !amd_json_str(o, "narrowing_why", a->why) ? -1 : 0;
}

static int strategy(cJSON *arr, const struct amd_scaling_strategy *s, const char *criterion,
		    double level)
{
	cJSON *o, *ns, *ws, *as;
	static const char *const k[] = { "target", "epoch_at_max_n_s", "noise_cv", "repeats_needed" };
	if (item(arr, &o) < 0 || !cJSON_AddStringToObject(o, "strategy", s->strategy)
	    || !(ns = cJSON_AddArrayToObject(o, "n"))
	    || nums(o, k, (double[]){ s->target, s->epoch_max_n, s->noise_cv, s->repeats_needed }, 4) < 0
	    || !cJSON_AddStringToObject(o, "note", s->note))
		return -1;
	for (size_t i = 0; i < s->nn; i++) {
		cJSON *x = cJSON_CreateNumber(s->ns[i]);
		if (!x || !cJSON_AddItemToArray(ns, x)) {
			cJSON_Delete(x);
			return -1;
		}
	}
	cJSON *step = cJSON_AddArrayToObject(o, "step");
	if (!step || (s->step.name && region(step, &s->step, s->strategy, criterion, level) < 0))
		return -1;
	if (!(ws = cJSON_AddArrayToObject(o, "whole")))
		return -1;
	for (size_t i = 0; i < s->nwhole; i++)
		if (whole(ws, &s->whole[i], level) < 0)
			return -1;
	if (!(as = cJSON_AddArrayToObject(o, "advice")))
		return -1;
	for (size_t i = 0; i < s->nadvice; i++)
		if (advice(as, &s->advice[i]) < 0)
			return -1;
	return 0;
}

/* The flat list the shape asks for: every strategy's regions. */
static int flat_regions(cJSON *doc, const struct amd_scaling *s)
{
	cJSON *rs = cJSON_AddArrayToObject(doc, "regions");
	for (size_t i = 0; rs && i < s->nstrategies; i++)
		for (size_t r = 0; r < s->strategies[i].nregions; r++)
			if (region(rs, &s->strategies[i].regions[r], s->strategies[i].strategy,
				   s->criterion, s->level) < 0)
				return -1;
	return rs ? 0 : -1;
}

cJSON *amd_scaling_json(const struct amd_scaling *s)
{
	cJSON *doc = cJSON_CreateObject(), *st;
	static const char *const k[] = { "resamples", "seed", "level" };
	int ok = doc && cJSON_AddStringToObject(doc, "sweep", s->sweep)
		&& cJSON_AddStringToObject(doc, "criterion", s->criterion)
		&& cJSON_AddStringToObject(doc, "time", "seconds per profiled step, mean per rank")
		&& cJSON_AddStringToObject(doc, "axis", s->axis ? s->axis : "n")
		&& cJSON_AddStringToObject(doc, "scaling", s->axis ? "weak: per-rank time against the"
					   " size param (the \"n\" of regions and strategies is its value)"
					   : "strong: per-rank time against the world size n")
		&& nums(doc, k, (double[]){ s->resamples, (double)s->seed, s->level }, 3) == 0
		&& flat_regions(doc, s) == 0
		&& (st = cJSON_AddArrayToObject(doc, "strategies"));
	for (size_t i = 0; ok && i < s->nstrategies; i++)
		ok = strategy(st, &s->strategies[i], s->criterion, s->level) == 0;
	if (ok)
		return doc;
	cJSON_Delete(doc);
	return NULL;
}
