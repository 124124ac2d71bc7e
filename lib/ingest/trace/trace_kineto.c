/* trace_kineto.c — Kineto's marks (root keys, categories, names) and the
 * top-level key scan for detection; see trace_kineto.h. yajl streams the
 * file through zlib (a byte-order mark skipped: text16.h) and stops at
 * the first key that answers. */
#include "trace_kineto.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>
#include <yajl/yajl_parse.h>

#include "err.h"
#include "file.h"
#include "json_guard.h"
#include "text16.h"

static int is_one_of(const char *s, size_t n, const char *const *words, int nocase)
{
	for (; *words; words++)
		if (strlen(*words) == n &&
		    (nocase ? strncasecmp(s, *words, n) : strncmp(s, *words, n)) == 0)
			return 1;
	return 0;
}

int amd_trace_kineto_root_key(const char *key, size_t len)
{
	static const char *const keys[] = {"schemaVersion", "deviceProperties",
					   "distributedInfo", "baseTimeNanoseconds", NULL};
	return is_one_of(key, len, keys, 0);
}

int amd_trace_kineto_event(const char *cat, size_t cat_len, const char *name,
			   size_t name_len)
{
	/* Kineto's categories; Operator … Memset are torch 1.8/1.9's (2021) */
	static const char *const cats[] = {
		"cpu_op", "kernel", "cuda_runtime", "cuda_driver", "gpu_memcpy", "gpu_memset",
		"user_annotation", "gpu_user_annotation", "python_function", "cpu_instant_event",
		"cuda_profiler_range", "ac2g", "fwdbwd", "Operator", "Runtime", "Kernel", "Memcpy",
		"Memset", "mtia_runtime", "mtia_ccp_events", NULL};
	if (cat && is_one_of(cat, cat_len, cats, 0))
		return 1;
	static const char *const prefixes[] = {"ProfilerStep#", "PyTorch Profiler", NULL};
	for (const char *const *p = prefixes; name && *p; p++)
		if (name_len >= strlen(*p) && memcmp(name, *p, strlen(*p)) == 0)
			return 1;
	return 0;
}

int amd_trace_accelerator_cat(const char *cat, size_t cat_len)
{
	static const char *const prefixes[] = {"cuda_", "gpu_", "mtia", "hip", "xpu", "hpu",
					       "kernel", NULL};
	for (const char *const *p = prefixes; cat && *p; p++)
		if (cat_len >= strlen(*p) && strncasecmp(cat, *p, strlen(*p)) == 0)
			return 1;
	return 0;
}

struct scan {
	int depth, found;
};

static int scan_key(void *ctx, const unsigned char *k, size_t len)
{
	struct scan *s = ctx;
	if (s->depth != 1)
		return 1;
	if (amd_trace_kineto_root_key((const char *)k, len))
		s->found = 2;
	else if (len == 11 && memcmp(k, "traceEvents", 11) == 0)
		s->found = 1;
	return s->found == 0; /* stop once the top level has said */
}

static int scan_open(void *ctx)
{
	((struct scan *)ctx)->depth++;
	return 1;
}

static int scan_close(void *ctx)
{
	return --((struct scan *)ctx)->depth > 0; /* the top level ended: stop */
}

static int scan_array_top(void *ctx)
{
	return ++((struct scan *)ctx)->depth > 1; /* a bare array: not an object */
}

static const yajl_callbacks scan_callbacks = {
	.yajl_start_map = scan_open,
	.yajl_map_key = scan_key,
	.yajl_end_map = scan_close,
	.yajl_start_array = scan_array_top,
	.yajl_end_array = scan_close,
};

int amd_trace_scan_top(const char *path)
{
	struct amd_err err;
	int fd = amd_open_regular(path, &err);
	if (fd < 0)
		return 0;
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return 0;
	}
	struct scan s = {0};
	enum { CHUNK = 64 * 1024 };
	unsigned char *buf = malloc(CHUNK);
	yajl_handle h = buf ? yajl_alloc(&scan_callbacks, NULL, &s) : NULL;
	int rc = h ? 0 : -1;
	if (h)
		yajl_config(h, yajl_dont_validate_strings, 1);
	struct amd_json_guard guard;
	amd_json_guard_init(&guard, AMD_JSON_TOKEN_MAX);
	size_t total = 0, at;
	int n;
	struct amd_textread text = {0}; /* a UTF-8 byte-order mark skipped (text16.h) */
	while (h && total < AMD_TRACE_SCAN_MAX &&
	       (n = amd_text_gzread(gz, &text, buf, CHUNK, path, &err)) > 0) {
		total += (size_t)n;
		if (amd_json_guard_scan(&guard, buf, (size_t)n, &at) < 0 ||
		    yajl_parse(h, buf, (size_t)n) != yajl_status_ok)
			break; /* stopped by a callback, or not JSON */
	}
	amd_textread_free(&text);
	if (rc == 0)
		rc = s.found;
	if (h)
		yajl_free(h);
	free(buf);
	gzclose(gz);
	return rc;
}
