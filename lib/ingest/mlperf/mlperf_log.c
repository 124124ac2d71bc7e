/* mlperf_log.c — MLPerf training logs (mlperf_logging's `:::MLLOG {json}`
 * lines, the format of every MLCommons training result): a result file
 * (result_N.txt) or a raw launcher log where the lines carry a rank
 * prefix ("0: :::MLLOG …") among other output, and the system
 * description NVIDIA-style launchers print (`:::SYSJSON {…}`,
 * number_of_nodes and accelerators_per_node).
 *
 * Ranks: every :::MLLOG line is read (and must be JSON); the run is made
 * of the lines without a prefix (the launcher's own: cache_clear) and
 * those of the lowest rank that logs (rank 0, else the lowest present),
 * found by a first pass over the file. The other ranks' lines are
 * counted, and their run_stop status checked against the run's
 * (mlperf_run.c reports both as tags).
 *
 * One file is one run (mlperf_run.c turns its events into the run, its
 * params and metrics); every ":::MLLOG" line must be a JSON object with
 * a string "key" and a numeric "time_ms", else the file is refused with
 * its line number. v1.0 logs have no event_type: a key ending in _start
 * or _stop is an interval's start or end; a key ending in _stop is an
 * end whatever its event_type says (Graphcore logs run_stop as an
 * INTERVAL_START), one ending in _start a start. */
#include <stdio.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "file.h"
#include "ingest.h"
#include "mlperf_run.h"

#define LINE_MAX_BYTES (4u << 20)     /* one line of a launcher's log */
#define FILE_MAX_BYTES (4ULL << 30)   /* a log, decompressed */

/* The text after "[spaces][digits: ]:::TAG " in line, NULL when the
 * line is not one; *rank gets the prefix's number (-1 without one). */
static const char *tagged(const char *line, const char *tag, long *rank)
{
	const char *p = line;
	*rank = -1;
	while (*p == ' ')
		p++;
	if (isdigit((unsigned char)*p)) {
		char *end;
		long r = strtol(p, &end, 10);
		if (end[0] != ':' || end[1] != ' ')
			return NULL;
		*rank = r;
		p = end + 2;
	}
	size_t tl = strlen(tag);
	return strncmp(p, tag, tl) == 0 ? p + tl : NULL;
}

/* The lines of the head: a :::MLLOG object at a line's start (after a
 * rank prefix) is this format; NVIDIA/Lambda launcher logs print the
 * system (:::SYSJSON, :::DLPAL) first and their first :::MLLOG line
 * comes tens of kilobytes later. */
static int detect(const char *path, const unsigned char *head, size_t n)
{
	char buf[AMD_HEAD_BYTES + 1];
	size_t len = n < AMD_HEAD_BYTES ? n : AMD_HEAD_BYTES;
	memcpy(buf, head, len);
	buf[len] = '\0';
	int score = 0;
	long rank;
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		const char *js = tagged(l, ":::MLLOG ", &rank);
		if (js && *js == '{')
			return 90;
		if (((js = tagged(l, ":::SYSJSON ", &rank)) && *js == '{') ||
		    tagged(l, ":::DLPAL ", &rank))
			score = 80;
	}
	return score;
}

#define DEEP_BYTES (4u << 20) /* the prefix detect_deep reads */

/* A text file no format claims by its head: a :::MLLOG object at a
 * line's start anywhere in its first 4 MB (a result_N.txt whose first
 * :::MLLOG line follows thousands of lines of a launcher's output). */
static int detect_deep(const char *path, const unsigned char *head, size_t n)
{
	if (n == 0 || memchr(head, '\0', n))
		return 0; /* binary: not a log */
	struct amd_err e;
	struct amd_lines *l = amd_lines_open(path, 1u << 20, DEEP_BYTES, &e);
	if (!l)
		return 0;
	char *s;
	size_t len;
	long rank;
	int score = 0;
	while (!score && amd_lines_next(l, &s, &len, &e) == 1) {
		const char *js = tagged(s, ":::MLLOG ", &rank);
		score = js && *js == '{' ? 90 : 0;
	}
	amd_lines_close(l);
	return score;
}

