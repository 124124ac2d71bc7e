/* json_stream.h — feeding a (possibly gzipped) file through yajl in
 * chunks (chunks.h), with the token guard of json_guard.h: the streaming
 * JSON readers' one loop. Errors name the file and the byte. */
#ifndef AMD_JSON_STREAM_H
#define AMD_JSON_STREAM_H

#include <yajl/yajl_parse.h>

#include "err.h"

/* yajl_config options to set, or 0. */
enum {
	AMD_JSON_TRAILING = 1, /* ignore bytes after the top value */
	AMD_JSON_RAW_UTF8 = 2, /* do not validate strings as UTF-8 */
	AMD_JSON_EXACT_GUARD = 4, /* amd_json_guard_init_exact */
};

/* Parses path with callbacks cb on ctx. A callback that fails fills err
 * itself, sets *failed and returns 0; anything else yajl refuses is
 * "PATH: byte N: invalid JSON". Returns 0, or -1 with err filled. */
int amd_json_stream(const char *path, const yajl_callbacks *cb, void *ctx,
		    const int *failed, int options, struct amd_err *err);

#endif
