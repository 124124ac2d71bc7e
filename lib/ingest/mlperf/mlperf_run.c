/* mlperf_run.c — one MLPerf log's events as a run exactly like an MLflow
 * run (see mlperf_run.h):
 *   run      name "<benchmark>-<nodes>x<accelerators per node>" (else
 *            "<benchmark>-<submission_platform>"), so the result_N.txt
 *            repeats of one configuration share it; sweep
 *            "mlperf-<benchmark>"; start and end at run_start and
 *            run_stop; FINISHED when run_stop says success, FAILED when
 *            it says anything else, RUNNING without a run_stop.
 *   params   every key logged once with a scalar value (submission_*,
 *            global_batch_size, seed, opt_*, …), and from the system
 *            description num_nodes, accelerators_per_node, world_size
 *            (their product), system_name, accelerator_model_name,
 *            submitter, framework.
 *   metrics  numeric keys logged more than once, eval_accuracy and the
 *            members of object values (tracked_stats/throughput), at the
 *            step of their samples_count, epoch_num or step (else the
 *            progress so far); epoch_time_s and throughput_samples_per_s
 *            per block (block_start to block_stop, else epoch_start to
 *            epoch_stop; step = the block's index, so block 0 — which
 *            holds the warm-up — is the epoch the statistics drop); and
 *            time_to_train_s, run_start to run_stop, at the step of the
 *            last progress the log reports (at least 1): MLPerf's own
 *            metric, logged once at the end as an MLflow user would. */
#include "mlperf_run.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "num.h"

struct mlperf_ev {
	char *key;
	struct amd_mlperf_event e;
	char *status;
	int has_num;
	double num;
	char *text; /* the value as text (numbers too), NULL when none */
};

struct mlperf_kv {
	char *key, *text;
};

/* The text of a scalar JSON value in out (NULL when it has none). */
static const char *scalar_text(const cJSON *v, char *out, size_t n)
{
	if (cJSON_IsString(v))
		return v->valuestring;
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v) ? "true" : "false";
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		amd_num_text(v->valuedouble, out, n);
		return out;
	}
	return NULL;
}

int amd_mlperf_add(struct amd_mlperf_log *log, const char *key, const char *member,
		   const struct amd_mlperf_event *e, const cJSON *value, const char *where,
		   struct amd_err *err)
{
	if (amd_grow(&log->ev, log->nev, &log->cap, sizeof *log->ev, 64) < 0)
		return amd_fail(err, "%s: out of memory", where);
	struct mlperf_ev *ev = &log->ev[log->nev];
	char num[64];
	const char *text = scalar_text(value, num, sizeof num);
	*ev = (struct mlperf_ev){.e = *e};
	ev->e.status = NULL;
	struct amd_buf k = {0};
	int bad = member ? amd_buf_printf(&k, "%s/%s", key, member) : amd_buf_printf(&k, "%s", key);
	ev->key = k.data;
	ev->status = e->status ? strdup(e->status) : NULL;
	ev->text = text ? strdup(text) : NULL;
	ev->has_num = cJSON_IsNumber(value) && isfinite(value->valuedouble);
	ev->num = ev->has_num ? value->valuedouble : NAN;
	log->nev++; /* freed with the log even when a copy failed */
	if (bad < 0 || (e->status && !ev->status) || (text && !ev->text))
		return amd_fail(err, "%s: out of memory", where);
	return 0;
}

int amd_mlperf_system(struct amd_mlperf_log *log, const char *key, const cJSON *value,
		      const char *where, struct amd_err *err)
{
	char num[64];
	const char *text = scalar_text(value, num, sizeof num);
	if (!text)
		return 0;
	if (amd_grow(&log->sys, log->nsys, &log->capsys, sizeof *log->sys, 8) < 0)
		return amd_fail(err, "%s: out of memory", where);
	struct mlperf_kv *kv = &log->sys[log->nsys++];
	kv->key = strdup(key);
	kv->text = strdup(text);
	return kv->key && kv->text ? 0 : amd_fail(err, "%s: out of memory", where);
}

void amd_mlperf_free(struct amd_mlperf_log *log)
{
	for (size_t i = 0; i < log->nev; i++) {
		free(log->ev[i].key);
		free(log->ev[i].status);
		free(log->ev[i].text);
	}
	for (size_t i = 0; i < log->nsys; i++) {
		free(log->sys[i].key);
		free(log->sys[i].text);
	}
	free(log->ev);
	free(log->sys);
	*log = (struct amd_mlperf_log){0};
}

/* ---- reading the events ---- */

/* The first point event of key with a value, or NULL. */
static const struct mlperf_ev *point(const struct amd_mlperf_log *log, const char *key)
{
	for (size_t i = 0; i < log->nev; i++)
		if (log->ev[i].e.kind == AMD_MLPERF_POINT && log->ev[i].text &&
		    strcmp(log->ev[i].key, key) == 0)
			return &log->ev[i];
	return NULL;
}