/* "KEY_start"/"KEY_stop" when the log names no event_type (v1.0). */
static int event_kind(const cJSON *type, const char *key)
{
	const char *t = cJSON_IsString(type) ? type->valuestring : NULL;
	size_t n = strlen(key);
	int starts = n > 6 && strcmp(key + n - 6, "_start") == 0;
	int stops = n > 5 && strcmp(key + n - 5, "_stop") == 0;
	int interval = t && (strcmp(t, "INTERVAL_START") == 0 || strcmp(t, "INTERVAL_END") == 0);
	if (t && !interval)
		return AMD_MLPERF_POINT;
	if (stops)
		return AMD_MLPERF_END;
	if (starts)
		return AMD_MLPERF_START;
	if (t)
		return strcmp(t, "INTERVAL_START") == 0 ? AMD_MLPERF_START : AMD_MLPERF_END;
	return AMD_MLPERF_POINT;
}

/* The event's progress: samples_count, else epoch_num (its fraction
 * kept in e->epoch), else step. */
static void event_progress(const cJSON *meta, struct amd_mlperf_event *e)
{
	static const char *const keys[] = {"samples_count", "epoch_num", "step"};
	e->progress = -1;
	e->samples = e->epoch = NAN;
	for (size_t i = 0; i < 3; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(meta, keys[i]);
		if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 &&
		    v->valuedouble < 9e15) {
			if (e->progress < 0) {
				e->progress = (int64_t)v->valuedouble;
				if (i == 1) /* DLRM's epoch_num 0.05, 0.10, …: kept whole */
					e->epoch = v->valuedouble;
			}
			if (i == 0)
				e->samples = v->valuedouble;
		}
	}
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(meta, "status");
	e->status = cJSON_IsString(st) ? st->valuestring : NULL;
}

/* Adds the event(s) of one parsed :::MLLOG object: an object value
 * ("tracked_stats": {"throughput": x}) is one event per numeric member,
 * named KEY/MEMBER. */
static int add_events(struct amd_mlperf_log *log, const cJSON *o, const char *where,
		      struct amd_err *err)
{
	const cJSON *key = cJSON_GetObjectItemCaseSensitive(o, "key");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "time_ms");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "value");
	if (!cJSON_IsString(key) || !key->valuestring[0])
		return amd_fail(err, "%s: no string \"key\"", where);
	if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || fabs(t->valuedouble) > 9e15)
		return amd_fail(err, "%s: \"time_ms\" is not a time in milliseconds", where);
	struct amd_mlperf_event e = {
		.kind = event_kind(cJSON_GetObjectItemCaseSensitive(o, "event_type"),
				   key->valuestring),
		.time_ms = (int64_t)t->valuedouble,
	};
	event_progress(cJSON_GetObjectItemCaseSensitive(o, "metadata"), &e);
	if (!cJSON_IsObject(v))
		return amd_mlperf_add(log, key->valuestring, NULL, &e, v, where, err);
	for (const cJSON *m = v->child; m; m = m->next)
		if (cJSON_IsNumber(m) && m->string &&
		    amd_mlperf_add(log, key->valuestring, m->string, &e, m, where, err) < 0)
			return -1;
	return 0;
}

/* number_of_nodes and accelerators_per_node of a :::SYSJSON object. */
static int add_system(struct amd_mlperf_log *log, const cJSON *o, const char *where,
		      struct amd_err *err)
{
	static const char *const keys[] = {"number_of_nodes", "accelerators_per_node",
					   "system_name", "accelerator_model_name", "submitter",
					   "framework"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
		if ((cJSON_IsString(v) && v->valuestring[0]) || cJSON_IsNumber(v))
			if (amd_mlperf_system(log, keys[i], v, where, err) < 0)
				return -1;
	}
	return 0;
}

/* Another rank's event: counted, and its run_stop status kept for the
 * check that ranks agree. */
static int other_rank(struct amd_mlperf_log *log, long rank, const cJSON *o, const char *where,
		      struct amd_err *err)
{
	const cJSON *key = cJSON_GetObjectItemCaseSensitive(o, "key");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(o, "metadata"), "status");
	if (!cJSON_IsString(key) || !key->valuestring[0])
		return amd_fail(err, "%s: no string \"key\"", where);
	int stop = strcmp(key->valuestring, "run_stop") == 0;
	return amd_mlperf_other_rank(log, rank, stop && cJSON_IsString(st) ? st->valuestring
						   : stop ? "" : NULL, where, err);
}

/* One line: a :::MLLOG line of the run's rank (keep) or of no rank, a
 * :::MLLOG line of another rank (checked), a :::SYSJSON line, or else
 * nothing. */
