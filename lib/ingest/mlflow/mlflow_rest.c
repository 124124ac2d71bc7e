/* mlflow_rest.c — JSON saved from MLflow's REST API:
 *  - runs/search: {"runs":[{"info":{run_id, experiment_id, run_name,
 *    status, start_time, end_time, lifecycle_stage},
 *    "data":{"metrics":[{key,value,timestamp,step}],"params":[{key,value}],
 *    "tags":[{key,value}]}}]}; metrics there are each run's latest values;
 *  - metrics/get-history: {"metrics":[{key,value,timestamp,step}]}, which
 *    names no run: it belongs to the run given with --run (or the run
 *    whose artifacts hold it).
 * Protobuf's JSON mapping writes int64 as strings ("1795347736731") and
 * non-finite doubles as "NaN", "Infinity", "-Infinity"; both forms are
 * read. This file owns what the values mean and the errors; the file is
 * streamed by mlflow_rest_stream.c (a get-history of a long run is
 * hundreds of MB), which hands over one run (as a small cJSON tree) or
 * one point at a time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h" /* amd_err_one_line */
#include "mlflow_rest.h"
#include "run.h"
#include "num.h"

static int detect(const char *path, const unsigned char *head, size_t n)
{
	size_t i = 0;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= n || head[i] != '{')
		return 0;
	const char *h = (const char *)head + i;
	if (strstr(h, "\"runs\"") && strstr(h, "\"info\""))
		return 85;
	if (strstr(h, "\"metrics\"") && strstr(h, "\"key\"") && strstr(h, "\"step\"") &&
	    !strstr(h, "\"traceEvents\""))
		return 75;
	return 0;
}

int amd_rest_fail(const struct amd_rest *r, const char *where, const char *what)
{
	return amd_fail(r->err, "%s: %s: %s", r->in->path, where, what);
}

int amd_rest_double(const struct amd_rest_jval *v, double *out)
{
	if (v->type == AMD_RJ_NUM) {
		*out = v->num;
		return 0;
	}
	if (v->type != AMD_RJ_STR)
		return -1;
	if (strcmp(v->str, "NaN") == 0)
		*out = NAN;
	else if (strcmp(v->str, "Infinity") == 0)
		*out = INFINITY;
	else if (strcmp(v->str, "-Infinity") == 0)
		*out = -INFINITY;
	else
		return amd_parse_double(v->str, out);
	return 0;
}

int amd_rest_int64(const struct amd_rest_jval *v, int64_t *out)
{
	*out = 0;
	if (v->type == AMD_RJ_ABSENT || v->type == AMD_RJ_NULL)
		return 0;
	if (v->type == AMD_RJ_STR)
		return amd_parse_int64(v->str, out);
	if (v->type != AMD_RJ_NUM || v->num != floor(v->num) || fabs(v->num) > 9.2e18)
		return -1;
	*out = (int64_t)v->num;
	return 0;
}

static struct amd_rest_jval jval_of(const cJSON *v)
{
	struct amd_rest_jval j = {AMD_RJ_OTHER, 0, NULL};
	if (!v)
		j.type = AMD_RJ_ABSENT;
	else if (cJSON_IsNull(v))
		j.type = AMD_RJ_NULL;
	else if (cJSON_IsNumber(v))
		j = (struct amd_rest_jval){AMD_RJ_NUM, v->valuedouble, NULL};
	else if (cJSON_IsString(v))
		j = (struct amd_rest_jval){AMD_RJ_STR, 0, v->valuestring};
	return j;
}

static int get_int64(const cJSON *obj, const char *key, int64_t *out)
{
	struct amd_rest_jval j = jval_of(cJSON_GetObjectItemCaseSensitive(obj, key));
	return amd_rest_int64(&j, out);
}

static const char *get_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

int amd_rest_metric(const struct amd_rest *r, const char *where, long i,
		    const struct amd_rest_metric *m)
{
	const char *what = !m->key ? "no \"key\""
			   : m->value_rc < 0 ? "\"value\" is not a number"
			   : m->ts_rc < 0 || m->step_rc < 0
				   ? "\"timestamp\"/\"step\" is not an integer"
				   : NULL;
	if (what) {
		char at[160];
		snprintf(at, sizeof at, "%s metrics[%ld]", where, i);
		return amd_rest_fail(r, at, what);
	}
	if (r->sink->metric)
		return r->sink->metric(r->sink, m->key, m->step, m->ts, m->value, r->err);
	return 0;
}

