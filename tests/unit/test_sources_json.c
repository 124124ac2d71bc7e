/* test_sources_json.c — report.json's sources array written as text
 * (report/sources_json.h) is byte for byte what cJSON_Print gives for
 * the same members built as cJSON nodes (the way report.json was made
 * before): escapes, bytes above 127, NULL strings (member left out),
 * sizes beyond int, negative and zero, no sources at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "sources_json.h"

/* The reference: an object with a member before, the sources as nodes. */
static char *by_cjson(const struct amd_source_row *v, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "sweep", "s");
	cJSON *src = cJSON_AddArrayToObject(o, "sources");
	for (size_t i = 0; i < n; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "path", v[i].path);
		cJSON_AddStringToObject(r, "kind", v[i].kind);
		cJSON_AddNumberToObject(r, "size", (double)v[i].size);
		cJSON_AddStringToObject(r, "sha256", v[i].sha256);
		cJSON_AddItemToArray(src, r);
	}
	char *t = cJSON_Print(o);
	cJSON_Delete(o);
	return t;
}

static void check(const struct amd_source_row *v, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "sweep", "s");
	char *head = cJSON_Print(o);
	cJSON_Delete(o);
	struct amd_buf b = {0};
	assert_int_equal(report_json_with_sources(&b, head, v, n), 0);
	assert_int_equal(amd_buf_append(&b, "", 1), 0);
	char *want = by_cjson(v, n);
	assert_string_equal(b.data, want);
	free(want);
	free(head);
	amd_buf_free(&b);
}

/* A row: path, kind, size, sha256 (the struct's order differs). */
#define R(p, k, s, h) { .path = p, .kind = k, .sha256 = h, .size = s }

static void plain_rows(void **state)
{
	(void)state;
	struct amd_source_row v[2] = {
		R("/a/b/rank0.pt.trace.json.gz", "torch-trace", 24444, "f3cd66"),
		R("/a/b", "mlflow-run", 735, "aa"),
	};
	check(v, 2);
	check(v, 1);
}

static void escapes_and_nulls(void **state)
{
	(void)state;
	struct amd_source_row v[5] = {
		R("q\"b\\s/\b\f\n\r\t\x01\x1f\x7f end", "k\xc3\xa9", 0, "x"),
		R(NULL, "kind", 1, NULL),
		R("p", NULL, -5, "h"),
		R(NULL, NULL, 3, NULL),
		R("\xff\xfe invalid utf-8 kept as is", "", 7, ""),
	};
	check(v, 5);
}

static void sizes_beyond_int(void **state)
{
	(void)state;
	struct amd_source_row v[6] = {
		R("a", "k", 2147483647LL, "h"),
		R("b", "k", 2147483648LL, "h"),
		R("c", "k", -2147483648LL, "h"),
		R("d", "k", -2147483649LL, "h"),
		R("e", "k", 123456789012345LL, "h"),
		R("f", "k", 9007199254740993LL, "h"), /* not a double: rounds */
	};
	check(v, 6);
}

static void no_sources(void **state)
{
	(void)state;
	check(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_rows),
		cmocka_unit_test(escapes_and_nulls),
		cmocka_unit_test(sizes_beyond_int),
		cmocka_unit_test(no_sources),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
