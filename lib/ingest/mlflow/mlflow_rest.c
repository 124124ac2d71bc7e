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
 * read. These responses are small, so cJSON reads them whole, up to
 * REST_MAX bytes. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h" /* amd_err_one_line */
#include "ingest.h"
#include "run.h"
#include "buf.h"
#include "file.h"
#include "num.h"

#define REST_MAX ((size_t)256 << 20)

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

struct rest {
	const char *path;
	struct amd_sink *sink;
};

static int bad(const struct rest *r, const char *where, const char *what, struct amd_err *err)
{
	return amd_fail(err, "%s: %s: %s", r->path, where, what);
}

/* A double from a number or a string ("NaN", "Infinity", "1.5"). */
static int get_double(const cJSON *v, double *out)
{
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return 0;
	}
	if (!cJSON_IsString(v))
		return -1;
	const char *s = v->valuestring;
	if (strcmp(s, "NaN") == 0)
		*out = NAN;
	else if (strcmp(s, "Infinity") == 0)
		*out = INFINITY;
	else if (strcmp(s, "-Infinity") == 0)
		*out = -INFINITY;
	else
		return amd_parse_double(s, out);
	return 0;
}

/* An int64 from a number or a decimal string; absent is 0. */
static int get_int64(const cJSON *obj, const char *key, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	*out = 0;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (cJSON_IsString(v))
		return amd_parse_int64(v->valuestring, out);
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    fabs(v->valuedouble) > 9.2e18)
		return -1;
	*out = (int64_t)v->valuedouble;
	return 0;
}

static const char *get_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

static int metrics(const struct rest *r, const cJSON *arr, const char *where,
		   struct amd_err *err)
{
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return bad(r, where, "\"metrics\" is not an array", err);
	int i = 0;
	for (const cJSON *m = arr->child; m; m = m->next, i++) {
		char at[160];
		snprintf(at, sizeof at, "%s metrics[%d]", where, i);
		const char *key = get_str(m, "key");
		double v;
		int64_t ts, step;
		if (!key)
			return bad(r, at, "no \"key\"", err);
		if (get_double(cJSON_GetObjectItemCaseSensitive(m, "value"), &v) < 0)
			return bad(r, at, "\"value\" is not a number", err);
		if (get_int64(m, "timestamp", &ts) < 0 || get_int64(m, "step", &step) < 0)
			return bad(r, at, "\"timestamp\"/\"step\" is not an integer", err);
		if (r->sink->metric && r->sink->metric(r->sink, key, step, ts, v, err) < 0)
			return -1;
	}
	return 0;
}

static int key_values(const struct rest *r, const cJSON *arr, int is_tag, const char *where,
		      struct amd_err *err)
{
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return bad(r, where, is_tag ? "\"tags\" is not an array" : "\"params\" is not an array",
			   err);
	int (*fn)(struct amd_sink *, const char *, const char *, struct amd_err *) =
		is_tag ? r->sink->tag : r->sink->param;
	for (const cJSON *kv = arr->child; kv; kv = kv->next) {
		const char *key = get_str(kv, "key");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(kv, "value");
		if (!key)
			return bad(r, where, is_tag ? "a tag without \"key\"" : "a param without \"key\"",
				   err);
		if (fn && fn(r->sink, key, cJSON_IsString(v) ? v->valuestring : "", err) < 0)
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

static int one_run(const struct rest *r, const cJSON *run, int i, struct amd_err *err)
{
	char where[64];
	snprintf(where, sizeof where, "runs[%d]", i);
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(run, "info");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(run, "data");
	if (!cJSON_IsObject(info))
		return bad(r, where, "no \"info\" object", err);
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
		return bad(r, where, "no \"run_id\" in \"info\"", err);
	if (get_int64(info, "start_time", &rec.start_ms) < 0 ||
	    get_int64(info, "end_time", &rec.end_ms) < 0)
		return bad(r, where, "\"start_time\"/\"end_time\" is not an integer", err);
	if (r->sink->run && r->sink->run(r->sink, &rec, err) < 0)
		return -1;
	if (!data)
		return 0;
	if (key_values(r, cJSON_GetObjectItemCaseSensitive(data, "params"), 0, where, err) < 0 ||
	    key_values(r, tags, 1, where, err) < 0)
		return -1;
	return metrics(r, cJSON_GetObjectItemCaseSensitive(data, "metrics"), where, err);
}

static int runs_search(const struct rest *r, const cJSON *runs, struct amd_err *err)
{
	if (!cJSON_IsArray(runs))
		return bad(r, "\"runs\"", "not an array", err);
	int i = 0;
	for (const cJSON *run = runs->child; run; run = run->next, i++)
		if (one_run(r, run, i, err) < 0)
			return -1;
	return 0;
}

static int history(const struct amd_input *in, const struct rest *r, const cJSON *m,
		   struct amd_err *err)
{
	if (!in->run_ext_hint && !in->run_name_hint)
		return amd_fail(err, "%s: a metrics/get-history response names no run: give --run NAME",
				in->path);
	if (r->sink->link && r->sink->link(r->sink, in->run_ext_hint, in->run_name_hint,
					   in->sweep_hint, err) < 0)
		return -1;
	return metrics(r, m, "history", err);
}

/* Line and byte offset of p in the text, for a parse error. */
static void where_in(const char *text, const char *p, int *line, size_t *off)
{
	*line = 1;
	for (const char *q = text; q < p; q++)
		if (*q == '\n')
			(*line)++;
	*off = (size_t)(p - text);
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (amd_read_file(in->path, REST_MAX, &b, err) < 0)
		return -1;
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(b.data, b.len + 1, &end, 1) /* + its NUL */;
	int ret;
	if (!root) {
		int line;
		size_t off;
		const char *at = end && end >= b.data && end <= b.data + b.len ? end : b.data + b.len;
		where_in(b.data, at, &line, &off);
		ret = amd_fail(err, "%s: line %d (byte %zu): %s", in->path, line, off,
			       at >= b.data + b.len ? "JSON ends early (truncated?)" : "invalid JSON");
	} else {
		struct rest r = {in->path, sink};
		const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "metrics");
		if (runs)
			ret = runs_search(&r, runs, err);
		else if (m)
			ret = history(in, &r, m, err);
		else
			ret = amd_fail(err, "%s: line 1: neither \"runs\" (runs/search) nor \"metrics\""
				       " (metrics/get-history)", in->path);
	}
	cJSON_Delete(root);
	amd_buf_free(&b);
	return ret < 0 ? amd_err_one_line(err) : 0;
}

const struct amd_format amd_fmt_mlflow_rest = {
	.name = "mlflow-rest",
	.variants = "MLflow REST JSON: runs/search, metrics/get-history (with --run)",
	.detect = detect,
	.parse = parse,
};