static int metrics(const struct amd_rest *r, const cJSON *arr, const char *where)
{
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return amd_rest_fail(r, where, "\"metrics\" is not an array");
	long i = 0;
	for (const cJSON *el = arr->child; el; el = el->next, i++) {
		struct amd_rest_metric m = {.key = get_str(el, "key")};
		struct amd_rest_jval v = jval_of(cJSON_GetObjectItemCaseSensitive(el, "value"));
		m.value_rc = amd_rest_double(&v, &m.value);
		m.ts_rc = get_int64(el, "timestamp", &m.ts);
		m.step_rc = get_int64(el, "step", &m.step);
		if (amd_rest_metric(r, where, i, &m) < 0)
			return -1;
	}
	return 0;
}

static int key_values(const struct amd_rest *r, const cJSON *arr, int is_tag, const char *where)
{
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return amd_rest_fail(r, where,
				     is_tag ? "\"tags\" is not an array" : "\"params\" is not an array");
	int (*fn)(struct amd_sink *, const char *, const char *, struct amd_err *) =
		is_tag ? r->sink->tag : r->sink->param;
	for (const cJSON *kv = arr->child; kv; kv = kv->next) {
		const char *key = get_str(kv, "key");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(kv, "value");
		if (!key)
			return amd_rest_fail(r, where,
					     is_tag ? "a tag without \"key\"" : "a param without \"key\"");
		if (fn && fn(r->sink, key, cJSON_IsString(v) ? v->valuestring : "", r->err) < 0)
			return -1;
	}
	return 0;
}

static const char *tag_of(const cJSON *tags, const char *key)
{
	const cJSON *kv;
	cJSON_ArrayForEach(kv, tags)
	{
		const char *k = get_str(kv, "key");
		if (k && strcmp(k, key) == 0)
			return get_str(kv, "value");
	}
	return NULL;
}

int amd_rest_run(const struct amd_rest *r, const cJSON *run, long i)
{
	char where[64];
	snprintf(where, sizeof where, "runs[%ld]", i);
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(run, "info");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(run, "data");
	if (!cJSON_IsObject(info))
		return amd_rest_fail(r, where, "no \"info\" object");
	const char *stage = get_str(info, "lifecycle_stage");
	if (stage && strcmp(stage, "deleted") == 0)
		return 0;
	const cJSON *tags = data ? cJSON_GetObjectItemCaseSensitive(data, "tags") : NULL;
	struct amd_run_rec rec = {
		.ext_id = get_str(info, "run_id") ? get_str(info, "run_id") : get_str(info, "run_uuid"),
		.name = get_str(info, "run_name") ? get_str(info, "run_name")
						  : tag_of(tags, "mlflow.runName"),
		.sweep_ext_id = get_str(info, "experiment_id"),
		.parent_ext_id = tag_of(tags, "mlflow.parentRunId"),
		.status = amd_status_of_text(get_str(info, "status")),
	};
	if (!rec.ext_id)
		return amd_rest_fail(r, where, "no \"run_id\" in \"info\"");
	if (get_int64(info, "start_time", &rec.start_ms) < 0 ||
	    get_int64(info, "end_time", &rec.end_ms) < 0)
		return amd_rest_fail(r, where, "\"start_time\"/\"end_time\" is not an integer");
	if (r->sink->run && r->sink->run(r->sink, &rec, r->err) < 0)
		return -1;
	if (!data)
		return 0;
	if (key_values(r, cJSON_GetObjectItemCaseSensitive(data, "params"), 0, where) < 0 ||
	    key_values(r, tags, 1, where) < 0)
		return -1;
	return metrics(r, cJSON_GetObjectItemCaseSensitive(data, "metrics"), where);
}

int amd_rest_history_begin(const struct amd_rest *r)
{
	const struct amd_input *in = r->in;
	if (!in->run_ext_hint && !in->run_name_hint)
		return amd_fail(r->err,
				"%s: a metrics/get-history response names no run: give --run NAME",
				in->path);
	if (r->sink->link && r->sink->link(r->sink, in->run_ext_hint, in->run_name_hint,
					   in->sweep_hint, r->err) < 0)
		return -1;
	return 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_rest r = {in, sink, err};
	return amd_rest_stream(&r) < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_mlflow_rest = {
	.name = "mlflow-rest",
	.variants = "MLflow REST JSON: runs/search, metrics/get-history (with --run)",
	.detect = detect,
	.parse = parse,
};
