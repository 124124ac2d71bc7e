/* memory_json.c — memory per GPU as JSON (see memory_json.h). Bytes are
 * numbers (exact below 2^53, far above any device); a figure no run has
 * is null, an interval refused says why, as for the other figures. */
#include "memory_json.h"

#include "analysis_json.h"

/* {"median", "ci", ...} of one figure; NULL out of memory. */
static cJSON *figure_json(size_t runs, double median, const struct amd_ci *ci, double level)
{
	cJSON *o = cJSON_CreateObject();
	struct amd_ci c = *ci;
	if (!c.why)
		c.why = "not computed";
	int ok = o && cJSON_AddNumberToObject(o, "runs", (double)runs) &&
		 amd_json_num(o, "median", median) && amd_json_ci(o, "ci", &c, level) == 0;
	if (ok)
		return o;
	cJSON_Delete(o);
	return NULL;
}

static cJSON *point_json(const struct amd_memory_point *p, double level)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *a = figure_json(p->nruns, p->allocated, &p->ci, level);
	int ok = o && a && cJSON_AddStringToObject(o, "strategy", p->strategy) &&
		 amd_json_num(o, "n", p->n) && cJSON_AddItemToObject(o, "peak_allocated", a);
	if (!ok)
		cJSON_Delete(a);
	ok = ok && amd_json_num(a, "min", p->lo) && amd_json_num(a, "max", p->hi);
	cJSON *r = ok ? figure_json(p->nreserved, p->reserved, &p->reserved_ci, level) : NULL;
	if (r && cJSON_AddItemToObject(o, "peak_reserved", r))
		return o;
	cJSON_Delete(r);
	cJSON_Delete(o);
	return NULL;
}

cJSON *amd_memory_json(const struct amd_memory_stats *m)
{
	cJSON *o = cJSON_CreateObject(), *pts = NULL;
	int ok = o && cJSON_AddStringToObject(o, "unit", "bytes") &&
		 cJSON_AddStringToObject(o, "per", m->gpu ? "GPU" : "rank (CPU memory)") &&
		 cJSON_AddBoolToObject(o, "any", m->any) &&
		 cJSON_AddBoolToObject(o, "from_metric", m->from_metric) &&
		 cJSON_AddBoolToObject(o, "running_sum", m->running_sum) &&
		 (pts = cJSON_AddArrayToObject(o, "points"));
	for (size_t i = 0; i < m->n && ok; i++) {
		cJSON *p = point_json(&m->v[i], m->level);
		ok = p && cJSON_AddItemToArray(pts, p);
		if (!ok)
			cJSON_Delete(p);
	}
	if (ok && !m->ntl)
		ok = cJSON_AddNullToObject(o, "timeline") != NULL;
	if (ok && m->ntl) {
		cJSON *t = cJSON_AddObjectToObject(o, "timeline");
		ok = t && cJSON_AddStringToObject(t, "run", m->run) &&
		     cJSON_AddNumberToObject(t, "rank", m->rank) && amd_json_num(t, "n", m->tl_n) &&
		     cJSON_AddNumberToObject(t, "samples", (double)m->ntl);
	}
	if (ok)
		return o;
	cJSON_Delete(o);
	return NULL;
}
