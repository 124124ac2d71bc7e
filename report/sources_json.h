/* sources_json.h — report.json's "sources" array (one object per source
 * file: path, kind, size, sha256), written straight into a buffer in the
 * text cJSON_Print gives for it, without a cJSON node per field. */
#ifndef REPORT_SOURCES_JSON_H
#define REPORT_SOURCES_JSON_H

#include <stddef.h>

#include "buf.h"
#include "sources.h"

/* Appends text (cJSON_Print of an object, ending "\n}") to out with
 * member "sources": v[0..n) added as its last member, as cJSON_Print
 * would print it; -1 out of memory. */
int report_json_with_sources(struct amd_buf *out, const char *text,
			     const struct amd_source_row *v, size_t n);

#endif
