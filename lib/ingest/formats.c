/* formats.c — the table of input formats and content detection. A new
 * format is a new file in lib/ingest/ and one row here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "file.h"

extern const struct amd_format amd_fmt_mlflow_run;
extern const struct amd_format amd_fmt_mlflow_sqlite;
extern const struct amd_format amd_fmt_mlflow_csv;
extern const struct amd_format amd_fmt_mlflow_rest;
extern const struct amd_format amd_fmt_itwinai_csv;
extern const struct amd_format amd_fmt_nvsmi_csv;
extern const struct amd_format amd_fmt_pyspy_collapsed;
extern const struct amd_format amd_fmt_pyspy_speedscope;
extern const struct amd_format amd_fmt_pyspy_chrometrace;
extern const struct amd_format amd_fmt_pyspy_dump;
extern const struct amd_format amd_fmt_pyspy_dump_json;
extern const struct amd_format amd_fmt_torch_trace;
extern const struct amd_format amd_fmt_pyspy_svg;
extern const struct amd_format amd_fmt_mlperf_log;
extern const struct amd_format amd_fmt_tensorboard;
extern const struct amd_format amd_fmt_cprofile;
extern const struct amd_format amd_fmt_keyavg;
extern const struct amd_format amd_fmt_nsys;

const struct amd_format *const amd_formats[] = {
	&amd_fmt_mlflow_run,
	&amd_fmt_mlflow_sqlite,
	&amd_fmt_mlflow_csv,
	&amd_fmt_mlflow_rest,
	&amd_fmt_itwinai_csv,
	&amd_fmt_nvsmi_csv,
	&amd_fmt_pyspy_collapsed,
	&amd_fmt_pyspy_speedscope,
	&amd_fmt_pyspy_chrometrace,
	&amd_fmt_pyspy_dump,
	&amd_fmt_pyspy_dump_json,
	&amd_fmt_torch_trace,
	&amd_fmt_pyspy_svg,
	&amd_fmt_mlperf_log,
	&amd_fmt_tensorboard,
	&amd_fmt_cprofile,
	&amd_fmt_keyavg,
	&amd_fmt_nsys,
	NULL,
};

const struct amd_format *amd_format_by_name(const char *name)
{
	for (size_t i = 0; amd_formats[i]; i++)
		if (strcmp(amd_formats[i]->name, name) == 0)
			return amd_formats[i];
	return NULL;
}

int amd_detect(const char *path, int is_dir, const struct amd_format **out,
	       struct amd_err *err)
{
	unsigned char head[AMD_HEAD_BYTES + 1];
	long n = 0;
	*out = NULL;
	if (!is_dir) {
		n = amd_read_head(path, head, AMD_HEAD_BYTES, err);
		if (n < 0)
			return -1;
		head[n] = '\0';
	}
	/* a byte-order mark is not in the head: amd_read_head reads through
	 * the one encoding detection (text16.h) */
	int best_score = 0;
	for (size_t i = 0; amd_formats[i]; i++) {
		const struct amd_format *f = amd_formats[i];
		if (f->is_dir != is_dir)
			continue;
		int score = f->detect(path, is_dir ? NULL : head, (size_t)n);
		if (score < 0) {
			*out = NULL;
			amd_fail(err, "%s: out of memory", path);
			return -2;
		}
		if (score > best_score) {
			*out = f;
			best_score = score;
		}
	}
	for (size_t i = 0; !is_dir && best_score < 50 && amd_formats[i]; i++) {
		const struct amd_format *f = amd_formats[i];
		int score = f->detect_deep ? f->detect_deep(path, head, (size_t)n) : 0;
		if (score > best_score) {
			*out = f;
			best_score = score;
		}
	}
	return 0;
}

/* The text of head[0..n) up to its first line's end, printable ASCII
 * only, at most 60 bytes. */
static void first_line(const unsigned char *head, size_t n, char *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < n && head[i] != '\n' && head[i] != '\r' && k + 4 < cap && k < 60; i++)
		out[k++] = head[i] >= 0x20 && head[i] < 0x7f ? (char)head[i] : '?';
	out[k] = '\0';
}

void amd_detect_describe(const char *path, char *out, size_t cap)
{
	unsigned char head[AMD_HEAD_BYTES + 1];
	struct amd_err e;
	long n = amd_read_head(path, head, AMD_HEAD_BYTES, &e);
	size_t i = 0;
	char line[80];
	if (n <= 0) {
		snprintf(out, cap, "%s", n == 0 ? "an empty file" : "a file that cannot be read");
		return;
	}
	while (i < (size_t)n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' ||
				  head[i] == '\r'))
		i++;
	first_line(head + i, (size_t)n - i, line, sizeof line);
	if (memchr(head, '\0', (size_t)n)) /* UTF-16 text is read as UTF-8 already */
		snprintf(out, cap, "binary data (NUL bytes)");
	else if (i < (size_t)n && (head[i] == '{' || head[i] == '['))
		snprintf(out, cap, "JSON, beginning '%s'", line);
	else if (i < (size_t)n && head[i] == '<')
		snprintf(out, cap, "XML, beginning '%s'", line);
	else
		snprintf(out, cap, "text whose first line is '%s'", line);
}
