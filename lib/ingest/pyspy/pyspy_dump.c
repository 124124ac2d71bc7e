/* pyspy_dump.c — `py-spy dump` snapshots: the text form ("Process PID:
 * cmdline", "Python v…", then per thread `Thread TID (status): "name"`
 * and its frames leaf first, indented four spaces; --locals adds deeper
 * indented lines, skipped) and `dump --json` (an array of stack traces
 * with pid, thread_id, thread_name, os_thread_id, frames leaf first,
 * process_info). A dump is one sample per thread: seconds = 1 / rate
 * (--rate, else py-spy's default 100 Hz). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ingest.h"
#include "pyspy_stack.h"
#include "buf.h"
#include "file.h"

/* A dump is one stack per thread: the public one is 2 KB as text, 10 KB
 * as --json. 2 MiB bounds what a dump may take in memory (cJSON's tree
 * of a --json dump is about 9 times its text); a bigger file is
 * refused before it is parsed. */
#define DUMP_MAX ((size_t)2 << 20)

static int detect_text(const char *path, const unsigned char *head, size_t n)
{
	const char *s = (const char *)head;
	if (strncmp(s, "Process ", 8) != 0 || !strchr("0123456789", s[8]))
		return 0;
	return strstr(s, "\nThread ") || strstr(s, "\nPython v") ? 85 : 0;
}

/* Reverses st's frames (dumps list the leaf first). */
static void reverse(struct amd_pyspy_stack *st)
{
	for (size_t i = 0, j = st->depth; i + 1 < j; i++, j--) {
		struct amd_stack_frame t = st->frames[i];
		st->frames[i] = st->frames[j - 1];
		st->frames[j - 1] = t;
	}
}

static int add_thread(struct amd_pyspy_acc *acc, struct amd_pyspy_stack *st, const char *path,
		      struct amd_err *err)
{
	if (st->depth == 0)
		return 0; /* a thread with no Python frames */
	reverse(st);
	if (amd_pyspy_acc_add(acc, st, 1, -1) < 0)
		return amd_fail(err, "%s: out of memory", path);
	st->depth = 0;
	return 0;
}

/* "Thread TID (status): \"name\"" or "Thread TID (status)" → "TID name". */
static int thread_header(char *s)
{
	char *id = s + 7;
	size_t idl = strcspn(id, " ");
	if (idl == 0 || strncmp(id + idl, " (", 2) != 0)
		return -1;
	char *close = strchr(id + idl, ')');
	if (!close)
		return -1;
	char *name = close + 1;
	id[idl] = '\0';
	if (strncmp(name, ": \"", 3) == 0 && strlen(name) >= 4 && name[strlen(name) - 1] == '"') {
		name += 3;
		name[strlen(name) - 1] = '\0';
		memmove(s, id, idl);
		s[idl] = ' ';
		memmove(s + idl + 1, name, strlen(name) + 1);
	} else if (*name == '\0') {
		memmove(s, id, idl + 1);
	} else {
		return -1;
	}
	return 0;
}

/* "Process PID: cmdline" → "PID cmdline". */
static int process_header(char *s)
{
	char *id = s + 8;
	size_t idl = strspn(id, "0123456789");
	if (idl == 0 || id[idl] != ':')
		return -1;
	char *cmd = id + idl + 1;
	while (*cmd == ' ')
		cmd++;
	memmove(s, id, idl);
	s[idl] = ' ';
	memmove(s + idl + 1, cmd, strlen(cmd) + 1);
	return 0;
}

