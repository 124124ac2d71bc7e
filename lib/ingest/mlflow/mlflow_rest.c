/* mlflow_rest.c — JSON saved from MLflow's REST API, one module:
 *  - runs/search: {"runs":[{"info":{run_id, experiment_id, run_name,
 *    status, start_time, end_time, lifecycle_stage},
 *    "data":{"metrics":[{key,value,timestamp,step}],"params":[{key,value}],
 *    "tags":[{key,value}]}}]}; metrics there are each run's latest values;
 *  - metrics/get-history: {"metrics":[{key,value,timestamp,step}]}, which
 *    names no run: it belongs to the run given with --run (or the run
 *    whose artifacts hold it).
 * Protobuf's JSON mapping writes int64 as strings ("1795347736731") and
 * non-finite doubles as "NaN", "Infinity", "-Infinity"; both forms are
 * read. Two sections: what the values mean, with the errors; and the
 * stream that reads the file through yajl (a get-history of a long run
 * is hundreds of MB) and hands over one run (as a small cJSON tree) or
 * one point at a time. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "buf.h"
#include "chunks.h"
#include "csv.h" /* amd_err_one_line */
#include "file.h"
#include "ingest.h"
#include "json_guard.h"
#include "mlflow_tags.h"
#include "num.h"
#include "run.h"

struct amd_rest {
	const struct amd_input *in;
	struct amd_sink *sink;
	struct amd_err *err;
};

/* One JSON value as the rules below need it; str is valid only during
 * the call it is passed to. */
enum amd_rest_jtype { AMD_RJ_ABSENT, AMD_RJ_NULL, AMD_RJ_NUM, AMD_RJ_STR, AMD_RJ_OTHER };
struct amd_rest_jval {
	enum amd_rest_jtype type;
	double num;
	const char *str;
};

/* A metric's {key, value, timestamp, step}: key NULL when absent, empty
 * or not a string; *_rc -1 when that field is not what it must be. */
struct amd_rest_metric {
	const char *key;
	int value_rc, ts_rc, step_rc;
	double value;
	int64_t ts, step;
};

/* "value": a number, or a string ("NaN", "Infinity", "-Infinity", "1.5");
 * -1 otherwise. */
static int amd_rest_double(const struct amd_rest_jval *v, double *out);
/* "timestamp", "step", "start_time": a number that is an integer or a
 * decimal string; absent or null is 0; -1 otherwise. */
static int amd_rest_int64(const struct amd_rest_jval *v, int64_t *out);
/* Fails with "FILE: WHERE: WHAT". */
static int amd_rest_fail(const struct amd_rest *r, const char *where, const char *what);
/* Point i of the "metrics" array at where ("history", "runs[3]"). */
static int amd_rest_metric(const struct amd_rest *r, const char *where, long i,
		    const struct amd_rest_metric *m);
/* Element i of runs/search's "runs" array, whole (one run is small). */
static int amd_rest_run(const struct amd_rest *r, const cJSON *run, long i);
/* Before get-history's points: the run --run names (a response names
 * none). */
static int amd_rest_history_begin(const struct amd_rest *r);
/* Streams r->in's file, calling the three above. */
static int amd_rest_stream(const struct amd_rest *r);

/* ---- What the values mean. */

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

static int amd_rest_fail(const struct amd_rest *r, const char *where, const char *what)
{
	return amd_fail(r->err, "%s: %s: %s", r->in->path, where, what);
}

static int amd_rest_double(const struct amd_rest_jval *v, double *out)
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

static int amd_rest_int64(const struct amd_rest_jval *v, int64_t *out)
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

static int amd_rest_metric(const struct amd_rest *r, const char *where, long i,
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
	char at[600];
	snprintf(at, sizeof at, "%s: %s", r->in->path, where);
	for (const cJSON *kv = arr->child; kv; kv = kv->next) {
		const char *key = get_str(kv, "key");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(kv, "value");
		if (!key)
			return amd_rest_fail(r, where,
					     is_tag ? "a tag without \"key\"" : "a param without \"key\"");
		const char *text = cJSON_IsString(v) ? v->valuestring : "";
		if (amd_sink_key_value(r->sink, is_tag, at, key, text, strlen(text), r->err) < 0)
			return -1;
	}
	return 0;
}