/* The system description's field, else the log's point event of the
 * same name, else NULL. */
static const char *system_text(const struct amd_mlperf_log *log, const char *key)
{
	for (size_t i = 0; i < log->nsys; i++)
		if (strcmp(log->sys[i].key, key) == 0)
			return log->sys[i].text;
	const struct mlperf_ev *e = point(log, key);
	return e ? e->text : NULL;
}

/* The first (last when last is set) event of kind and key. */
static const struct mlperf_ev *find(const struct amd_mlperf_log *log, int kind,
				    const char *key, int last)
{
	const struct mlperf_ev *f = NULL;
	for (size_t i = 0; i < log->nev && (last || !f); i++)
		if (log->ev[i].e.kind == kind && strcmp(log->ev[i].key, key) == 0)
			f = &log->ev[i];
	return f;
}

/* ---- which events are params and which metrics ---- */

enum { ROLE_NONE, ROLE_PARAM, ROLE_METRIC };

/* Point events with a value, by key, then in the log's order (qsort_r:
 * ingest workers sort at the same time). */
static int by_key(const void *a, const void *b, void *ctx)
{
	const struct amd_mlperf_log *log = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(log->ev[i].key, log->ev[j].key);
	return c ? c : (i > j) - (i < j);
}

static int valued_point(const struct mlperf_ev *ev)
{
	return ev->e.kind == AMD_MLPERF_POINT && ev->text;
}

/* role[i] for every event (see the top of the file): a key's events
 * are metrics when it is logged more than once with numbers, is
 * eval_accuracy or a member of an object value; else its first event
 * is a param. Sorting keeps this O(n log n) on any log. */
static void roles(const struct amd_mlperf_log *log, size_t *idx, char *role)
{
	size_t n = 0;
	memset(role, ROLE_NONE, log->nev);
	for (size_t i = 0; i < log->nev; i++)
		if (valued_point(&log->ev[i]))
			idx[n++] = i;
	qsort_r(idx, n, sizeof *idx, by_key, (void *)log);
	for (size_t a = 0, b; a < n; a = b) {
		const char *key = log->ev[idx[a]].key;
		size_t nums = 0;
		for (b = a; b < n && strcmp(log->ev[idx[b]].key, key) == 0; b++)
			nums += log->ev[idx[b]].has_num;
		int metric = nums > 1 || (nums == 1 && (strchr(key, '/') ||
						       strcmp(key, "eval_accuracy") == 0));
		for (size_t k = a; k < b; k++)
			if (metric)
				role[idx[k]] = log->ev[idx[k]].has_num ? ROLE_METRIC : ROLE_NONE;
		if (!metric)
			role[idx[a]] = ROLE_PARAM;
	}
}

/* ---- the run ---- */

struct emit {
	const struct amd_mlperf_log *log;
	struct amd_sink *sink;
	struct amd_err *err;
	const char *role; /* per event: ROLE_* */
};

static int param(struct emit *m, const char *key, const char *value)
{
	return m->sink->param && value ? m->sink->param(m->sink, key, value, m->err) : 0;
}

static int metric(struct emit *m, const char *key, int64_t step, int64_t ts, double v)
{
	return m->sink->metric ? m->sink->metric(m->sink, key, step, ts, v, m->err) : 0;
}

/* The run's record: name, sweep, id, status and times. */
static int run_record(struct emit *m, const char *nodes, const char *accel)
{
	const struct amd_mlperf_log *log = m->log;
	const struct mlperf_ev *b = point(log, "submission_benchmark");
	const struct mlperf_ev *pl = point(log, "submission_platform");
	const struct mlperf_ev *seed = point(log, "seed");
	const struct mlperf_ev *start = find(log, AMD_MLPERF_START, "run_start", 0);
	const struct mlperf_ev *stop = find(log, AMD_MLPERF_END, "run_stop", 1);
	const char *bench = b ? b->text : "mlperf";
	char name[512], sweep[300], id[700];
	if (nodes && accel)
		snprintf(name, sizeof name, "%.200s-%.60sx%.60s", bench, nodes, accel);
	else if (pl)
		snprintf(name, sizeof name, "%.200s-%.200s", bench, pl->text);
	else
		snprintf(name, sizeof name, "%.200s", bench);
	snprintf(sweep, sizeof sweep, "mlperf-%.200s", bench);
	int64_t t0 = start ? start->e.time_ms : log->ev[0].e.time_ms;
	snprintf(id, sizeof id, "mlperf:%s:%lld:%.60s", name, (long long)t0,
		 seed ? seed->text : "");
	if (start && stop && stop->e.time_ms < start->e.time_ms)
		return amd_fail(m->err, "%s: run_stop (time_ms %lld) precedes run_start (%lld)",
				log->path, (long long)stop->e.time_ms, (long long)start->e.time_ms);
	struct amd_run_rec r = {
		.ext_id = id,
		.name = name,
		.sweep = sweep,
		.status = !stop ? AMD_STATUS_RUNNING
			  : !stop->status || strcmp(stop->status, "success") == 0
			  ? AMD_STATUS_FINISHED : AMD_STATUS_FAILED,
		.start_ms = start ? start->e.time_ms : 0,
		.end_ms = stop ? stop->e.time_ms : 0,
	};
	return m->sink->run ? m->sink->run(m->sink, &r, m->err) : 0;
}

