/* pyspy_chrometrace.c — `py-spy record --format chrometrace`: a JSON
 * array of events, cat "py-spy"; per (pid, tid) "B" opens a frame and "E"
 * closes it, ts in µs; "M" thread_name events name threads ("TID:
 * name"). Stacks are rebuilt per thread and weighted by the time they
 * were open: seconds = µs / 1e6, samples = seconds × rate (--rate, else
 * py-spy's default 100 Hz: the file does not record its rate). Events
 * of one thread must come in time order, as py-spy writes them. Long
 * recordings make large files: the file is streamed (zlib + yajl), never
 * held whole. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_stream.h"

#include "ingest.h"
#include "pyspy_stack.h"
#include "file.h"
#include "num.h"

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

/* One event's fields, as the tokenizer meets them. */
struct event {
	char ph[4];
	char *name, *filename, *arg_name;
	double pid, tid, ts, line;
	int has_pid, has_tid, has_ts;
};

/* One thread's state while replaying its events; its frames' texts are
 * owned copies. */
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
	struct amd_err *err;
	int failed;
	/* tokenizer position */
	int depth, in_args, top_seen;
	char key[16], arg_key[16];
	struct event ev;
	size_t index;
};

static struct thread_state *thread_of(struct replay *r, double pid, double tid)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].pid == pid && r->v[i].tid == tid)
			return &r->v[i];
	if (amd_grow(&r->v, r->n, &r->cap, sizeof *r->v, 16) < 0)
		return NULL;
	struct thread_state *t = &r->v[r->n++];
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	snprintf(t->label, sizeof t->label, "%.0f", tid);
	snprintf(t->proc, sizeof t->proc, "%.0f", pid);
	return t;
}

/* "M" thread_name: args.name "TID: name" → label "TID name". */
static void name_thread(struct thread_state *t, const char *nm)
{
	const char *colon = strstr(nm, ": ");
	if (colon && colon[2])
		snprintf(t->label, sizeof t->label, "%.*s %s", (int)(colon - nm), nm, colon + 2);
	else if (colon)
		snprintf(t->label, sizeof t->label, "%.*s", (int)(colon - nm), nm);
	else
		snprintf(t->label, sizeof t->label, "%s", nm);
}

static int fail(struct replay *r, const char *fmt, const char *arg)
{
	char what[256];
	snprintf(what, sizeof what, fmt, arg);
	amd_fail(r->err, "%s: event %zu: %s", r->path, r->index, what);
	r->failed = 1;
	return -1;
}

static int fail_top(struct replay *r)
{
	amd_fail(r->err, "%s: expected a JSON array of trace events", r->path);
	r->failed = 1;
	return 0;
}

static void pop_frame(struct amd_pyspy_stack *st)
{
	st->depth--;
	free((char *)st->frames[st->depth].name);
	free((char *)st->frames[st->depth].file);
}

static int push_frame(struct replay *r, struct thread_state *t, const struct event *e)
{
	struct amd_stack_frame f = {
		.name = strdup(e->name),
		.file = e->filename && *e->filename ? strdup(e->filename) : NULL,
		.line = e->line > 0 && e->line < 1e9 ? (int)e->line : 0,
	};
	const char *why = f.name ? amd_pyspy_push_why(&t->st, &f) : "out of memory";
	if (why) {
		free((char *)f.name);
		free((char *)f.file);
		return fail(r, "%s", why);
	}
	return 0;
}

/* Time since the thread's last event goes to its open stack. */
static int advance(struct replay *r, struct thread_state *t, int64_t now)
{
	if (t->started && now < t->last_ts) {
		char m[96];
		snprintf(m, sizeof m, "ts %lld before the thread's previous event (%lld)",
			 (long long)now, (long long)t->last_ts);
		return fail(r, "%s", m);
	}
	if (t->started && t->st.depth > 0 && now > t->last_ts &&
	    amd_pyspy_acc_add_us(r->acc, &t->st, now - t->last_ts) < 0)
		return fail(r, "%s", "out of memory");
	t->started = 1;
	t->last_ts = now;
	return 0;
}

static int one_event(struct replay *r, const struct event *e)
{
	if (!e->ph[0] || !e->has_pid || !e->has_tid)
		return fail(r, "%s", "needs ph, pid and tid");
	struct thread_state *t = thread_of(r, e->pid, e->tid);
	if (!t)
		return fail(r, "%s", "out of memory");
	t->st.thread = t->label; /* the array may have moved */
	t->st.process = t->proc;
	if (strcmp(e->ph, "M") == 0) {
		if (e->name && strcmp(e->name, "thread_name") == 0 && e->arg_name)
			name_thread(t, e->arg_name);
		return 0;
	}
	if (strcmp(e->ph, "B") != 0 && strcmp(e->ph, "E") != 0)
		return 0; /* py-spy writes only B, E and M */
	if (!e->has_ts || !(e->ts >= 0 && e->ts <= 1e6 * AMD_PYSPY_MAX_SECONDS))
		return fail(r, "%s", "no ts, or one out of range");
	if (!e->name)
		return fail(r, "%s", "no name");
	if (advance(r, t, llround(e->ts)) < 0)
		return -1;
	if (e->ph[0] == 'B')
		return push_frame(r, t, e);
	if (t->st.depth == 0 || strcmp(t->st.frames[t->st.depth - 1].name, e->name) != 0)
		return fail(r, "E for '%s' does not close the open frame", e->name);
	pop_frame(&t->st);
	return 0;
}

