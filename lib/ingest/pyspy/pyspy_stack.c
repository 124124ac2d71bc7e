/* pyspy_stack.c — frame text, py-spy's process/thread root frames,
 * collapsed lines and the stack accumulator shared by the py-spy
 * parsers; see pyspy_stack.h. */
#include "pyspy_stack.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "num.h"

static int all_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

int amd_pyspy_parse_frame(char *s, struct amd_stack_frame *f, const char **why)
{
	size_t n = strlen(s);
	f->name = s;
	f->file = NULL;
	f->line = 0;
	if (n == 0) {
		*why = "an empty frame";
		return -1;
	}
	if (s[n - 1] != ')')
		return 0;
	/* the last " (" opens the location: names may hold parentheses
	 * (C++ native frames), file paths rarely hold " (" */
	char *open = NULL;
	for (char *p = strstr(s, " ("); p; p = strstr(p + 1, " ("))
		open = p;
	if (!open || open == s)
		return 0;
	*open = '\0';
	s[n - 1] = '\0';
	char *file = open + 2;
	char *colon = strrchr(file, ':');
	if (colon && all_digits(colon + 1, strlen(colon + 1)) && strlen(colon + 1) < 10) {
		*colon = '\0';
		f->line = atoi(colon + 1);
	}
	f->file = *file ? file : NULL;
	return 0;
}

/* Length of the hex or decimal id at s ("0x7F3A…" or "12345"). */
static size_t id_len(const char *s)
{
	size_t i = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		i = 2;
		while (isxdigit((unsigned char)s[i]))
			i++;
		return i > 2 ? i : 0;
	}
	while (isdigit((unsigned char)s[i]))
		i++;
	return i;
}

int amd_pyspy_thread_frame(char *s)
{
	if (strncmp(s, "thread (", 8) != 0)
		return 0;
	size_t id = id_len(s + 8);
	const char *rest = s + 8 + id;
	if (id == 0 || rest[0] != ')' || (rest[1] != '\0' && strncmp(rest + 1, ": ", 2) != 0))
		return 0;
	char out[4096];
	if (rest[1])
		snprintf(out, sizeof out, "%.*s %s", (int)id, s + 8, rest + 3);
	else
		snprintf(out, sizeof out, "%.*s", (int)id, s + 8);
	memcpy(s, out, strlen(out) + 1); /* never longer than s */
	return 1;
}

/* Where a process frame starting at s ends (the closing quote and any
 * " ()" / " (:0)" suffix), given the text runs to end; NULL when s does
 * not start one. The command line may hold ';' — the frame ends at the
 * first '"' followed by ';', a suffix, or the end. */
static const char *process_end(const char *s, const char *end)
{
	if (strncmp(s, "process ", 8) != 0)
		return NULL;
	size_t id = id_len(s + 8);
	const char *q = s + 8 + id;
	if (id == 0 || q + 1 >= end || q[0] != ':' || q[1] != '"')
		return NULL;
	for (const char *p = q + 2; p < end; p++) {
		if (*p != '"')
			continue;
		const char *after = p + 1;
		if (after == end || *after == ';')
			return after;
		if (end - after >= 3 && strncmp(after, " ()", 3) == 0 &&
		    (after + 3 == end || after[3] == ';'))
			return after + 3;
		if (end - after >= 5 && strncmp(after, " (:0)", 5) == 0 &&
		    (after + 5 == end || after[5] == ';'))
			return after + 5;
	}
	return NULL;
}

int amd_pyspy_process_frame(char *s)
{
	const char *end = s + strlen(s);
	const char *e = process_end(s, end);
	if (!e || e != end)
		return 0;
	const char *pid = s + 8;
	size_t id = id_len(pid);
	const char *cmd = pid + id + 2;
	const char *close = strrchr(s, '"');
	char out[8192];
	snprintf(out, sizeof out, "%.*s %.*s", (int)id, pid, (int)(close - cmd), cmd);
	memcpy(s, out, strlen(out) + 1);
	return 1;
}

int amd_pyspy_push(struct amd_pyspy_stack *st, const struct amd_stack_frame *f)
{
	if (amd_grow(&st->frames, st->depth, &st->cap, sizeof *st->frames, 32) < 0)
		return -1;
	st->frames[st->depth++] = *f;
	return 0;
}

const char *amd_pyspy_push_why(struct amd_pyspy_stack *st, const struct amd_stack_frame *f)
{
	if (st->depth >= AMD_PYSPY_MAX_DEPTH)
		return "a stack deeper than 4096 frames (the limit; Python's default recursion"
		       " limit is 1000)";
	return amd_pyspy_push(st, f) < 0 ? "out of memory" : NULL;
}

void amd_pyspy_stack_free(struct amd_pyspy_stack *st)
{
	free(st->frames);
	memset(st, 0, sizeof *st);
}

/* Splits off " COUNT" at the end of line; returns where the stack text
 * ends, or NULL. */