static int text_line(char *p, long lineno, struct amd_pyspy_stack *st,
		     struct amd_pyspy_acc *acc, int *in_thread, const char *path,
		     struct amd_err *err)
{
	const char *why = NULL;
	size_t n = strlen(p);
	while (n && (p[n - 1] == '\r' || p[n - 1] == ' '))
		p[--n] = '\0';
	if (n == 0 || strncmp(p, "Python v", 8) == 0)
		return 0;
	if (strncmp(p, "        ", 8) == 0 && *in_thread)
		return 0; /* --locals: "Arguments:", "Locals:" and their values */
	if (strncmp(p, "    ", 4) == 0 && p[4] != ' ') {
		struct amd_stack_frame f;
		if (!*in_thread)
			return amd_fail(err, "%s: line %ld: a frame before any Thread line", path,
					lineno);
		if (amd_pyspy_parse_frame(p + 4, &f, &why) < 0)
			return amd_fail(err, "%s: line %ld: %s", path, lineno, why);
		why = amd_pyspy_push_why(st, &f);
		return why ? amd_fail(err, "%s: line %ld: %s", path, lineno, why) : 0;
	}
	if (add_thread(acc, st, path, err) < 0)
		return -1;
	if (strncmp(p, "Thread ", 7) == 0 && thread_header(p) == 0) {
		st->thread = p;
		*in_thread = 1;
		return 0;
	}
	if (strncmp(p, "Process ", 8) == 0 && process_header(p) == 0) {
		st->process = p;
		st->thread = NULL;
		*in_thread = 0;
		return 0;
	}
	return amd_fail(err, "%s: line %ld: expected a Process, Thread or indented frame line",
			path, lineno);
}

static int parse_text(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (amd_read_file(in->path, DUMP_MAX, &b, err) < 0) {
		amd_buf_free(&b);
		return -1;
	}
	struct amd_pyspy_acc *acc = amd_pyspy_acc_new();
	struct amd_pyspy_stack st = {0};
	int rc = acc ? amd_input_link(in, sink, err) : amd_fail(err, "out of memory");
	int in_thread = 0;
	long lineno = 0;
	int ended = b.len == 0 || b.data[b.len - 1] == '\n'; /* before the lines are cut */
	for (char *p = b.data; rc == 0 && p && *p;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		rc = text_line(p, ++lineno, &st, acc, &in_thread, in->path, err);
		p = nl ? nl + 1 : NULL;
	}
	/* py-spy ends every line it prints: a last one without its newline
	 * is a file cut short (its frame may have lost its file and line) */
	if (rc == 0 && !ended)
		rc = amd_fail(err, "%s: line %ld: the last line has no end (truncated file?)",
			      in->path, lineno);
	if (rc == 0)
		rc = add_thread(acc, &st, in->path, err);
	rc = amd_pyspy_acc_finish(acc, rc, "no thread with frames", amd_pyspy_rate(in, 0), sink,
				  in->path, err);
	amd_pyspy_stack_free(&st);
	amd_pyspy_acc_free(acc);
	amd_buf_free(&b);
	return rc;
}

const struct amd_format amd_fmt_pyspy_dump = {
	.name = "pyspy-dump",
	.variants = "py-spy dump (text; one snapshot: 1 sample per thread)",
	.detect = detect_text,
	.parse = parse_text,
};

/* ---- dump --json ---- */

static int detect_json(const char *path, const unsigned char *head, size_t n)
{
	const char *s = (const char *)head;
	s += strspn(s, " \t\r\n");
	if (*s != '[')
		return 0;
	return strstr(s, "\"thread_id\"") && strstr(s, "\"frames\"") &&
			       (strstr(s, "\"owns_gil\"") || strstr(s, "\"os_thread_id\""))
		       ? 85 : 0;
}

static void json_labels(const cJSON *t, char *proc, size_t plen, char *thr, size_t tlen,
			struct amd_pyspy_stack *st)
{
	const cJSON *os = cJSON_GetObjectItemCaseSensitive(t, "os_thread_id");
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(t, "thread_id");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "thread_name");
	const cJSON *pi = cJSON_GetObjectItemCaseSensitive(t, "process_info");
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(t, "pid");
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(pi, "command_line");
	char id[64] = "";
	if (cJSON_IsNumber(os))
		snprintf(id, sizeof id, "%.0f", os->valuedouble);
	else if (cJSON_IsNumber(tid) && tid->valuedouble >= 0 && tid->valuedouble < 0x1p64)
		snprintf(id, sizeof id, "%#llX", (unsigned long long)tid->valuedouble);
	else if (cJSON_IsNumber(tid))
		snprintf(id, sizeof id, "%.0f", tid->valuedouble);
	if (cJSON_IsString(name) && *name->valuestring)
		snprintf(thr, tlen, "%s %s", id, name->valuestring);
	else
		snprintf(thr, tlen, "%s", id);
	st->thread = *thr ? thr : NULL;
	st->process = NULL;
	if (cJSON_IsNumber(pid)) {
		if (cJSON_IsString(cmd))
			snprintf(proc, plen, "%.0f %s", pid->valuedouble, cmd->valuestring);
		else
			snprintf(proc, plen, "%.0f", pid->valuedouble);
		st->process = proc;
	}
}

