/* pyspy_chrometrace.c — `py-spy record --format chrometrace`: a JSON
 * array of events, cat "py-spy"; per (pid, tid) "B" opens a frame and "E"
 * closes it, ts in µs; "M" thread_name events name threads ("TID:
 * name"). Stacks are rebuilt per thread and weighted by the time they
 * were open: seconds = µs / 1e6, samples = seconds × rate (--rate, else
 * py-spy's default 100 Hz: the file does not record its rate). Events
 * of one thread must come in time order, as py-spy writes them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ingest.h"
#include "pyspy_stack.h"
#include "util.h"

#define CHROMETRACE_MAX ((size_t)512 << 20)

static int detect(const char *path, const unsigned char *head, size_t n)
{
	const char *s = (const char *)head;
	s += strspn(s, " \t\r\n");
	if (*s != '[')
		return 0;
	if (strstr(s, "\"cat\":\"py-spy\"") || strstr(s, "\"cat\": \"py-spy\""))
		return 90;
	return 0;
}

/* One thread's state while replaying its events. */
struct thread_state {
	double pid, tid;
	char label[512], proc[32];
	struct amd_pyspy_stack st;
	int64_t last_ts;
	int started;
};

struct replay {
	struct thread_state *v;
	size_t n, cap;
	struct amd_pyspy_acc *acc;
	const char *path;
};

static struct thread_state *thread_of(struct replay *r, double pid, double tid)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].pid == pid && r->v[i].tid == tid)
			return &r->v[i];
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct thread_state *v = realloc(r->v, cap * sizeof *v);
		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	struct thread_state *t = &r->v[r->n++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	snprintf(t->label, sizeof t->label, "%.0f", tid);
	snprintf(t->proc, sizeof t->proc, "%.0f", pid);
	return t;
}

static const char *str_item(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* "M" thread_name: args.name "TID: name" → label "TID name". */
static void name_thread(struct thread_state *t, const cJSON *args)
{
	const char *nm = str_item(args, "name");
	if (!nm)
		return;
	const char *colon = strstr(nm, ": ");
	if (colon && colon[2])
		snprintf(t->label, sizeof t->label, "%.*s %s", (int)(colon - nm), nm, colon + 2);
	else if (colon)
		snprintf(t->label, sizeof t->label, "%.*s", (int)(colon - nm), nm);
	else
		snprintf(t->label, sizeof t->label, "%s", nm);
}

static int one_event(struct replay *r, const cJSON *e, size_t i, struct amd_err *err)
{
	const char *ph = str_item(e, "ph");
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(e, "pid");
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(e, "tid");
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
	if (!ph || !cJSON_IsNumber(pid) || !cJSON_IsNumber(tid))
		return amd_fail(err, "%s: event %zu: needs ph, pid and tid", r->path, i);
	struct thread_state *t = thread_of(r, pid->valuedouble, tid->valuedouble);
	if (!t)
		return amd_fail(err, "%s: out of memory", r->path);
	t->st.thread = t->label; /* the array may have moved */
	t->st.process = t->proc;
	if (strcmp(ph, "M") == 0) {
		const char *name = str_item(e, "name");
		if (name && strcmp(name, "thread_name") == 0)
			name_thread(t, args);
		return 0;
	}
	if (strcmp(ph, "B") != 0 && strcmp(ph, "E") != 0)
		return 0; /* py-spy writes only B, E and M */
	if (!cJSON_IsNumber(ts) || ts->valuedouble < 0 || ts->valuedouble > 1e6 * AMD_PYSPY_MAX_SECONDS)
		return amd_fail(err, "%s: event %zu: no ts, or one out of range", r->path, i);
	int64_t now = llround(ts->valuedouble);
	if (t->started && now < t->last_ts)
		return amd_fail(err, "%s: event %zu: ts %lld before the thread's previous event"
				" (%lld)", r->path, i, (long long)now, (long long)t->last_ts);
	if (t->started && t->st.depth > 0 && now > t->last_ts &&
	    amd_pyspy_acc_add_us(r->acc, &t->st, now - t->last_ts) < 0)
		return amd_fail(err, "%s: out of memory", r->path);
	t->started = 1;
	t->last_ts = now;
	const char *name = str_item(e, "name");
	if (!name)
		return amd_fail(err, "%s: event %zu: no name", r->path, i);
	if (ph[0] == 'E') {
		if (t->st.depth == 0 || strcmp(t->st.frames[t->st.depth - 1].name, name) != 0)
			return amd_fail(err, "%s: event %zu: E for '%s' does not close the open frame",
					r->path, i, name);
		t->st.depth--;
		return 0;
	}
	const char *file = str_item(args, "filename");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(args, "line");
	struct amd_stack_frame f = {
		.name = name,
		.file = file && *file ? file : NULL,
		.line = cJSON_IsNumber(line) && line->valuedouble > 0 ? (int)line->valuedouble : 0,
	};
	return amd_pyspy_push(&t->st, &f) < 0 ? amd_fail(err, "%s: out of memory", r->path) : 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (amd_read_file(in->path, CHROMETRACE_MAX, &b, err) < 0) {
		amd_buf_free(&b);
		return -1;
	}
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(b.data, b.len, &end, 0);
	struct replay r = {.acc = amd_pyspy_acc_new(), .path = in->path};
	int rc = 0;
	if (!root)
		rc = amd_fail(err, "%s: byte %ld: invalid JSON", in->path,
			      end ? (long)(end - b.data) : 0L);
	else if (!cJSON_IsArray(root))
		rc = amd_fail(err, "%s: expected a JSON array of trace events", in->path);
	else if (!r.acc)
		rc = amd_fail(err, "%s: out of memory", in->path);
	else
		rc = amd_pyspy_link(in, sink, err);
	size_t i = 0;
	const cJSON *e;
	if (rc == 0)
		cJSON_ArrayForEach(e, root) {
			if ((rc = one_event(&r, e, i++, err)) < 0)
				break;
		}
	if (rc == 0 && amd_pyspy_acc_count(r.acc) == 0)
		rc = amd_fail(err, "%s: no time spent in any stack", in->path);
	if (rc == 0)
		rc = amd_pyspy_acc_flush(r.acc, amd_pyspy_rate(in, 0), sink, in->path, err);
	for (size_t k = 0; k < r.n; k++)
		amd_pyspy_stack_free(&r.v[k].st);
	free(r.v);
	amd_pyspy_acc_free(r.acc);
	cJSON_Delete(root);
	amd_buf_free(&b);
	return rc;
}

const struct amd_format amd_fmt_pyspy_chrometrace = {
	.name = "pyspy-chrometrace",
	.detect = detect,
	.parse = parse,
};
