/* json_fast.h — a fast path in front of json_stream.h for documents
 * that are plain JSON: an object or array whose strings have no \u
 * escape, whose tokens are short, with nothing but blanks after it. It calls the
 * same yajl callbacks, in the same order and with the same bytes, as
 * yajl does on such a document (under AMD_JSON_TRAILING |
 * AMD_JSON_RAW_UTF8 | AMD_JSON_EXACT_GUARD); on anything else — an
 * escape, a control byte in a string, a long token, bytes after the
 * document, invalid JSON, a read or gzip error — it stops and says so,
 * and the caller starts again with amd_json_stream, which reads the
 * document the one way errors are worded. speedscope's samples arrays
 * (megabytes of small integers) are read here at several times yajl's
 * speed. */
#ifndef AMD_JSON_FAST_H
#define AMD_JSON_FAST_H

#include <yajl/yajl_parse.h>

#include "err.h"

enum amd_json_fast_rc {
	AMD_JSON_FAST_OK = 0,        /* read whole: the callbacks saw it all */
	AMD_JSON_FAST_CANCELLED = 1, /* a callback returned 0 */
	AMD_JSON_FAST_NOT_PLAIN = 2, /* read it again with amd_json_stream */
};

/* Reads path (gunzipped when gzipped) through cb (yajl_number, not
 * yajl_integer/yajl_double); a file that cannot be opened is NOT_PLAIN
 * (amd_json_stream words the error). */
enum amd_json_fast_rc amd_json_fast(const char *path, const yajl_callbacks *cb, void *ctx);

#endif
