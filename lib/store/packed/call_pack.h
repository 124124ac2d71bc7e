/* call_pack.h — the packed layout of regions' caller edges (issue 38,
 * round fourteen): a unit's region_call rows (cProfile's callers), in
 * the order the reader gave them, stored in table region_call_pack as
 * one BLOB `edges` of n records of AMD_CALL_BYTES bytes:
 *
 *   caller_key, callee_key, calls, prim_calls, self_ns, total_ns, then
 *   a mask of the columns that are NULL (AMD_CALL_NULL_*), each a
 *   little-endian int64.
 *
 * The ONE pair of functions that writes and reads that layout: the
 * writer, the migration from row-per-edge stores, the ClickHouse load
 * and the `region_call` virtual table (call_sql.h) go through them. */
#ifndef AMD_CALL_PACK_H
#define AMD_CALL_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Bytes one record takes in a blob. */
#define AMD_CALL_BYTES 56
/* Edges per pack at most: a writer starts a new pack past it. */
#define AMD_CALL_CHUNK 4096
#define AMD_CALL_CHUNK_SQL "4096" /* AMD_CALL_CHUNK, spelled for SQL */

/* The bits of amd_packed_call.nulls: that column is NULL. */
enum { AMD_CALL_NULL_CALLS = 1, AMD_CALL_NULL_PRIM = 2, AMD_CALL_NULL_SELF = 4,
       AMD_CALL_NULL_TOTAL = 8 };

/* One region_call row without its source (the pack's). */
struct amd_packed_call {
	int64_t caller_key, callee_key, calls, prim_calls, self_ns, total_ns;
	int64_t nulls;
};

/* Writes n records of v into out, which holds n * AMD_CALL_BYTES bytes. */
void amd_call_pack(const struct amd_packed_call *v, size_t n, unsigned char *out);

/* The records of a blob of len bytes into out[0..n), n = len /
 * AMD_CALL_BYTES; what names the blob in a message (a length not a
 * multiple of AMD_CALL_BYTES). */
int amd_call_unpack(const void *blob, size_t len, const char *what, struct amd_packed_call *out,
		    struct amd_err *err);

#endif