/* Value of tag key as key_values reports it (the last entry with that
 * key wins, as in the store; a value that is not a string is ""), NULL
 * when the run has no such tag. */
static const char *tag_of(const cJSON *tags, const char *key)
{
	const char *out = NULL;
	const cJSON *kv;
	cJSON_ArrayForEach(kv, tags)
	{
		const char *k = get_str(kv, "key");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(kv, "value");
		if (k && strcmp(k, key) == 0)
			out = cJSON_IsString(v) ? v->valuestring : "";
	}
	return out;
}

static int amd_rest_run(const struct amd_rest *r, const cJSON *run, long i)
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
		.name = get_str(info, "run_name"),
		.sweep_ext_id = get_str(info, "experiment_id"),
		.status = amd_status_of_text(get_str(info, "status")),
	};
	const char *facts[AMD_MLFLOW_FACTS];
	for (int f = 0; f < AMD_MLFLOW_FACTS; f++)
		facts[f] = tag_of(tags, amd_mlflow_tag_key[f]);
	amd_mlflow_run_facts(&rec, facts);
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

static int amd_rest_history_begin(const struct amd_rest *r)
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

/* ---- The stream: an MLflow REST response through yajl
 * in chunks (gunzipped when gzipped, a byte-order mark skipped:
 * chunks.h) with bounded memory: each element of runs/search's
 * "runs" is built as a small cJSON tree and handed over whole (a run's
 * data are its latest values: small); each point of get-history's
 * "metrics" is decoded straight from the tokens, never held. Everything
 * else in the document is skipped. Read as a whole document would be:
 * the first of duplicate keys counts, "runs" wins over "metrics" (a
 * document with "metrics" before "runs", which MLflow never writes, is
 * refused), nesting deeper than 1000 (cJSON's limit) is invalid JSON,
 * and a token longer than 1 MiB is refused (json_guard.h). Errors: the
 * line and byte of invalid JSON, or the first section's one line. */

#define NEST_MAX 1000
#define BUILD_MAX NEST_MAX

/* Where the next token lands. */
enum at { AT_ROOT, AT_TOP_KEY, AT_TOP_VALUE, AT_RUNS, AT_BUILD, AT_HISTORY, AT_POINT_KEY,
	  AT_POINT_VALUE, AT_AFTER };
enum top { TOP_SKIP, TOP_RUNS, TOP_HISTORY };
enum field { F_NONE = -1, F_KEY, F_VALUE, F_TS, F_STEP };

struct stream {
	const struct amd_rest *r;
	int failed; /* a callback failed and filled r->err */
	enum at at;
	enum top top;
	int skip;   /* > 0: inside a skipped container, its nesting */
	int depth;  /* containers open */
	int seen_runs, seen_metrics;
	long index; /* element of "runs" or "metrics" */
	cJSON *stack[BUILD_MAX];
	int sp;
	struct amd_buf build_key; /* the key of the value to come in stack[sp-1] */
	unsigned seen;            /* fields of the point met (the first counts) */
	enum field field;
	struct amd_rest_metric point;
	struct amd_buf point_key, scratch;
};

static int fail_oom(struct stream *s)
{
	s->failed = 1;
	amd_fail(s->r->err, "%s: out of memory", s->r->in->path);
	return 0;
}

/* A callback's failure in r->err (rc < 0) stops yajl. */
static int go_on(struct stream *s, int rc)
{
	if (rc < 0)
		s->failed = 1;
	return rc >= 0;
}

static const char *cstr(struct stream *s, const unsigned char *p, size_t n)
{
	s->scratch.len = 0;
	return amd_buf_append(&s->scratch, p, n) < 0 ? NULL : s->scratch.data;
}

/* ---- runs/search: one run as a cJSON tree ---- */

static int build_add(struct stream *s, cJSON *item)
{
	if (!item)
		return fail_oom(s);
	if (s->sp == 0) { /* a scalar element of "runs" */
		int rc = amd_rest_run(s->r, item, s->index++);
		cJSON_Delete(item);
		return go_on(s, rc);
	}
	cJSON *top = s->stack[s->sp - 1];
	int ok = cJSON_IsObject(top) ? cJSON_AddItemToObject(top, s->build_key.data, item)
				     : cJSON_AddItemToArray(top, item);
	if (!ok) {
		cJSON_Delete(item);
		return fail_oom(s);
	}
	return 1;
}