static char *split_count(char *line, int64_t *count)
{
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
		line[--n] = '\0';
	char *sp = strrchr(line, ' ');
	if (!sp || !all_digits(sp + 1, strlen(sp + 1)) || amd_parse_int64(sp + 1, count) < 0 ||
	    (double)*count > AMD_PYSPY_MAX_SAMPLES)
		return NULL;
	*sp = '\0';
	while (sp > line && sp[-1] == ' ')
		*--sp = '\0';
	return sp;
}

int amd_pyspy_parse_collapsed(char *line, struct amd_pyspy_stack *st, int64_t *count,
			      const char **why)
{
	st->depth = 0;
	st->process = st->thread = NULL;
	char *end = split_count(line, count);
	if (!end) {
		const char *sp = strrchr(line, ' ');
		*why = sp && all_digits(sp + 1, strlen(sp + 1))
			       ? "a sample count above 1e15"
			       : "expected 'frame;frame;… COUNT' (a stack, a space, a sample count)";
		return -1;
	}
	if (end > line && end[-1] == ';') /* old py-spy wrote a trailing ';' */
		*--end = '\0';
	if (end == line) {
		*why = "a sample count without a stack";
		return -1;
	}
	char *p = line;
	int at_root = 1;
	while (p <= end) {
		const char *pe = at_root ? process_end(p, end) : NULL;
		char *seg_end = pe ? (char *)pe : p + strcspn(p, ";");
		if (seg_end > end)
			seg_end = end;
		*seg_end = '\0';
		struct amd_stack_frame f;
		if (at_root && pe && amd_pyspy_process_frame(p)) {
			st->process = p; /* the innermost process is the last */
		} else if (at_root && amd_pyspy_thread_frame(p)) {
			st->thread = p;
		} else {
			at_root = 0;
			if (amd_pyspy_parse_frame(p, &f, why) < 0)
				return -1;
			if ((*why = amd_pyspy_push_why(st, &f)) != NULL)
				return -1;
		}
		p = seg_end + 1;
	}
	if (st->depth == 0) {
		*why = "a stack with no code frames";
		return -1;
	}
	return 0;
}

/* ---- accumulator ---- */

struct acc_entry {
	char *key;
	int64_t counted;       /* samples whose seconds are samples / rate */
	int64_t timed_samples; /* samples that came with their seconds */
	double timed_seconds;
	int64_t us;            /* time-weighted µs; samples = µs × rate */
};

struct amd_pyspy_acc {
	struct acc_entry *v;
	size_t n, cap, merged;
	int overflow; /* a sum left int64 */
};

struct amd_pyspy_acc *amd_pyspy_acc_new(void)
{
	return calloc(1, sizeof(struct amd_pyspy_acc));
}

/* Appends s with the key's separator bytes (never in real frame text)
 * replaced by '?'; -1 out of memory. */
static int put_text(struct amd_buf *b, const char *s)
{
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "\x1d\x1e\x1f");
		if (amd_buf_append(b, p, n) < 0)
			return -1;
		p += n;
		if (*p) {
			if (amd_buf_append(b, "?", 1) < 0)
				return -1;
			p++;
		}
	}
	return 0;
}

static int put_opt(struct amd_buf *b, const char *s)
{
	if (amd_buf_append(b, s ? "1" : "0", 1) < 0)
		return -1;
	return s ? put_text(b, s) : 0;
}

/* key: process \x1d thread \x1d frame \x1e frame …, frame = name \x1f
 * file \x1f line; optional texts carry a 1/0 presence byte. NULL out
 * of memory. */
static char *stack_key(const struct amd_pyspy_stack *st)
{
	struct amd_buf b = {0};
	int rc = put_opt(&b, st->process) < 0 || amd_buf_append(&b, "\x1d", 1) < 0 ||
		 put_opt(&b, st->thread) < 0 || amd_buf_append(&b, "\x1d", 1) < 0;
	for (size_t i = 0; !rc && i < st->depth; i++) {
		const struct amd_stack_frame *f = &st->frames[i];
		rc = (i && amd_buf_append(&b, "\x1e", 1) < 0) || put_text(&b, f->name) < 0 ||
		     amd_buf_append(&b, "\x1f", 1) < 0 || put_opt(&b, f->file) < 0 ||
		     amd_buf_printf(&b, "\x1f%d", f->line) < 0;
	}
	if (rc || amd_buf_append(&b, "", 1) < 0) {
		amd_buf_free(&b);
		return NULL;
	}
	return b.data;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct acc_entry *)a)->key, ((const struct acc_entry *)b)->key);
}

static void compact(struct amd_pyspy_acc *a)
{
	if (a->n < 2)
		return;
	qsort(a->v, a->n, sizeof *a->v, cmp_entry);
	size_t w = 0;
	for (size_t i = 1; i < a->n; i++) {
		struct acc_entry *d = &a->v[w], *s = &a->v[i];
		if (strcmp(d->key, s->key) == 0) {
			a->overflow |= __builtin_add_overflow(d->counted, s->counted, &d->counted);
			a->overflow |= __builtin_add_overflow(d->timed_samples, s->timed_samples,
							      &d->timed_samples);
			a->overflow |= __builtin_add_overflow(d->us, s->us, &d->us);
			d->timed_seconds += s->timed_seconds;
			free(s->key);
		} else {
			a->v[++w] = *s;
		}
	}
	a->n = w + 1;
	a->merged = a->n;
}

