/* pyspy_stack.c — frame text, py-spy's process/thread root frames and
 * collapsed lines shared by the py-spy parsers (the stack accumulator is
 * pyspy_acc.c); see pyspy_stack.h. */
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
	f->id = 0;
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

double amd_pyspy_rate(const struct amd_input *in, double file_rate)
{
	if (in->sample_rate > 0)
		return in->sample_rate;
	if (file_rate > 0)
		return file_rate;
	return AMD_PYSPY_DEFAULT_RATE;
}
