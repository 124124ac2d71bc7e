/* pyspy_collapsed.c — collapsed stacks: `py-spy record -f raw` and the
 * perf/FlameGraph collapsed format, one "frame;frame;… COUNT" per line,
 * root first (a profile whose stacks are one frame deep has no ';': it is
 * detected when every line's frame is py-spy's "name (file:line)"). py-spy's -s and -t root frames become the stack's process
 * and thread; counts / sampling rate = thread-seconds (--rate, else
 * py-spy's default 100 Hz: the format does not record its rate). A last
 * line without its end (a cut file: "… 3" of "… 31") is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "pyspy_stack.h"
#include "file.h"

#define COLLAPSED_MAX ((size_t)1 << 30)
/* A line of AMD_PYSPY_MAX_DEPTH frames of 4 KiB each is far longer than
 * any real stack; read line by line, memory stays near one line. */
#define COLLAPSED_LINE_MAX ((size_t)16 << 20)

/* A line of the form "… COUNT"; *has_semi set when its stack holds a
 * ';', *py_leaf cleared when its last frame is not py-spy's
 * "name (file:line)". */
static int looks_collapsed(const char *s, size_t n, int *has_semi, int *py_leaf)
{
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	size_t d = n;
	while (d && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	if (d == n || d < 2 || s[d - 1] != ' ')
		return 0;
	if (memchr(s, ';', d))
		*has_semi = 1;
	const char *open = memmem(s, d - 1, " (", 2);
	if (s[d - 2] != ')' || !open || !memchr(open, ':', (size_t)(s + d - 2 - open)))
		*py_leaf = 0;
	return memchr(s, '\t', n) == NULL;
}

/* A first line longer than the head (deep Python stacks with long paths
 * are): py-spy's own frames "name (file:line);" or its -s/-t root frames
 * must show in it. */
static int looks_pyspy_prefix(const char *s, size_t n)
{
	if (memchr(s, '\t', n) || !memchr(s, ';', n))
		return 0;
	if (strncmp(s, "process ", 8) == 0 || strncmp(s, "thread (", 8) == 0)
		return 1;
	int frames = 0;
	for (const char *p = s; (p = strstr(p, ");")) && p < s + n; p++)
		frames++;
	return frames >= 3;
}

static int detect(const char *path, const unsigned char *head, size_t n)
{
	const char *s = (const char *)head;
	if (n == 0 || s[0] == '{' || s[0] == '[' || s[0] == '#')
		return 0;
	if (n == AMD_HEAD_BYTES && !memchr(s, '\n', n))
		return looks_pyspy_prefix(s, n) ? 55 : 0;
	int lines = 0, semi = 0, py = 1;
	size_t i = 0;
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		if (!nl && n == AMD_HEAD_BYTES && lines > 0)
			break; /* a line cut by the head's end */
		size_t len = nl ? (size_t)(nl - (s + i)) : n - i;
		if (len > 0) {
			if (!looks_collapsed(s + i, len, &semi, &py))
				return 0;
			lines++;
		}
		i += len + 1;
	}
	/* stacks one frame deep ("main (train.py:12) 40"): every line a
	 * py-spy frame and its count */
	return lines > 0 && semi ? 60 : lines > 0 && py ? 55 : 0;
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_lines *l = amd_lines_open(in->path, COLLAPSED_LINE_MAX, COLLAPSED_MAX, err);
	if (!l)
		return -1;
	struct amd_pyspy_acc *acc = amd_pyspy_acc_new();
	struct amd_pyspy_stack st = {0};
	int rc = acc ? amd_input_link(in, sink, err) : amd_fail(err, "%s: out of memory", in->path);
	char *p;
	size_t len;
	int got;
	while (rc == 0 && (got = amd_lines_next(l, &p, &len, err)) != 0) {
		int64_t count;
		const char *why = NULL;
		if (got < 0)
			rc = -1;
		else if (strlen(p) != len)
			rc = amd_fail(err, "%s: line %ld: a NUL byte", in->path, amd_lines_number(l));
		else if (strspn(p, " \t\r") == len)
			continue; /* blank line */
		else if (amd_lines_unended(l)) /* py-spy and perf end every line: a cut file */
			rc = amd_fail(err, "%s: line %ld: the last line has no end (truncated file?)",
				      in->path, amd_lines_number(l));
		else if (amd_pyspy_parse_collapsed(p, &st, &count, &why) < 0)
			rc = amd_fail(err, "%s: line %ld: %s", in->path, amd_lines_number(l), why);
		else if (amd_pyspy_acc_add(acc, &st, count, -1) < 0)
			rc = amd_fail(err, "%s: out of memory", in->path);
	}
	rc = amd_pyspy_acc_finish(acc, rc, "no stacks", amd_pyspy_rate(in, 0), sink,
				  in->path, err);
	amd_pyspy_stack_free(&st);
	amd_pyspy_acc_free(acc);
	amd_lines_close(l);
	return rc;
}

const struct amd_format amd_fmt_pyspy_collapsed = {
	.name = "pyspy-collapsed",
	.variants = "py-spy record -f raw [-s] [-t]; perf/FlameGraph collapsed stacks",
	.detect = detect,
	.parse = parse,
};
