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

#include "buf.h"
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

/* One event's fields, as the tokenizer meets them; the texts (NULL
 * until met) point into the replay's buffers, reused event after event. */
struct event {
	char ph[4];
	const char *name, *filename, *arg_name;
	double pid, tid, ts, line;
	int has_pid, has_tid, has_ts;
};

/* One thread's state while replaying its events; its frames' texts are
 * owned copies. place[k] is the accumulator's place of the stack's first
 * k frames (place[0] the thread's root), for k < placed: a frame opened
 * or closed at depth d leaves the first d + 1 standing, so an event adds
 * its time without the whole stack being compared again. */
struct thread_state {
	double pid, tid;
	char label[512], proc[32];
	struct amd_pyspy_stack st;
	int64_t *place;
	size_t placed, cap_place;
	int64_t last_ts;
	int started;
};

/* The keys read: an event's (depth 2) and its args' (depth 3). */
enum key { K_OTHER, K_PH, K_NAME, K_PID, K_TID, K_TS, K_ARGS, K_FILENAME, K_LINE };

struct replay {
	struct thread_state *v;
	size_t n, cap;
	struct amd_pyspy_acc *acc;
	const char *path;
	struct amd_err *err;
	int failed;
	/* tokenizer position: the key of the value next at depth 2 (event)
	 * and 3 (args), each known once when its key comes */
	int depth, in_args, top_seen;
	enum key key, arg_key;
	struct event ev;
	struct amd_buf name_text, file_text, arg_text; /* ev's texts */
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
	t->placed = 0; /* another thread text: another root */
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

static void pop_frame(struct thread_state *t)
{
	struct amd_pyspy_stack *st = &t->st;
	st->depth--;
	free((char *)st->frames[st->depth].name);
	free((char *)st->frames[st->depth].file);
	if (t->placed > st->depth + 1)
		t->placed = st->depth + 1;
}

/* The frame holds copies of the event's name and file (only an opened
 * frame's texts are copied: an event's are read into buffers reused). */
static int push_frame(struct replay *r, struct thread_state *t, const struct event *e)
{
	struct amd_stack_frame f = {
		.name = strdup(e->name),
		.file = e->filename && *e->filename ? strdup(e->filename) : NULL,
		.line = e->line > 0 && e->line < 1e9 ? (int)e->line : 0,
	};
	const char *why = !f.name || (e->filename && *e->filename && !f.file)
				  ? "out of memory" : amd_pyspy_push_why(&t->st, &f);
	if (why) {
		free((char *)f.name);
		free((char *)f.file);
		return fail(r, "%s", why);
	}
	if (t->placed > t->st.depth) /* the new frame is frames[depth - 1] */
		t->placed = t->st.depth;
	return 0;
}

/* The accumulator's place of the thread's open stack (-1 out of
 * memory): the places not standing taken from the root outward. */
static int64_t place_of(struct replay *r, struct thread_state *t)
{
	size_t depth = t->st.depth;
	if (amd_grow_to(&t->place, depth + 1, &t->cap_place, sizeof *t->place, 64) < 0)
		return -1;
	if (t->placed == 0 && (t->place[0] = amd_pyspy_acc_root(r->acc, &t->st)) < 0)
		return -1;
	for (t->placed = t->placed ? t->placed : 1; t->placed <= depth; t->placed++) {
		int64_t p = amd_pyspy_acc_child(r->acc, t->place[t->placed - 1],
						&t->st.frames[t->placed - 1]);
		if (p < 0)
			return -1;
		t->place[t->placed] = p;
	}
	return t->place[depth];
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
	if (t->started && t->st.depth > 0 && now > t->last_ts) {
		int64_t place = place_of(r, t);
		if (place < 0)
			return fail(r, "%s", "out of memory");
		amd_pyspy_acc_add_us_at(r->acc, place, now - t->last_ts);
	}
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
	pop_frame(t);
	return 0;
}

static void event_reset(struct event *e)
{
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
	if (r->depth == 3 && r->key == K_ARGS)
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

static void copy_bounded(char *dst, size_t n, const unsigned char *s, size_t len)
{
	size_t k = len < n - 1 ? len : n - 1;
	memcpy(dst, s, k);
	dst[k] = '\0';
}

/* The key s[0..len) reads as text (shorter than 15 bytes) as a key
 * copied into 16 bytes and compared as a C string reads: text, then
 * its end or a NUL. */
static inline int is_key(const unsigned char *s, size_t len, const char *text)
{
	size_t n = strlen(text);
	return len >= n && memcmp(s, text, n) == 0 && (len == n || s[n] == '\0');
}

static enum key event_key(const unsigned char *s, size_t len)
{
	return is_key(s, len, "ph") ? K_PH : is_key(s, len, "name") ? K_NAME
	     : is_key(s, len, "pid") ? K_PID : is_key(s, len, "tid") ? K_TID
	     : is_key(s, len, "ts") ? K_TS : is_key(s, len, "args") ? K_ARGS : K_OTHER;
}

static enum key arg_key(const unsigned char *s, size_t len)
{
	return is_key(s, len, "filename") ? K_FILENAME : is_key(s, len, "name") ? K_NAME
	     : is_key(s, len, "line") ? K_LINE : K_OTHER;
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
	struct replay *r = ctx;
	if (r->depth == 2)
		r->key = event_key(s, len);
	else if (r->depth == 3 && r->in_args)
		r->arg_key = arg_key(s, len);
	return 1;
}

/* *dst: s[0..len) read as a C string (to a NUL in it, as strndup
 * would), held in b. */
static int set_text(struct replay *r, const char **dst, struct amd_buf *b,
		    const unsigned char *s, size_t len)
{
	b->len = 0;
	if (amd_buf_append(b, s, len) < 0) {
		fail(r, "%s", "out of memory");
		return 0;
	}
	*dst = b->data;
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct replay *r = ctx;
	if (r->depth == 2 && r->key == K_PH)
		copy_bounded(r->ev.ph, sizeof r->ev.ph, s, len);
	else if (r->depth == 2 && r->key == K_NAME)
		return set_text(r, &r->ev.name, &r->name_text, s, len);
	else if (r->depth == 3 && r->in_args && r->arg_key == K_FILENAME)
		return set_text(r, &r->ev.filename, &r->file_text, s, len);
	else if (r->depth == 3 && r->in_args && r->arg_key == K_NAME)
		return set_text(r, &r->ev.arg_name, &r->arg_text, s, len);
	return 1;
}

/* Where the number with the key r is at goes (has: its flag), NULL for
 * a number this format does not use. */
static double *number_slot(struct replay *r, int **has)
{
	static int ignored;
	*has = &ignored;
	if (r->depth == 3)
		return r->in_args && r->arg_key == K_LINE ? &r->ev.line : NULL;
	if (r->depth != 2)
		return NULL;
	switch (r->key) {
	case K_PID: *has = &r->ev.has_pid; return &r->ev.pid;
	case K_TID: *has = &r->ev.has_tid; return &r->ev.tid;
	case K_TS: *has = &r->ev.has_ts; return &r->ev.ts;
	default: return NULL;
	}
}

static int on_number(void *ctx, const char *s, size_t len)
{
	struct replay *r = ctx;
	char buf[64];
	double v;
	int *has;
	double *slot = number_slot(r, &has);
	if (!slot)
		return 1;
	copy_bounded(buf, sizeof buf, (const unsigned char *)s, len);
	if (amd_parse_double(buf, &v) < 0 || !isfinite(v))
		return 1; /* not a number this format uses */
	*slot = v;
	*has = 1;
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
			pop_frame(&r.v[k]);
		amd_pyspy_stack_free(&r.v[k].st);
		free(r.v[k].place);
	}
	free(r.v);
	amd_buf_free(&r.name_text);
	amd_buf_free(&r.file_text);
	amd_buf_free(&r.arg_text);
	amd_pyspy_acc_free(r.acc);
	return rc;
}

const struct amd_format amd_fmt_pyspy_chrometrace = {
	.name = "pyspy-chrometrace",
	.variants = "py-spy record --format chrometrace",
	.detect = detect,
	.parse = parse,
};