static struct acc_entry *acc_slot(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st)
{
	if (a->n == a->cap) {
		if (a->n >= 4096 && a->n >= 2 * a->merged) {
			compact(a); /* keeps memory near the number of distinct stacks */
			if (a->n < a->cap)
				goto room;
		}
		if (amd_grow(&a->v, a->n, &a->cap, sizeof *a->v, 256) < 0)
			return NULL;
	}
room:;
	char *key = stack_key(st);
	if (!key)
		return NULL;
	struct acc_entry *e = &a->v[a->n++];
	memset(e, 0, sizeof *e);
	e->key = key;
	return e;
}

int amd_pyspy_acc_add(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st,
		      int64_t samples, double seconds)
{
	struct acc_entry *e = acc_slot(a, st);
	if (!e)
		return -1;
	if (seconds < 0) {
		e->counted = samples;
	} else {
		e->timed_samples = samples;
		e->timed_seconds = seconds;
	}
	return 0;
}

int amd_pyspy_acc_add_us(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st,
			 int64_t us)
{
	struct acc_entry *e = acc_slot(a, st);
	if (!e)
		return -1;
	e->us = us;
	return 0;
}

size_t amd_pyspy_acc_count(const struct amd_pyspy_acc *a)
{
	return a->n;
}

static const char *get_opt(char *s)
{
	return s[0] == '1' ? s + 1 : NULL;
}

/* Decodes key (in place) into st. */
static int decode_key(char *key, struct amd_pyspy_stack *st)
{
	st->depth = 0;
	char *t = strchr(key, '\x1d');
	*t = '\0';
	st->process = get_opt(key);
	char *fr = strchr(t + 1, '\x1d');
	*fr = '\0';
	st->thread = get_opt(t + 1);
	for (char *p = fr + 1; p;) {
		char *next = strchr(p, '\x1e');
		if (next)
			*next++ = '\0';
		char *file = strchr(p, '\x1f');
		*file++ = '\0';
		char *line = strchr(file, '\x1f');
		*line++ = '\0';
		struct amd_stack_frame f = {.name = p, .file = get_opt(file), .line = atoi(line)};
		if (amd_pyspy_push(st, &f) < 0)
			return -1;
		p = next;
	}
	return 0;
}

int amd_pyspy_acc_flush(struct amd_pyspy_acc *a, double rate, struct amd_sink *sink,
			const char *path, struct amd_err *err)
{
	compact(a);
	if (a->overflow)
		return amd_fail(err, "%s: sample counts too large to add up", path);
	if (!(rate > 0 && rate <= AMD_PYSPY_MAX_RATE))
		return amd_fail(err, "%s: sampling rate %g Hz is out of range (0, %g]", path, rate,
				AMD_PYSPY_MAX_RATE);
	struct amd_pyspy_stack st = {0};
	int rc = 0;
	for (size_t i = 0; i < a->n && rc == 0; i++) {
		struct acc_entry *e = &a->v[i];
		if (decode_key(e->key, &st) < 0) {
			rc = amd_fail(err, "%s: out of memory", path);
			break;
		}
		double total = (double)e->counted + (double)e->timed_samples +
			       (double)e->us * rate / 1e6;
		if (total > AMD_PYSPY_MAX_SAMPLES) {
			rc = amd_fail(err, "%s: more than %g samples in one stack", path,
				      AMD_PYSPY_MAX_SAMPLES);
			break;
		}
		int64_t from_us = llround((double)e->us * rate / 1e6);
		struct amd_stack_rec r = {
			.frames = st.frames,
			.depth = st.depth,
			.process = st.process,
			.thread = st.thread,
			.samples = e->counted + e->timed_samples + from_us,
			.seconds = (double)e->counted / rate + e->timed_seconds + (double)e->us / 1e6,
		};
		if (sink->stack)
			rc = sink->stack(sink, &r, err);
	}
	amd_pyspy_stack_free(&st);
	return rc;
}

void amd_pyspy_acc_free(struct amd_pyspy_acc *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i].key);
	free(a->v);
	free(a);
}

int amd_pyspy_acc_finish(struct amd_pyspy_acc *a, int rc, const char *if_empty, double rate,
			 struct amd_sink *sink, const char *path, struct amd_err *err)
{
	if (rc == 0 && amd_pyspy_acc_count(a) == 0)
		rc = amd_fail(err, "%s: %s", path, if_empty);
	if (rc == 0)
		rc = amd_pyspy_acc_flush(a, rate, sink, path, err);
	return rc;
}

double amd_pyspy_rate(const struct amd_input *in, double file_rate)
{
	if (in->sample_rate > 0)
		return in->sample_rate;
	if (file_rate > 0)
		return file_rate;
	return AMD_PYSPY_DEFAULT_RATE;
}
