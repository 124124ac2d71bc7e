/* history_text.c — a history's table, change lines and JSON
 * (history_text.h). */
#include "history_text.h"

#include <stdio.h>

#include "analysis_json.h"
#include "stats_table.h"

const char *amd_history_direction(const struct amd_history *h,
				  const struct amd_history_change *c)
{
	int up = c->ratio > 1;
	return up == !h->higher_is_better ? "worse" : "better";
}

const char *amd_history_ratio_ci_text(const struct amd_history *h,
				      const struct amd_history_change *c, char *buf, size_t n)
{
	*buf = 0;
	if (c->ci.valid)
		snprintf(buf, n, " [%.3f, %.3f] (%.3g%%)", c->ci.lo, c->ci.hi,
			 100 * (c->ci.level > 0 ? c->ci.level : h->level));
	return buf;
}

const char *amd_history_change_text(const struct amd_history *h,
				    const struct amd_history_change *c, char *buf, size_t n)
{
	char ci[64];
	amd_history_ratio_ci_text(h, c, ci, sizeof ci);
	snprintf(buf, n, "at %s (%s): median %.4g (%zu runs, %s..%s) -> %.4g (%zu runs, %s..%s), "
		 "ratio %.3f%s, permutation p %.3g (over every split searched)",
		 h->groups[c->group].label, amd_history_direction(h, c), c->before, c->nbefore,
		 h->groups[c->from].label, h->groups[c->group - 1].label, c->after, c->nafter,
		 h->groups[c->group].label, h->groups[c->to - 1].label, c->ratio, ci, c->p_perm);
	return buf;
}

const char *amd_history_method_text(const struct amd_history *h, char *buf, size_t n)
{
	snprintf(buf, n, "%zu change point%s (E-Divisive means, permutation test: %d shuffles, "
		 "alpha %g, at least %zu groups before a change and %zu after it)", h->nchanges,
		 h->nchanges == 1 ? "" : "s", h->cp.permutations, h->cp.alpha, h->cp.min_size,
		 h->cp.min_size > 2 ? h->cp.min_size - 1 : h->cp.min_size);
	return buf;
}

int amd_history_is_change(const struct amd_history *h, size_t g)
{
	for (size_t i = 0; i < h->nchanges; i++)
		if (h->changes[i].group == g)
			return 1;
	return 0;
}

/* The note under the table when an interval holds less than the stated
 * level (an order-statistic interval of fewer than 6 runs: stats.h). */
static void own_level_note(struct amd_table *t, const struct amd_history *h)
{
	for (size_t g = 0; g < h->ngroups; g++) {
		const struct amd_ci *c = &h->groups[g].ci;
		if (c->valid && c->level > 0 && c->level < h->level - 1e-12) {
			amd_table_note(t, "a percentage after an interval is its own coverage, below "
				       "the stated %.3g%%: with fewer than 6 runs no interval of the "
				       "median reaches 95%%; [min, max] covers the true median exactly "
				       "75%% of the time with 3 runs, 87.5%% with 4, 93.8%% with 5 "
				       "(order statistics, any distribution)", h->level * 100);
			return;
		}
	}
}

struct amd_table *amd_history_table(const struct amd_history *h)
{
	char lv[24];
	snprintf(lv, sizeof lv, "%.3g%% CI", h->level * 100);
	const char *const hd[] = {"group", "runs", "median", lv, "change"};
	struct amd_table *t = amd_table_new(5, hd);
	amd_table_right(t, 1);
	amd_table_right(t, 2);
	for (size_t g = 0; t && g < h->ngroups; g++) {
		const struct amd_history_group *hg = &h->groups[g];
		char runs[24], med[32], ci[80];
		snprintf(runs, sizeof runs, "%zu", hg->nruns);
		snprintf(med, sizeof med, "%.4g", hg->median);
		if (hg->ci.valid)
			amd_stats_ci_cell(ci, sizeof ci, &hg->ci, "%.4g", h->level);
		else
			snprintf(ci, sizeof ci, "%s", hg->ci.why ? hg->ci.why : "-");
		const char *row[] = {hg->label, runs, med, ci,
				     amd_history_is_change(h, g) ? "<- change" : ""};
		amd_table_add(t, row);
	}
	if (t)
		own_level_note(t, h);
	if (amd_table_ok(t))
		return t;
	amd_table_free(t);
	return NULL;
}

/* ---- JSON ---- */

/* Adds item to o under key; 0 (and item freed) when either is missing. */
static int put(cJSON *o, const char *key, cJSON *item)
{
	if (o && item && cJSON_AddItemToObject(o, key, item))
		return 1;
	cJSON_Delete(item);
	return 0;
}