static void event_reset(struct event *e)
{
	free(e->name);
	free(e->filename);
	free(e->arg_name);
	memset(e, 0, sizeof *e);
}

/* ---- yajl callbacks: events are maps at depth 2, their args at 3 ---- */

static int on_start_map(void *ctx)
{
	struct replay *r = ctx;
	if (r->depth == 0)
		return fail_top(r);
	r->depth++;
	if (r->depth == 2)
		event_reset(&r->ev);
	if (r->depth == 3 && strcmp(r->key, "args") == 0)
		r->in_args = 1;
	return 1;
}

static int on_end_map(void *ctx)
{
	struct replay *r = ctx;
	if (r->depth == 3)
		r->in_args = 0;
	if (r->depth == 2) {
		if (one_event(r, &r->ev) < 0)
			return 0;
		r->index++;
	}
	r->depth--;
	return 1;
}

static int on_start_array(void *ctx)
{
	struct replay *r = ctx;
	if (r->depth == 0 && r->top_seen)
		return fail_top(r);
	r->top_seen = 1;
	r->depth++;
	return 1;
}

static int on_end_array(void *ctx)
{
	((struct replay *)ctx)->depth--;
	return 1;
}

static void copy_key(char *dst, size_t n, const unsigned char *s, size_t len)
{
	size_t k = len < n - 1 ? len : n - 1;
	memcpy(dst, s, k);
	dst[k] = '\0';
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct replay *r = ctx;
	if (r->depth == 2)
		copy_key(r->key, sizeof r->key, s, len);
	else if (r->depth == 3 && r->in_args)
		copy_key(r->arg_key, sizeof r->arg_key, s, len);
	return 1;
}

static int set_text(struct replay *r, char **dst, const unsigned char *s, size_t len)
{
	free(*dst);
	*dst = strndup((const char *)s, len);
	if (!*dst) {
		fail(r, "%s", "out of memory");
		return 0;
	}
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct replay *r = ctx;
	if (r->depth == 2 && strcmp(r->key, "ph") == 0)
		copy_key(r->ev.ph, sizeof r->ev.ph, s, len);
	else if (r->depth == 2 && strcmp(r->key, "name") == 0)
		return set_text(r, &r->ev.name, s, len);
	else if (r->depth == 3 && r->in_args && strcmp(r->arg_key, "filename") == 0)
		return set_text(r, &r->ev.filename, s, len);
	else if (r->depth == 3 && r->in_args && strcmp(r->arg_key, "name") == 0)
		return set_text(r, &r->ev.arg_name, s, len);
	return 1;
}

static int on_number(void *ctx, const char *s, size_t len)
{
	struct replay *r = ctx;
	char buf[64];
	double v;
	copy_key(buf, sizeof buf, (const unsigned char *)s, len);
	if (amd_parse_double(buf, &v) < 0 || !isfinite(v))
		return 1; /* not a number this format uses */
	if (r->depth == 2 && strcmp(r->key, "pid") == 0) {
		r->ev.pid = v;
		r->ev.has_pid = 1;
	} else if (r->depth == 2 && strcmp(r->key, "tid") == 0) {
		r->ev.tid = v;
		r->ev.has_tid = 1;
	} else if (r->depth == 2 && strcmp(r->key, "ts") == 0) {
		r->ev.ts = v;
		r->ev.has_ts = 1;
	} else if (r->depth == 3 && r->in_args && strcmp(r->arg_key, "line") == 0) {
		r->ev.line = v;
	}
	return 1;
}

static int on_scalar(void *ctx)
{
	struct replay *r = ctx;
	if (r->depth == 0)
		return fail_top(r);
	return 1;
}

static int on_bool(void *ctx, int b)
{
	return on_scalar(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_scalar,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct replay r = {.acc = amd_pyspy_acc_new(), .path = in->path, .err = err};
	int rc = r.acc ? amd_input_link(in, sink, err) : amd_fail(err, "%s: out of memory",
								  in->path);
	if (rc == 0)
		rc = amd_json_stream(in->path, &callbacks, &r, &r.failed, 0, err);
	if (rc == 0 && !r.top_seen)
		rc = amd_fail(err, "%s: expected a JSON array of trace events", in->path);
	rc = amd_pyspy_acc_finish(r.acc, rc, "no time spent in any stack", amd_pyspy_rate(in, 0), sink,
				  in->path, err);
	for (size_t k = 0; k < r.n; k++) {
		while (r.v[k].st.depth)
			pop_frame(&r.v[k].st);
		amd_pyspy_stack_free(&r.v[k].st);
	}
	free(r.v);
	event_reset(&r.ev);
	amd_pyspy_acc_free(r.acc);
	return rc;
}

const struct amd_format amd_fmt_pyspy_chrometrace = {
	.name = "pyspy-chrometrace",
	.variants = "py-spy record --format chrometrace",
	.detect = detect,
	.parse = parse,
};