static int json_trace(const cJSON *t, size_t ti, struct amd_pyspy_acc *acc, const char *path,
		      struct amd_err *err)
{
	const cJSON *frames = cJSON_GetObjectItemCaseSensitive(t, "frames");
	if (!cJSON_IsObject(t) || !cJSON_IsArray(frames))
		return amd_fail(err, "%s: [%zu]: a stack trace needs a frames array", path, ti);
	char proc[4096], thr[1024];
	struct amd_pyspy_stack st = {0};
	json_labels(t, proc, sizeof proc, thr, sizeof thr, &st);
	size_t fi = 0;
	const cJSON *f;
	int rc = 0;
	cJSON_ArrayForEach(f, frames) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
		const cJSON *file = cJSON_GetObjectItemCaseSensitive(f, "short_filename");
		const cJSON *line = cJSON_GetObjectItemCaseSensitive(f, "line");
		if (!cJSON_IsString(file))
			file = cJSON_GetObjectItemCaseSensitive(f, "filename");
		if (!cJSON_IsString(name)) {
			rc = amd_fail(err, "%s: [%zu].frames[%zu]: no name", path, ti, fi);
			break;
		}
		if (cJSON_IsNumber(line) && !(line->valuedouble <= INT_MAX)) {
			rc = amd_fail(err, "%s: [%zu].frames[%zu]: line %g is out of range", path,
				      ti, fi, line->valuedouble);
			break;
		}
		struct amd_stack_frame fr = {
			.name = name->valuestring,
			.file = cJSON_IsString(file) && *file->valuestring ? file->valuestring : NULL,
			.line = cJSON_IsNumber(line) && line->valuedouble > 0 ? (int)line->valuedouble : 0,
		};
		const char *why = amd_pyspy_push_why(&st, &fr);
		if (why) {
			rc = amd_fail(err, "%s: [%zu].frames[%zu]: %s", path, ti, fi, why);
			break;
		}
		fi++;
	}
	if (rc == 0)
		rc = add_thread(acc, &st, path, err);
	amd_pyspy_stack_free(&st);
	return rc;
}

static int parse_json(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (amd_read_file(in->path, DUMP_MAX, &b, err) < 0) {
		amd_buf_free(&b);
		return -1;
	}
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(b.data, b.len, &end, 0);
	struct amd_pyspy_acc *acc = amd_pyspy_acc_new();
	int rc = 0;
	if (!root)
		rc = amd_fail(err, "%s: byte %ld: invalid JSON", in->path,
			      end ? (long)(end - b.data) : 0L);
	else if (!cJSON_IsArray(root))
		rc = amd_fail(err, "%s: expected an array of stack traces", in->path);
	else if (!acc)
		rc = amd_fail(err, "%s: out of memory", in->path);
	else
		rc = amd_input_link(in, sink, err);
	size_t ti = 0;
	const cJSON *t;
	if (rc == 0)
		cJSON_ArrayForEach(t, root) {
			if ((rc = json_trace(t, ti++, acc, in->path, err)) < 0)
				break;
		}
	rc = amd_pyspy_acc_finish(acc, rc, "no thread with frames", amd_pyspy_rate(in, 0), sink,
				  in->path, err);
	amd_pyspy_acc_free(acc);
	cJSON_Delete(root);
	amd_buf_free(&b);
	return rc;
}

const struct amd_format amd_fmt_pyspy_dump_json = {
	.name = "pyspy-dump-json",
	.variants = "py-spy dump --json",
	.detect = detect_json,
	.parse = parse_json,
};
