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
 *            submitter, framework; the system description is the
 *            :::SYSJSON line, else the results folder's system JSON
 *            (mlperf_log.c), else submission_platform "NxSYSTEM" (N nodes,
 *            as NVIDIA's and Lambda's launchers write it; accelerators per
 *            node only when SYSTEM says "…x8…", as in "2xXE9680x8"),
 *            else, in a launcher log where every rank 0..R-1 logs, the
 *            world size R (accelerators per node R / nodes).
 *   tags     for a log of many ranks: mlperf.run_rank (whose events make
 *            the run), mlperf.ranks (how many logged) and, when another
 *            rank's run_stop status differs from the run's,
 *            mlperf.ranks_disagree naming both.
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

#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ingest.h"
#include "num.h"

struct mlperf_ev {
	uint32_t key;    /* id in log->names */
	uint8_t kind;    /* AMD_MLPERF_* */
	uint8_t valued;  /* a point with a scalar value (text) */
	uint8_t has_num; /* ... that is a finite number: num */
	int64_t time_ms, progress;
	double samples, num;
	double epoch;    /* progress as a (fractional) epoch_num, else NAN */
};

/* Per key: where its events are (event index + 1; 0 = none). */
struct mlperf_key {
	size_t first_point; /* the first point with a value */
	size_t first_start, first_end, last_end;
	size_t nums;        /* points with a finite number */
	char *text;         /* the first point's value as text */
	char *last_status;  /* metadata status of the last end event */
};

struct mlperf_kv {
	char *key, *text;
};

/* The text of a scalar JSON value in out (NULL when it has none: the
 * event's "valued" says the same). */
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

/* The id of name (> 0), with room for it in keys; 0 out of memory. */
static uint32_t key_id(struct amd_mlperf_log *log, const char *name, size_t n)
{
	uint32_t id = amd_strtab_intern(&log->names, name, n);
	if (id == 0 || id < log->capkeys)
		return id;
	size_t old = log->capkeys;
	if (amd_grow_to(&log->keys, (size_t)id + 1, &log->capkeys, sizeof *log->keys, 64) < 0)
		return 0;
	memset(log->keys + old, 0, (log->capkeys - old) * sizeof *log->keys);
	return id;
}

/* What event i (just stored, its value v) tells about its key; the
 * value's text is made only for the key's first point. */
static int note_key(struct mlperf_key *k, const struct mlperf_ev *ev, size_t i,
		    const cJSON *v, const char *status)
{
	if (ev->kind == AMD_MLPERF_START && !k->first_start)
		k->first_start = i + 1;
	if (ev->kind == AMD_MLPERF_END) {
		k->first_end = k->first_end ? k->first_end : i + 1;
		k->last_end = i + 1;
		free(k->last_status);
		k->last_status = status ? strdup(status) : NULL;
		if (status && !k->last_status)
			return -1;
	}
	if (ev->kind != AMD_MLPERF_POINT || !ev->valued)
		return 0;
	k->nums += ev->has_num;
	if (k->first_point)
		return 0;
	k->first_point = i + 1;
	char num[64];
	return (k->text = strdup(scalar_text(v, num, sizeof num))) ? 0 : -1;
}

