/* json_stream.c — the streaming JSON readers' loop of json_stream.h:
 * the chunk reader (chunks.h: gunzipped on a second thread when
 * gzipped), the token guard, then yajl calls the reader's callbacks. */
#include <zlib.h>

#include "json_stream.h"
#include "json_guard.h"
#include "chunks.h"

/* After the data ended: 0 when it ended cleanly, else the error. */
static int gz_failure(struct amd_chunk_reader *cr, const char *path, long long at,
		      struct amd_err *err)
{
	const char *m;
	long long raw;
	int code = amd_chunks_status(cr, &m, &raw);
	if (code == Z_OK || code == Z_STREAM_END)
		return 0;
	if (code == Z_ERRNO)
		return amd_fail(err, "%s: byte %lld: %s", path, at, m);
	return amd_fail(err, "%s: byte %lld of the unzipped data (%lld of the file): %s",
			path, at, raw, code == Z_BUF_ERROR ? "truncated gzip stream" : m);
}

/* Feeds the chunks to h; 0, or -1 with err filled (a guard or read
 * failure), *status what yajl said last and *offset the byte it stopped
 * at. */
static int feed(struct amd_chunk_reader *cr, yajl_handle h, const char *path, int options,
		yajl_status *status, long long *offset, struct amd_err *err)
{
	struct amd_json_guard guard;
	if (options & AMD_JSON_EXACT_GUARD)
		amd_json_guard_init_exact(&guard, AMD_JSON_TOKEN_MAX);
	else
		amd_json_guard_init(&guard, AMD_JSON_TOKEN_MAX);
	const unsigned char *chunk;
	long n;
	while (*status == yajl_status_ok && (n = amd_chunks_next(cr, &chunk)) > 0) {
		size_t at;
		if (*offset == 0) /* offsets count the file's bytes, a mark included */
			*offset = (long long)amd_chunks_skipped(cr);
		if (amd_json_guard_scan(&guard, chunk, (size_t)n, &at) < 0)
			return amd_fail(err, "%s: byte %lld: %s longer than %u MiB", path,
					*offset + (long long)at,
					amd_json_guard_what(&guard, chunk, at),
					AMD_JSON_TOKEN_MAX >> 20);
		*status = yajl_parse(h, chunk, (size_t)n);
		*offset += *status == yajl_status_ok ? n
						     : (long long)yajl_get_bytes_consumed(h);
	}
	return *status == yajl_status_ok ? gz_failure(cr, path, *offset, err) : 0;
}

int amd_json_stream(const char *path, const yajl_callbacks *cb, void *ctx,
		    const int *failed, int options, struct amd_err *err)
{
	struct amd_chunk_reader *cr;
	if (amd_chunks_open(path, &cr, err) < 0)
		return -1;
	yajl_handle h = yajl_alloc(cb, NULL, ctx);
	if (!h) {
		amd_chunks_close(cr);
		return amd_fail(err, "%s: out of memory", path);
	}
	if (options & AMD_JSON_TRAILING)
		yajl_config(h, yajl_allow_trailing_garbage, 1);
	if (options & AMD_JSON_RAW_UTF8)
		yajl_config(h, yajl_dont_validate_strings, 1);
	yajl_status s = yajl_status_ok;
	long long offset = 0;
	int rc = feed(cr, h, path, options, &s, &offset, err);
	if (rc == 0 && s == yajl_status_ok)
		s = yajl_complete_parse(h);
	if (rc == 0 && s != yajl_status_ok && !*failed)
		rc = amd_fail(err, "%s: byte %lld: invalid JSON", path, offset);
	if (*failed)
		rc = -1;
	yajl_free(h);
	amd_chunks_close(cr);
	return rc;
}