static int build_open(struct stream *s, cJSON *c)
{
	if (!c)
		return fail_oom(s);
	if (s->sp == BUILD_MAX) {
		cJSON_Delete(c);
		return 0; /* invalid JSON here: no run is that deep */
	}
	if (s->sp > 0 && !build_add(s, c))
		return 0;
	s->stack[s->sp++] = c;
	s->at = AT_BUILD;
	return 1;
}

static int build_close(struct stream *s)
{
	cJSON *c = s->stack[--s->sp];
	if (s->sp > 0)
		return 1;
	s->at = AT_RUNS;
	int rc = amd_rest_run(s->r, c, s->index++);
	cJSON_Delete(c);
	return go_on(s, rc);
}

/* ---- get-history: one point from its tokens ---- */

static void point_start(struct stream *s)
{
	s->seen = 0;
	s->point = (struct amd_rest_metric){.value_rc = -1}; /* no "value" is an error */
	s->at = AT_POINT_KEY;
}

static enum field field_of(const unsigned char *k, size_t n)
{
	if (n == 3 && memcmp(k, "key", 3) == 0)
		return F_KEY;
	if (n == 5 && memcmp(k, "value", 5) == 0)
		return F_VALUE;
	if (n == 9 && memcmp(k, "timestamp", 9) == 0)
		return F_TS;
	if (n == 4 && memcmp(k, "step", 4) == 0)
		return F_STEP;
	return F_NONE;
}

static void point_field(struct stream *s, const unsigned char *k, size_t n)
{
	enum field f = field_of(k, n);
	s->field = f != F_NONE && !(s->seen & 1u << f) ? f : F_NONE;
	if (s->field != F_NONE)
		s->seen |= 1u << f;
	s->at = AT_POINT_VALUE;
}

static int point_value(struct stream *s, const struct amd_rest_jval *v)
{
	struct amd_rest_metric *m = &s->point;
	s->at = AT_POINT_KEY;
	switch (s->field) {
	case F_KEY:
		m->key = NULL;
		if (v->type == AMD_RJ_STR && v->str[0]) {
			s->point_key.len = 0;
			if (amd_buf_append(&s->point_key, v->str, strlen(v->str)) < 0)
				return fail_oom(s);
			m->key = s->point_key.data;
		}
		return 1;
	case F_VALUE:
		m->value_rc = amd_rest_double(v, &m->value);
		return 1;
	case F_TS:
		m->ts_rc = amd_rest_int64(v, &m->ts);
		return 1;
	case F_STEP:
		m->step_rc = amd_rest_int64(v, &m->step);
		return 1;
	default:
		return 1;
	}
}

static int point_end(struct stream *s)
{
	s->at = AT_HISTORY;
	return go_on(s, amd_rest_metric(s->r, "history", s->index++, &s->point));
}

/* ---- the events ---- */

static int top_key(struct stream *s, const unsigned char *k, size_t n)
{
	s->at = AT_TOP_VALUE;
	s->top = TOP_SKIP;
	if (n == 4 && memcmp(k, "runs", 4) == 0 && !s->seen_runs) {
		s->seen_runs = 1;
		s->top = TOP_RUNS;
		if (s->seen_metrics)
			return go_on(s, amd_fail(s->r->err, "%s: \"runs\" after \"metrics\": not one"
						 " MLflow response", s->r->in->path));
	} else if (n == 7 && memcmp(k, "metrics", 7) == 0 && !s->seen_metrics && !s->seen_runs) {
		s->seen_metrics = 1;
		s->top = TOP_HISTORY;
		return go_on(s, amd_rest_history_begin(s->r));
	}
	return 1;
}

/* The value of the top-level key just read is not an array: an error
 * for "runs" and "metrics", nothing for the keys skipped. */
static int top_not_array(struct stream *s)
{
	if (s->top == TOP_RUNS)
		return go_on(s, amd_rest_fail(s->r, "\"runs\"", "not an array"));
	if (s->top == TOP_HISTORY)
		return go_on(s, amd_rest_fail(s->r, "history", "\"metrics\" is not an array"));
	return 1;
}