static int params(struct emit *m, const char *nodes, const char *accel)
{
	const struct amd_mlperf_log *log = m->log;
	int rc = 0;
	for (size_t i = 0; i < log->nev && rc == 0; i++)
		if (m->role[i] == ROLE_PARAM)
			rc = param(m, log->ev[i].key, log->ev[i].text);
	static const char *const sys[] = {"system_name", "accelerator_model_name", "submitter",
					   "framework"};
	for (size_t i = 0; i < sizeof sys / sizeof sys[0] && rc == 0; i++)
		rc = param(m, sys[i], system_text(log, sys[i]));
	if (rc == 0)
		rc = param(m, "num_nodes", nodes);
	if (rc == 0)
		rc = param(m, "accelerators_per_node", accel);
	char *end1, *end2, ws[64];
	long long a = nodes ? strtoll(nodes, &end1, 10) : 0;
	long long g = accel ? strtoll(accel, &end2, 10) : 0;
	if (rc == 0 && a > 0 && g > 0 && !*end1 && !*end2 && a < 1000000000 && g < 1000000000) {
		snprintf(ws, sizeof ws, "%lld", a * g);
		rc = param(m, "world_size", ws);
	}
	return rc;
}

/* epoch_time_s (and throughput when samples are known) per interval
 * start..stop, numbered from 0; *count gets how many. */
static int blocks(struct emit *m, const char *start_key, const char *stop_key, int64_t *count)
{
	const struct amd_mlperf_log *log = m->log;
	const struct mlperf_ev *open = NULL;
	int rc = 0;
	*count = 0;
	for (size_t i = 0; i < log->nev && rc == 0; i++) {
		const struct mlperf_ev *ev = &log->ev[i];
		if (ev->e.kind == AMD_MLPERF_START && strcmp(ev->key, start_key) == 0)
			open = ev;
		if (ev->e.kind != AMD_MLPERF_END || strcmp(ev->key, stop_key) != 0 || !open)
			continue;
		double secs = (double)(ev->e.time_ms - open->e.time_ms) / 1000.0;
		double samples = ev->e.samples - open->e.samples;
		rc = metric(m, "epoch_time_s", *count, ev->e.time_ms, secs);
		if (rc == 0 && secs > 0 && isfinite(samples) && samples > 0)
			rc = metric(m, "throughput_samples_per_s", *count, ev->e.time_ms,
				    samples / secs);
		++*count;
		open = NULL;
	}
	return rc;
}

static int metrics(struct emit *m)
{
	const struct amd_mlperf_log *log = m->log;
	int64_t progress = 0, nblocks = 0;
	int rc = 0;
	for (size_t i = 0; i < log->nev && rc == 0; i++) {
		const struct mlperf_ev *ev = &log->ev[i];
		if (ev->e.progress > progress)
			progress = ev->e.progress;
		if (m->role[i] == ROLE_METRIC)
			rc = metric(m, ev->key, ev->e.progress >= 0 ? ev->e.progress : progress,
				    ev->e.time_ms, ev->num);
	}
	if (rc == 0)
		rc = find(log, AMD_MLPERF_END, "block_stop", 0)
			? blocks(m, "block_start", "block_stop", &nblocks)
			: blocks(m, "epoch_start", "epoch_stop", &nblocks);
	const struct mlperf_ev *start = find(log, AMD_MLPERF_START, "run_start", 0);
	const struct mlperf_ev *stop = find(log, AMD_MLPERF_END, "run_stop", 1);
	if (rc == 0 && start && stop) {
		int64_t step = progress > nblocks ? progress : nblocks;
		rc = metric(m, "time_to_train_s", step > 0 ? step : 1, stop->e.time_ms,
			    (double)(stop->e.time_ms - start->e.time_ms) / 1000.0);
	}
	return rc;
}

int amd_mlperf_emit(const struct amd_mlperf_log *log, struct amd_sink *sink,
		    struct amd_err *err)
{
	if (log->nev == 0)
		return amd_fail(err, "%s: no :::MLLOG line", log->path);
	size_t *idx = malloc(log->nev * sizeof *idx);
	char *role = malloc(log->nev);
	if (!idx || !role) {
		free(idx);
		free(role);
		return amd_fail(err, "%s: out of memory", log->path);
	}
	roles(log, idx, role);
	free(idx);
	struct emit m = {log, sink, err, role};
	const char *nodes = system_text(log, "number_of_nodes");
	const char *accel = system_text(log, "accelerators_per_node");
	int rc = run_record(&m, nodes, accel) < 0 || params(&m, nodes, accel) < 0 ? -1
		 : metrics(&m);
	free(role);
	return rc;
}