int amd_mlperf_add(struct amd_mlperf_log *log, const char *key, const char *member,
		   const struct amd_mlperf_event *e, const cJSON *value, const char *where,
		   struct amd_err *err)
{
	log->name.len = 0;
	uint32_t id = 0;
	if (amd_buf_append(&log->name, key, strlen(key)) == 0 &&
	    (!member || (amd_buf_append(&log->name, "/", 1) == 0 &&
			 amd_buf_append(&log->name, member, strlen(member)) == 0)))
		id = key_id(log, log->name.data, log->name.len);
	if (id == 0 || amd_grow(&log->ev, log->nev, &log->cap, sizeof *log->ev, 64) < 0)
		return amd_fail(err, "%s: out of memory", where);
	int has_num = cJSON_IsNumber(value) && isfinite(value->valuedouble);
	struct mlperf_ev *ev = &log->ev[log->nev];
	*ev = (struct mlperf_ev){
		.key = id,
		.kind = (uint8_t)e->kind,
		.valued = has_num || cJSON_IsString(value) || cJSON_IsBool(value), /* scalar_text */
		.has_num = (uint8_t)has_num,
		.time_ms = e->time_ms,
		.progress = e->progress,
		.samples = e->samples,
		.epoch = e->epoch,
	};
	log->fractional |= isfinite(e->epoch) && e->epoch != floor(e->epoch);
	ev->num = ev->has_num ? value->valuedouble : NAN;
	if (note_key(&log->keys[id], ev, log->nev, value, e->status) < 0)
		return amd_fail(err, "%s: out of memory", where);
	log->nev++;
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

int amd_mlperf_other_rank(struct amd_mlperf_log *log, long rank, const char *status,
			  const char *where, struct amd_err *err)
{
	if (log->nranks == 0 || rank > log->max_rank)
		log->max_rank = rank;
	if (rank < AMD_MLPERF_MAX_RANK) {
		size_t old = log->capranks;
		if ((size_t)rank >= old) {
			if (amd_grow_to(&log->ranks, (size_t)rank + 1, &log->capranks, 1, 64) < 0)
				return amd_fail(err, "%s: out of memory", where);
			memset(log->ranks + old, 0, log->capranks - old);
		}
		log->nranks += !log->ranks[rank];
		log->ranks[rank] = 1;
	}
	if (!status)
		return 0;
	if (amd_grow(&log->stops, log->nstops, &log->capstops, sizeof *log->stops, 8) < 0)
		return amd_fail(err, "%s: out of memory", where);
	char r[32];
	snprintf(r, sizeof r, "%ld", rank);
	struct mlperf_kv *kv = &log->stops[log->nstops++];
	kv->key = strdup(r);
	kv->text = strdup(status);
	return kv->key && kv->text ? 0 : amd_fail(err, "%s: out of memory", where);
}

void amd_mlperf_free(struct amd_mlperf_log *log)
{
	for (size_t i = 0; i < log->capkeys; i++) {
		free(log->keys[i].text);
		free(log->keys[i].last_status);
	}
	for (size_t i = 0; i < log->nsys; i++) {
		free(log->sys[i].key);
		free(log->sys[i].text);
	}
	for (size_t i = 0; i < log->nstops; i++) {
		free(log->stops[i].key);
		free(log->stops[i].text);
	}
	free(log->ranks);
	free(log->stops);
	free(log->ev);
	free(log->keys);
	free(log->sys);
	amd_strtab_free(&log->names);
	amd_buf_free(&log->name);
	*log = (struct amd_mlperf_log){0};
}

/* ---- reading the events ---- */

/* The key named name; NULL when no event has it. Only the few names
 * the run is made of are looked up, once each. */
static const struct mlperf_key *key_of(const struct amd_mlperf_log *log, const char *name,
				       uint32_t *id)
{
	for (uint32_t i = 1; i < log->names.n; i++)
		if (strcmp(log->names.s[i], name) == 0) {
			if (id)
				*id = i;
			return &log->keys[i];
		}
	return NULL;
}

/* The first point event of key with a value: its text, or NULL. */
static const char *point(const struct amd_mlperf_log *log, const char *key)
{
	const struct mlperf_key *k = key_of(log, key, NULL);
	return k && k->first_point ? k->text : NULL;
}

/* The system description's field, else the log's point event of the
 * same name, else NULL. */
static const char *system_text(const struct amd_mlperf_log *log, const char *key)
{
	for (size_t i = 0; i < log->nsys; i++)
		if (strcmp(log->sys[i].key, key) == 0)
			return log->sys[i].text;
	return point(log, key);
}

/* The event at index + 1 (0: none), or NULL. */
static const struct mlperf_ev *event_at(const struct amd_mlperf_log *log, size_t at1)
{
	return at1 ? &log->ev[at1 - 1] : NULL;
}

/* ---- which events are params and which metrics ---- */

enum { ROLE_NONE, ROLE_PARAM, ROLE_METRIC };

/* role[i] for every event (see the top of the file): a key's events
 * are metrics when it is logged more than once with numbers, is
 * eval_accuracy or a member of an object value; else its first event
 * with a value is a param. */
static void roles(const struct amd_mlperf_log *log, char *metric_key, char *role)
{
	for (uint32_t id = 1; id < log->names.n; id++) {
		const struct mlperf_key *k = &log->keys[id];
		const char *name = log->names.s[id];
		metric_key[id] = k->nums > 1 || (k->nums == 1 && (strchr(name, '/') ||
								  strcmp(name, "eval_accuracy") == 0));
	}
	for (size_t i = 0; i < log->nev; i++) {
		const struct mlperf_ev *ev = &log->ev[i];
		role[i] = ROLE_NONE;
		if (ev->kind != AMD_MLPERF_POINT || !ev->valued)
			continue;
		if (metric_key[ev->key])
			role[i] = ev->has_num ? ROLE_METRIC : ROLE_NONE;
		else if (log->keys[ev->key].first_point == i + 1)
			role[i] = ROLE_PARAM;
	}
}

/* ---- the run ---- */

struct emit {
	const struct amd_mlperf_log *log;
	struct amd_sink *sink;
	struct amd_err *err;
	const char *role; /* per event: ROLE_* */
	const struct mlperf_ev *start, *stop; /* first run_start, last run_stop */
	const char *stop_status;
	double epoch_scale; /* steps per epoch_num when epochs are fractional, else 0 */
	const char *step_unit; /* what epoch_scale is */
};

/* An event's step: its progress, or in a log with fractional epochs
 * its epoch_num x epoch_scale (train_samples, else 1000), rounded. */
static int64_t ev_step(const struct emit *m, const struct mlperf_ev *ev)
{
	if (m->epoch_scale > 0 && isfinite(ev->epoch))
		return (int64_t)llround(ev->epoch * m->epoch_scale);
	return ev->progress;
}

static int param(struct emit *m, const char *key, const char *value)
{
	return value ? amd_sink_key_value(m->sink, 0, m->log->path, key, value, strlen(value),
					  m->err) : 0;
}

static int metric(struct emit *m, const char *key, int64_t step, int64_t ts, double v)
{
	return m->sink->metric ? m->sink->metric(m->sink, key, step, ts, v, m->err) : 0;
}

/* The run's record: name, sweep, id, status and times. */
static int run_record(struct emit *m, const char *nodes, const char *accel)
{
	const struct amd_mlperf_log *log = m->log;
	const char *b = point(log, "submission_benchmark");
	const char *pl = point(log, "submission_platform");
	const char *seed = point(log, "seed");
	const struct mlperf_ev *start = m->start, *stop = m->stop;
	const char *bench = b ? b : "mlperf";
	char name[512], sweep[300], id[700];
	if (nodes && accel)
		snprintf(name, sizeof name, "%.200s-%.60sx%.60s", bench, nodes, accel);
	else if (pl)
		snprintf(name, sizeof name, "%.200s-%.200s", bench, pl);
	else
		snprintf(name, sizeof name, "%.200s", bench);
	snprintf(sweep, sizeof sweep, "mlperf-%.200s", bench);
	int64_t t0 = start ? start->time_ms : log->ev[0].time_ms;
	snprintf(id, sizeof id, "mlperf:%s:%lld:%.60s", name, (long long)t0,
		 seed ? seed : "");
	if (start && stop && stop->time_ms < start->time_ms)
		return amd_fail(m->err, "%s: run_stop (time_ms %lld) precedes run_start (%lld)",
				log->path, (long long)stop->time_ms, (long long)start->time_ms);
	struct amd_run_rec r = {
		.ext_id = id,
		.name = name,
		.sweep = sweep,
		.status = !stop ? AMD_STATUS_RUNNING
			  : !m->stop_status || strcmp(m->stop_status, "success") == 0
			  ? AMD_STATUS_FINISHED : AMD_STATUS_FAILED,
		.start_ms = start ? start->time_ms : 0,
		.end_ms = stop ? stop->time_ms : 0,
	};
	return m->sink->run ? m->sink->run(m->sink, &r, m->err) : 0;
}

/* "NxSYSTEM": nodes N into nodes[]; accelerators per node into accel[]
 * when SYSTEM holds "x<digits>" after a letter or digit and before a
 * non-digit ("XE9680x8", "XE9680x8H100-SXM-80GB"); "" when unknown. */
static void platform_system(const char *pl, char nodes[24], char accel[24])
{
	nodes[0] = accel[0] = '\0';
	if (!pl)
		return;
	char *end;
	long n = strtol(pl, &end, 10);
	if (end == pl || *end != 'x' || n <= 0 || n > 1000000 || pl[0] == '-' || pl[0] == '+')
		return;
	snprintf(nodes, 24, "%ld", n);
	for (const char *p = end + 1; *p; p++) {
		if (*p != 'x' || p == end + 1 || !isalnum((unsigned char)p[-1]) ||
		    !isdigit((unsigned char)p[1]))
			continue;
		char *e2;
		long g = strtol(p + 1, &e2, 10);
		if (g > 0 && g <= 1000000 && !isdigit((unsigned char)*e2)) {
			snprintf(accel, 24, "%ld", g);
			return;
		}
	}
}

/* The world size a launcher log's ranks give: R when ranks 0..R-1 all
 * logged (R > 1), else 0. */
static long ranks_world(const struct amd_mlperf_log *log)
{
	long r = (long)log->nranks + 1;
	return log->rank == 0 && log->nranks > 0 && log->max_rank == r - 1 ? r : 0;
}

static int params(struct emit *m, const char *nodes, const char *accel, long ranks)
{
	const struct amd_mlperf_log *log = m->log;
	int rc = 0;
	for (size_t i = 0; i < log->nev && rc == 0; i++)
		if (m->role[i] == ROLE_PARAM)
			rc = param(m, log->names.s[log->ev[i].key], log->keys[log->ev[i].key].text);
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
	} else if (rc == 0 && ranks > 0 && !accel) {
		snprintf(ws, sizeof ws, "%ld", ranks);
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
	uint32_t start_id = 0, stop_id = 0; /* 0: no event has the key */
	key_of(log, start_key, &start_id);
	key_of(log, stop_key, &stop_id);
	int rc = 0;
	*count = 0;
	for (size_t i = 0; i < log->nev && rc == 0; i++) {
		const struct mlperf_ev *ev = &log->ev[i];
		if (ev->kind == AMD_MLPERF_START && ev->key == start_id)
			open = ev;
		if (ev->kind != AMD_MLPERF_END || ev->key != stop_id || !open)
			continue;
		double secs = (double)(ev->time_ms - open->time_ms) / 1000.0;
		double samples = ev->samples - open->samples;
		rc = metric(m, "epoch_time_s", *count, ev->time_ms, secs);
		if (rc == 0 && secs > 0 && isfinite(samples) && samples > 0)
			rc = metric(m, "throughput_samples_per_s", *count, ev->time_ms,
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
		int64_t step = ev_step(m, ev);
		if (step > progress)
			progress = step;
		if (m->role[i] == ROLE_METRIC)
			rc = metric(m, log->names.s[ev->key], step >= 0 ? step : progress, ev->time_ms,
				    ev->num);
	}
	const struct mlperf_key *block_stop = key_of(log, "block_stop", NULL);
	if (rc == 0)
		rc = block_stop && block_stop->first_end
			? blocks(m, "block_start", "block_stop", &nblocks)
			: blocks(m, "epoch_start", "epoch_stop", &nblocks);
	if (rc == 0 && m->start && m->stop) {
		int64_t step = progress > nblocks ? progress : nblocks;
		rc = metric(m, "time_to_train_s", step > 0 ? step : 1, m->stop->time_ms,
			    (double)(m->stop->time_ms - m->start->time_ms) / 1000.0);
	}
	return rc;
}

static int tag(struct emit *m, const char *key, const char *value)
{
	return m->sink->tag ? m->sink->tag(m->sink, key, value, m->err) : 0;
}

/* Which rank the run is, how many logged, and the first other rank whose
 * run_stop status differs from the run's. */
static int rank_tags(struct emit *m)
{
	const struct amd_mlperf_log *log = m->log;
	if (log->nranks == 0)
		return 0;
	char v[64];
	snprintf(v, sizeof v, "%ld", log->rank);
	int rc = tag(m, "mlperf.run_rank", v);
	snprintf(v, sizeof v, "%zu", log->nranks + 1);
	if (rc == 0)
		rc = tag(m, "mlperf.ranks", v);
	const char *mine = !m->stop ? "(no run_stop)" : m->stop_status ? m->stop_status : "";
	for (size_t i = 0; i < log->nstops && rc == 0; i++)
		if (strcmp(log->stops[i].text, mine) != 0) {
			char why[512];
			snprintf(why, sizeof why, "rank %s: run_stop status '%.120s'; rank %ld: '%.120s'",
				 log->stops[i].key, log->stops[i].text, log->rank, mine);
			return tag(m, "mlperf.ranks_disagree", why);
		}
	return rc;
}

/* What a step is in a log with fractional epochs. */
static int step_tag(struct emit *m)
{
	if (m->epoch_scale <= 0)
		return 0;
	return tag(m, "mlperf.step", m->step_unit);
}

int amd_mlperf_emit(const struct amd_mlperf_log *log, struct amd_sink *sink,
		    struct amd_err *err)
{
	if (log->nev == 0)
		return amd_fail(err, "%s: no :::MLLOG line", log->path);
	char *metric_key = malloc(log->names.n);
	char *role = malloc(log->nev);
	if (!metric_key || !role) {
		free(metric_key);
		free(role);
		return amd_fail(err, "%s: out of memory", log->path);
	}
	roles(log, metric_key, role);
	free(metric_key);
	const struct mlperf_key *start = key_of(log, "run_start", NULL);
	const struct mlperf_key *stop = key_of(log, "run_stop", NULL);
	struct emit m = {
		.log = log,
		.sink = sink,
		.err = err,
		.role = role,
		.start = start ? event_at(log, start->first_start) : NULL,
		.stop = stop ? event_at(log, stop->last_end) : NULL,
		.stop_status = stop && stop->last_end ? stop->last_status : NULL,
	};
	const char *ts = point(log, "train_samples");
	double train = ts ? strtod(ts, NULL) : 0;
	if (log->fractional) {
		int samples = isfinite(train) && train >= 1 && train < 1e15;
		m.epoch_scale = samples ? train : 1000;
		m.step_unit = samples ? "samples: epoch_num x train_samples"
				      : "milli-epochs: epoch_num x 1000";
	}
	const char *nodes = system_text(log, "number_of_nodes");
	const char *accel = system_text(log, "accelerators_per_node");
	char pn[24], pa[24];
	long ranks = nodes || accel ? 0 : ranks_world(log);
	platform_system(point(log, "submission_platform"), pn, pa);
	if (!nodes && !accel && !pa[0] && ranks && pn[0] && ranks % atol(pn) == 0)
		snprintf(pa, sizeof pa, "%ld", ranks / atol(pn)); /* the ranks per node */
	int rc = run_record(&m, nodes, accel) < 0 ||
		 params(&m, nodes ? nodes : pn[0] ? pn : NULL,
			accel ? accel : !nodes && pa[0] ? pa : NULL, ranks) < 0 ||
		 rank_tags(&m) < 0 || step_tag(&m) < 0 ? -1 : metrics(&m);
	free(role);
	return rc;
}