static cJSON *group_json(const struct amd_history_group *g, double level)
{
	cJSON *o = cJSON_CreateObject();
	int ok = cJSON_AddStringToObject(o, "group", g->label) &&
		 cJSON_AddStringToObject(o, "selector", g->selector) &&
		 cJSON_AddStringToObject(o, "configuration", g->config) &&
		 amd_json_str(o, "order", g->order) &&
		 cJSON_AddNumberToObject(o, "runs", (double)g->nruns) &&
		 cJSON_AddNumberToObject(o, "median", g->median) &&
		 amd_json_interval(o, "ci", g->ci.valid, g->ci.lo, g->ci.hi,
				    g->ci.level > 0 ? g->ci.level : level) &&
		 put(o, "values", cJSON_CreateDoubleArray(g->values, (int)g->nruns));
	if (ok)
		return o;
	cJSON_Delete(o);
	return NULL;
}

static cJSON *side_json(const struct amd_history *h, size_t from, size_t to, size_t runs,
			double median)
{
	cJSON *o = cJSON_CreateObject();
	int ok = cJSON_AddStringToObject(o, "first_group", h->groups[from].label) &&
		 cJSON_AddStringToObject(o, "last_group", h->groups[to - 1].label) &&
		 cJSON_AddNumberToObject(o, "groups", (double)(to - from)) &&
		 cJSON_AddNumberToObject(o, "runs", (double)runs) &&
		 cJSON_AddNumberToObject(o, "median", median);
	if (ok)
		return o;
	cJSON_Delete(o);
	return NULL;
}

static cJSON *change_json(const struct amd_history *h, const struct amd_history_change *c)
{
	cJSON *o = cJSON_CreateObject();
	int ok = cJSON_AddStringToObject(o, "group", h->groups[c->group].label) &&
		 cJSON_AddNumberToObject(o, "index", (double)c->group) &&
		 put(o, "before", side_json(h, c->from, c->group, c->nbefore, c->before)) &&
		 put(o, "after", side_json(h, c->group, c->to, c->nafter, c->after)) &&
		 cJSON_AddNumberToObject(o, "ratio", c->ratio) &&
		 amd_json_interval(o, "ci", c->ci.valid, c->ci.lo, c->ci.hi,
				    c->ci.level > 0 ? c->ci.level : h->level) &&
		 cJSON_AddNumberToObject(o, "p", c->p_perm) &&
		 cJSON_AddNumberToObject(o, "p_permutation", c->p_perm) &&
		 cJSON_AddNumberToObject(o, "divergence", c->q) &&
		 cJSON_AddStringToObject(o, "direction", amd_history_direction(h, c));
	if (ok)
		return o;
	cJSON_Delete(o);
	return NULL;
}

static cJSON *method_json(const struct amd_history *h)
{
	cJSON *m = cJSON_CreateObject();
	int ok = cJSON_AddStringToObject(m, "name", "e-divisive means, permutation test") &&
		 cJSON_AddNumberToObject(m, "alpha", h->cp.alpha) &&
		 cJSON_AddNumberToObject(m, "permutations", h->cp.permutations) &&
		 cJSON_AddNumberToObject(m, "min_size", (double)h->cp.min_size) &&
		 cJSON_AddNumberToObject(m, "seed", (double)h->cp.seed);
	if (ok)
		return m;
	cJSON_Delete(m);
	return NULL;
}

cJSON *amd_history_json(const struct amd_history *h)
{
	cJSON *root = cJSON_CreateObject();
	int ok = cJSON_AddStringToObject(root, "metric", h->metric) &&
		 cJSON_AddStringToObject(root, "by", h->by) &&
		 cJSON_AddStringToObject(root, "order", h->order) &&
		 put(root, "method", method_json(h)) &&
		 cJSON_AddNumberToObject(root, "runs_without_key", (double)h->skipped);
	cJSON *g = ok ? cJSON_AddArrayToObject(root, "groups") : NULL;
	for (size_t i = 0; g && i < h->ngroups; i++) {
		cJSON *item = group_json(&h->groups[i], h->level);
		if (!item || !cJSON_AddItemToArray(g, item))
			g = NULL, cJSON_Delete(item);
	}
	cJSON *c = g ? cJSON_AddArrayToObject(root, "change_points") : NULL;
	for (size_t i = 0; c && i < h->nchanges; i++) {
		cJSON *item = change_json(h, &h->changes[i]);
		if (!item || !cJSON_AddItemToArray(c, item))
			c = NULL, cJSON_Delete(item);
	}
	if (c)
		return root;
	cJSON_Delete(root);
	return NULL;
}
