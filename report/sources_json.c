/* sources_json.c — report.json's sources array in cJSON_Print's text
 * (sources_json.h): a sweep of 1,000 runs × 64 ranks has 65,000
 * sources, 15 of report.json's 16.6 MB; as cJSON nodes they were nine
 * allocations each and most of the time of writing report.json. The
 * format is cJSON's (1.7): a member at depth d indented by d tabs, key
 * and value separated by ":\t", array items by ", "; strings escaped as
 * print_string_ptr does; a string member whose text is NULL left out
 * (cJSON_AddStringToObject adds nothing then). */
#include "sources_json.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/* s as a JSON string, escaped as cJSON escapes: " \ and bytes below
 * 32, the rest copied as is. */
static int put_string(struct amd_buf *b, const char *s)
{
	if (amd_buf_append(b, "\"", 1) < 0)
		return -1;
	const char *run = s;
	for (;; s++) {
		unsigned char c = (unsigned char)*s;
		if (c && c >= 32 && c != '"' && c != '\\')
			continue;
		if (s > run && amd_buf_append(b, run, (size_t)(s - run)) < 0)
			return -1;
		if (!c)
			break;
		char e[8];
		const char *named = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
			: c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
			: c == '\t' ? "\\t" : NULL;
		if (!named)
			snprintf(e, sizeof e, "\\u%04x", c);
		if (amd_buf_append(b, named ? named : e, strlen(named ? named : e)) < 0)
			return -1;
		run = s + 1;
	}
	return amd_buf_append(b, "\"", 1);
}

/* The number as cJSON prints a number member of value (double)v: "%d"
 * when it equals its int (cJSON's valueint), else cJSON's own text. */
static int put_number(struct amd_buf *b, int64_t v)
{
	double d = (double)v;
	if (d < (double)INT_MAX && d > (double)INT_MIN)
		return amd_buf_printf(b, "%d", (int)d);
	cJSON *n = cJSON_CreateNumber(d);
	char *t = n ? cJSON_PrintUnformatted(n) : NULL;
	int rc = t ? amd_buf_append(b, t, strlen(t)) : -1;
	free(t);
	cJSON_Delete(n);
	return rc;
}

/* One member of a source object (depth 3): its key, and before it the
 * comma ending the one before (first: none). */
static int member(struct amd_buf *b, const char *key, int *first)
{
	int rc = amd_buf_printf(b, "%s\t\t\t\"%s\":\t", *first ? "" : ",\n", key);
	*first = 0;
	return rc;
}

static int source(struct amd_buf *b, const struct amd_source_row *r)
{
	int first = 1;
	if (amd_buf_append(b, "{\n", 2) < 0)
		return -1;
	if (r->path && (member(b, "path", &first) < 0 || put_string(b, r->path) < 0))
		return -1;
	if (r->kind && (member(b, "kind", &first) < 0 || put_string(b, r->kind) < 0))
		return -1;
	if (member(b, "size", &first) < 0 || put_number(b, r->size) < 0)
		return -1;
	if (r->sha256 && (member(b, "sha256", &first) < 0 || put_string(b, r->sha256) < 0))
		return -1;
	return amd_buf_append(b, "\n\t\t}", 4);
}

int report_json_with_sources(struct amd_buf *out, const char *text,
			     const struct amd_source_row *v, size_t n)
{
	size_t len = strlen(text);
	if (len < 2 || strcmp(text + len - 2, "\n}") != 0)
		return -1; /* not an object with members */
	if (amd_buf_append(out, text, len - 2) < 0
	    || amd_buf_append(out, ",\n\t\"sources\":\t[", 15) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((i && amd_buf_append(out, ", ", 2) < 0) || source(out, &v[i]) < 0)
			return -1;
	return amd_buf_append(out, "]\n}", 3);
}