static int line(struct amd_mlperf_log *log, const char *path, long no, const char *s,
		long keep, struct amd_err *err)
{
	long rank;
	int sys = 0;
	const char *js = tagged(s, ":::MLLOG ", &rank);
	if (!js && (js = tagged(s, ":::SYSJSON ", &rank)))
		sys = 1;
	if (!js)
		return 0;
	char where[512];
	snprintf(where, sizeof where, "%s: line %ld", path, no);
	cJSON *o = cJSON_Parse(js);
	if (!o) {
		const char *at = cJSON_GetErrorPtr();
		return amd_fail(err, "%s: %s is not JSON (byte %ld of the object)", where,
				sys ? ":::SYSJSON" : ":::MLLOG", at && at >= js ? (long)(at - js) : 0L);
	}
	int rc = !cJSON_IsObject(o) ? amd_fail(err, "%s: not a JSON object", where)
		 : sys ? add_system(log, o, where, err)
		 : rank >= 0 && rank != keep ? other_rank(log, rank, o, where, err)
		 : add_events(log, o, where, err);
	cJSON_Delete(o);
	return rc;
}

/* The lowest rank prefix of a :::MLLOG line (-1 when no line has one):
 * a first pass over the file. */
static int lowest_rank(const char *path, long *lowest, struct amd_err *err)
{
	struct amd_lines *l = amd_lines_open(path, LINE_MAX_BYTES, FILE_MAX_BYTES, err);
	if (!l)
		return -1;
	char *s;
	size_t len;
	long rank;
	int got;
	*lowest = -1;
	while ((got = amd_lines_next(l, &s, &len, err)) == 1)
		if (tagged(s, ":::MLLOG ", &rank) && rank >= 0 && (*lowest < 0 || rank < *lowest))
			*lowest = rank;
	amd_lines_close(l);
	return got < 0 ? -1 : 0;
}

/* The results folder's system description: a log at
 * ROOT/results/SYSTEM/BENCHMARK/result_N.txt (MLCommons' layout) has
 * ROOT/systems/SYSTEM.json, whose number_of_nodes and
 * accelerators_per_node (and names) count after the log's own
 * :::SYSJSON. No such file: nothing; one that is not a JSON object: an
 * error naming it. */
static int folder_system(struct amd_mlperf_log *log, const char *path, struct amd_err *err)
{
	char p[4096];
	if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
		return 0;
	char *cut[3];
	for (int i = 0; i < 3; i++) { /* result_N.txt, BENCHMARK, SYSTEM */
		cut[i] = strrchr(p, '/');
		if (!cut[i])
			return 0;
		*cut[i] = '\0';
	}
	const char *system = cut[2] + 1, *results = strrchr(p, '/');
	results = results ? results + 1 : p;
	if (strcmp(results, "results") != 0 || !*system)
		return 0;
	char sys[8400];
	snprintf(sys, sizeof sys, "%.*ssystems/%s.json", (int)(results - p), p, system);
	if (!amd_is_file(sys))
		return 0;
	struct amd_buf b = {0};
	if (amd_read_file(sys, 1u << 20, &b, err) < 0)
		return -1;
	cJSON *o = cJSON_Parse(b.data);
	amd_buf_free(&b);
	char where[8800];
	snprintf(where, sizeof where, "%s: the system description %s", path, sys);
	int rc = cJSON_IsObject(o) ? add_system(log, o, where, err)
		 : amd_fail(err, "%s is not a JSON object", where);
	cJSON_Delete(o);
	return rc;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	long keep;
	if (lowest_rank(in->path, &keep, err) < 0)
		return -1;
	struct amd_lines *l = amd_lines_open(in->path, LINE_MAX_BYTES, FILE_MAX_BYTES, err);
	if (!l)
		return -1;
	struct amd_mlperf_log log = {.path = in->path, .rank = keep};
	char *s;
	size_t len;
	int got, ret = 0;
	while (ret == 0 && (got = amd_lines_next(l, &s, &len, err)) == 1) {
		if (memchr(s, '\0', len))
			ret = amd_fail(err, "%s: line %ld: a NUL byte", in->path,
				       amd_lines_number(l));
		else
			ret = line(&log, in->path, amd_lines_number(l), s, keep, err);
	}
	amd_lines_close(l);
	if (ret == 0 && got == 0)
		ret = folder_system(&log, in->path, err);
	if (ret == 0 && got == 0)
		ret = amd_mlperf_emit(&log, sink, err);
	amd_mlperf_free(&log);
	return ret < 0 || got < 0 ? -1 : 0;
}

const struct amd_format amd_fmt_mlperf_log = {
	.name = "mlperf-log",
	.variants = "MLPerf training logs (:::MLLOG lines, result_N.txt, launcher logs with rank prefixes)",
	.is_dir = 0,
	.detect = detect,
	.parse = parse,
	.detect_deep = detect_deep,
	.is_run = 1,
};
