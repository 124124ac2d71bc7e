/* json_stream.c — the streaming JSON readers' loop of json_stream.h:
 * zlib reads the file (gunzipping it when gzipped), the guard bounds one
 * token's length, yajl calls the reader's callbacks. */
#include <unistd.h>
#include <zlib.h>

#include "json_stream.h"
#include "json_guard.h"
#include "file.h"

static gzFile open_stream(const char *path, struct amd_err *err)
{
	int fd = amd_open_regular(path, err);
	if (fd < 0)
		return NULL;
	gzFile g = gzdopen(fd, "rb");
	if (!g) {
		close(fd);
		amd_fail(err, "%s: cannot open", path);
	}
	return g;
}

/* Feeds g to h; 0, or -1 with err filled (a guard or read failure),
 * *status what yajl said last and *offset the byte it stopped at. */
static int feed(gzFile g, yajl_handle h, const char *path, int options,
		yajl_status *status, long long *offset, struct amd_err *err)
{
	unsigned char chunk[1 << 16];
	struct amd_json_guard guard;
	if (options & AMD_JSON_EXACT_GUARD)
		amd_json_guard_init_exact(&guard, AMD_JSON_TOKEN_MAX);
	else
		amd_json_guard_init(&guard, AMD_JSON_TOKEN_MAX);
	int n;
	while (*status == yajl_status_ok && (n = gzread(g, chunk, sizeof chunk)) > 0) {
		size_t at;
		if (amd_json_guard_scan(&guard, chunk, (size_t)n, &at) < 0)
			return amd_fail(err, "%s: byte %lld: %s longer than %u MiB", path,
					*offset + (long long)at,
					amd_json_guard_what(&guard, chunk, at),
					AMD_JSON_TOKEN_MAX >> 20);
		*status = yajl_parse(h, chunk, (size_t)n);
		*offset += *status == yajl_status_ok ? n
						     : (long long)yajl_get_bytes_consumed(h);
	}
	if (*status == yajl_status_ok && n < 0)
		return amd_fail(err, "%s: byte %lld: cannot read (corrupt gzip?)", path, *offset);
	return 0;
}

int amd_json_stream(const char *path, const yajl_callbacks *cb, void *ctx,
		    const int *failed, int options, struct amd_err *err)
{
	gzFile g = open_stream(path, err);
	if (!g)
		return -1;
	yajl_handle h = yajl_alloc(cb, NULL, ctx);
	if (!h) {
		gzclose(g);
		return amd_fail(err, "%s: out of memory", path);
	}
	if (options & AMD_JSON_TRAILING)
		yajl_config(h, yajl_allow_trailing_garbage, 1);
	if (options & AMD_JSON_RAW_UTF8)
		yajl_config(h, yajl_dont_validate_strings, 1);
	yajl_status s = yajl_status_ok;
	long long offset = 0;
	int rc = feed(g, h, path, options, &s, &offset, err);
	if (rc == 0 && s == yajl_status_ok)
		s = yajl_complete_parse(h);
	if (rc == 0 && s != yajl_status_ok && !*failed)
		rc = amd_fail(err, "%s: byte %lld: invalid JSON", path, offset);
	if (*failed)
		rc = -1;
	yajl_free(h);
	gzclose(g);
	return rc;
}