/* A value that is not a container: type and number or string. */
static int scalar(struct stream *s, struct amd_rest_jval v, const unsigned char *str, size_t n)
{
	if (s->skip)
		return 1;
	if (v.type == AMD_RJ_STR && !(v.str = cstr(s, str, n)))
		return fail_oom(s);
	switch (s->at) {
	case AT_ROOT:
		s->at = AT_AFTER;
		return 1;
	case AT_TOP_VALUE:
		s->at = AT_TOP_KEY;
		return top_not_array(s);
	case AT_RUNS:
	case AT_BUILD:
		return build_add(s, v.type == AMD_RJ_NUM   ? cJSON_CreateNumber(v.num)
				    : v.type == AMD_RJ_STR ? cJSON_CreateString(v.str)
				    : v.type == AMD_RJ_NULL ? cJSON_CreateNull()
							    : cJSON_CreateBool(v.num != 0));
	case AT_HISTORY:
		point_start(s);
		return point_end(s); /* not an object: no "key" */
	case AT_POINT_VALUE:
		return point_value(s, &v);
	default:
		return 1;
	}
}

static int on_null(void *ctx)
{
	return scalar(ctx, (struct amd_rest_jval){AMD_RJ_NULL, 0, NULL}, NULL, 0);
}

static int on_bool(void *ctx, int b)
{
	return scalar(ctx, (struct amd_rest_jval){AMD_RJ_OTHER, b, NULL}, NULL, 0);
}

static int on_number(void *ctx, const char *p, size_t n)
{
	struct stream *s = ctx;
	if (s->skip)
		return 1;
	struct amd_rest_jval v = {AMD_RJ_NUM, 0, NULL};
	const char *t = cstr(s, (const unsigned char *)p, n);
	if (!t)
		return fail_oom(s);
	if (amd_parse_double(t, &v.num) < 0)
		return 0; /* yajl checked the form: cannot happen */
	return scalar(s, v, NULL, 0);
}

static int on_string(void *ctx, const unsigned char *p, size_t n)
{
	return scalar(ctx, (struct amd_rest_jval){AMD_RJ_STR, 0, ""}, p, n);
}

/* A container opens: is_map 1 for {, 0 for [. */
static int open_container(struct stream *s, int is_map)
{
	if (++s->depth > NEST_MAX)
		return 0;
	if (s->skip) {
		s->skip++;
		return 1;
	}
	switch (s->at) {
	case AT_ROOT:
		s->at = is_map ? AT_TOP_KEY : AT_AFTER;
		s->skip = !is_map;
		return 1;
	case AT_TOP_VALUE:
		s->at = AT_TOP_KEY;
		if (s->top != TOP_SKIP && !is_map) {
			s->at = s->top == TOP_RUNS ? AT_RUNS : AT_HISTORY;
			s->index = 0;
			return 1;
		}
		s->skip = 1;
		return top_not_array(s);
	case AT_RUNS:
	case AT_BUILD:
		return build_open(s, is_map ? cJSON_CreateObject() : cJSON_CreateArray());
	case AT_HISTORY:
		if (!is_map) {
			point_start(s);
			return point_end(s); /* an array: no "key" */
		}
		point_start(s);
		return 1;
	case AT_POINT_VALUE:
		s->skip = 1;
		return point_value(s, &(struct amd_rest_jval){AMD_RJ_OTHER, 0, NULL});
	default:
		s->skip = 1;
		return 1;
	}
}

static int close_container(struct stream *s)
{
	s->depth--;
	if (s->skip) {
		s->skip--;
		return 1;
	}
	switch (s->at) {
	case AT_TOP_KEY:
		s->at = AT_AFTER;
		return 1;
	case AT_RUNS:
	case AT_HISTORY:
		s->at = AT_TOP_KEY;
		return 1;
	case AT_BUILD:
		return build_close(s);
	case AT_POINT_KEY:
		return point_end(s);
	default:
		return 1;
	}
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, 1);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, 0);
}

static int on_end(void *ctx)
{
	return close_container(ctx);
}

