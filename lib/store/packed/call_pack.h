/* call_pack.h — the packed layout of regions' caller edges (issue 38,
 * round fourteen): a stretch of a unit's region_call rows (cProfile's
 * callers, at most AMD_CALL_CHUNK), in the order the reader gave them,
 * are one region_call_pack row (source_id, n, edges), the blob a
 * little-endian column array as region_pack.h's (col_pack.h):
 *
 *   AMD_CALL_COLUMNS width bytes, one per column (0, 1, 2, 4 or 8), then
 *   each column's n signed values of its width, column after column:
 *   the null mask (AMD_CALL_NULL_*; always of width 1, so that every
 *   edge takes a byte at least), caller_key, callee_key, calls,
 *   prim_calls, self_ns, total_ns. A NULL value is stored as 0.
 *
 * Each column takes the least width its values need: a cProfile edge
 * is ~20 bytes, not a row of 7 columns and an index entry. The ONE pair
 * of functions that writes and reads that layout: the writer, the
 * migration from row-per-edge stores, the ClickHouse load and the
 * `region_call` virtual table (call_sql.h) go through them. */
#ifndef AMD_CALL_PACK_H
#define AMD_CALL_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Columns of a blob: the null mask, then the six values. */
#define AMD_CALL_COLUMNS 7
/* Edges per pack at most: a writer starts a new pack past it. */
#define AMD_CALL_CHUNK 4096
#define AMD_CALL_CHUNK_SQL "4096" /* AMD_CALL_CHUNK, spelled for SQL */

/* The columns, in the blob's order. */
enum amd_call_column { AMD_CL_NULLS, AMD_CL_CALLER, AMD_CL_CALLEE, AMD_CL_CALLS, AMD_CL_PRIM,
		       AMD_CL_SELF, AMD_CL_TOTAL };
/* The null mask's bits: bit c - AMD_CL_CALLS, column c is NULL. */
#define AMD_CALL_NULL(c) ((int64_t)1 << ((c) - AMD_CL_CALLS))
#define AMD_CALL_NULL_ALL 15

/* One region_call row without its source (the pack's): v[c] the value
 * of column c (0 when NULL). */
struct amd_packed_call {
	int64_t v[AMD_CALL_COLUMNS];
};

/* The bytes amd_call_pack writes for v[0..n). */
size_t amd_call_packed_size(const struct amd_packed_call *v, size_t n);
/* Writes v[0..n) into out, which holds amd_call_packed_size bytes. */
void amd_call_pack(const struct amd_packed_call *v, size_t n, unsigned char *out);

/* The n edges of a blob of len bytes into out[0..n) (n as stored: a
 * count below 0 is refused); what names the blob in a message: a
 * length that is not the widths' n records, a width not 0/1/2/4/8, an
 * unknown null bit. */
int amd_call_unpack(const void *blob, size_t len, int64_t n, const char *what,
		    struct amd_packed_call *out, struct amd_err *err);

#endif