static int on_key(void *ctx, const unsigned char *k, size_t n)
{
	struct stream *s = ctx;
	if (s->skip)
		return 1;
	if (s->at == AT_TOP_KEY)
		return top_key(s, k, n);
	if (s->at == AT_POINT_KEY) {
		point_field(s, k, n);
		return 1;
	}
	s->build_key.len = 0; /* AT_BUILD */
	return amd_buf_append(&s->build_key, k, n) < 0 ? fail_oom(s) : 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

/* ---- the file ---- */

struct place {
	long long offset; /* bytes before the chunk */
	int line;         /* lines before the chunk */
};

static void count_lines(struct place *p, const unsigned char *c, size_t n)
{
	for (const unsigned char *q = c; (q = memchr(q, '\n', (size_t)(c + n - q))); q++)
		p->line++;
	p->offset += (long long)n;
}

static int invalid(const struct amd_rest *r, struct place p, const char *what)
{
	return amd_fail(r->err, "%s: line %d (byte %lld): %s", r->in->path, p.line, p.offset,
			what);
}

/* Feeds the file's chunks (gunzipped when gzipped, a byte-order mark
 * skipped: chunks.h) to h. */
static int feed(struct stream *s, yajl_handle h, struct amd_chunk_reader *cr, struct place *p)
{
	const unsigned char *chunk;
	struct amd_json_guard guard;
	amd_json_guard_init(&guard, AMD_JSON_TOKEN_MAX);
	long n;
	while ((n = amd_chunks_next(cr, &chunk)) > 0) {
		size_t at;
		if (p->offset == 0) /* offsets count the file's bytes, a mark included */
			p->offset = (long long)amd_chunks_skipped(cr);
		if (amd_json_guard_scan(&guard, chunk, (size_t)n, &at) < 0)
			return amd_fail(s->r->err, "%s: byte %lld: %s longer than %u MiB",
					s->r->in->path, p->offset + (long long)at,
					amd_json_guard_what(&guard, chunk, at), AMD_JSON_TOKEN_MAX >> 20);
		if (yajl_parse(h, chunk, (size_t)n) != yajl_status_ok) {
			if (s->failed)
				return -1;
			count_lines(p, chunk, yajl_get_bytes_consumed(h));
			return invalid(s->r, *p, "invalid JSON");
		}
		count_lines(p, chunk, (size_t)n);
	}
	const char *msg;
	long long raw;
	int code = amd_chunks_status(cr, &msg, &raw);
	if (code != Z_OK && code != Z_STREAM_END)
		return amd_fail(s->r->err, "%s: byte %lld: %s", s->r->in->path, p->offset,
				code == Z_BUF_ERROR ? "truncated gzip stream" : msg);
	if (yajl_complete_parse(h) != yajl_status_ok)
		return s->failed ? -1 : invalid(s->r, *p, "JSON ends early (truncated?)");
	return 0;
}

static int amd_rest_stream(const struct amd_rest *r)
{
	struct amd_chunk_reader *cr;
	if (amd_chunks_open(r->in->path, &cr, r->err) < 0)
		return -1;
	struct stream s = {.r = r, .at = AT_ROOT};
	struct place p = {0, 1};
	yajl_handle h = yajl_alloc(&callbacks, NULL, &s);
	int rc = h ? 0 : amd_fail(r->err, "%s: out of memory", r->in->path);
	if (h)
		yajl_config(h, yajl_dont_validate_strings, 1); /* as cJSON: bytes as they are */
	if (rc == 0)
		rc = feed(&s, h, cr, &p);
	if (rc == 0 && !s.seen_runs && !s.seen_metrics)
		rc = amd_fail(r->err, "%s: line 1: neither \"runs\" (runs/search) nor \"metrics\""
			      " (metrics/get-history)", r->in->path);
	if (s.sp > 0) /* a run cut short: its root owns the rest */
		cJSON_Delete(s.stack[0]);
	if (h)
		yajl_free(h);
	amd_chunks_close(cr);
	amd_buf_free(&s.build_key);
	amd_buf_free(&s.point_key);
	amd_buf_free(&s.scratch);
	return rc;
}

const struct amd_format amd_fmt_mlflow_rest = {
	.name = "mlflow-rest",
	.variants = "MLflow REST JSON: runs/search, metrics/get-history (with --run)",
	.detect = detect,
	.parse = parse,
};
