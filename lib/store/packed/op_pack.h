/* op_pack.h — the packed layout of operator averages (issue 38, round
 * thirteen): a stretch of a unit's op_average rows sharing a source and
 * a run, in the order the reader gave them, stored in table
 * op_average_pack as one BLOB `ops` of n records of AMD_OP_BYTES bytes:
 *
 *   name_id, rank, calls, role (little-endian int64), self_cuda_us,
 *   cuda_total_us (little-endian IEEE-754 float64), then a little-endian
 *   int64 mask of the columns that are NULL (AMD_OP_NULL_*).
 *
 * The ONE pair of functions that writes and reads that layout: the
 * writer, the migration from row-per-op stores, the ClickHouse load and
 * the `op_average` virtual table (op_sql.h) go through them. */
#ifndef AMD_OP_PACK_H
#define AMD_OP_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Bytes one record takes in a blob. */
#define AMD_OP_BYTES 56
/* Rows per pack at most: a writer starts a new pack past it. */
#define AMD_OP_CHUNK 4096
#define AMD_OP_CHUNK_SQL "4096" /* AMD_OP_CHUNK, spelled for SQL */

/* The bits of amd_packed_op.nulls: that column is NULL. */
enum { AMD_OP_NULL_RANK = 1, AMD_OP_NULL_SELF = 2, AMD_OP_NULL_TOTAL = 4,
       AMD_OP_NULL_CALLS = 8, AMD_OP_NULL_ROLE = 16 };

/* One op_average row without its source and run (the pack's). */
struct amd_packed_op {
	int64_t name_id, rank, calls, role;
	double self_cuda_us, cuda_total_us;
	int64_t nulls;
};

/* Writes n records of v into out, which holds n * AMD_OP_BYTES bytes. A
 * value of 0 is stored as +0 (SQLite gave -0.0 back as 0). */
void amd_op_pack(const struct amd_packed_op *v, size_t n, unsigned char *out);

/* The records of a blob of len bytes into out[0..n), n = len /
 * AMD_OP_BYTES; what names the blob in a message (a length not a
 * multiple of AMD_OP_BYTES). */
int amd_op_unpack(const void *blob, size_t len, const char *what, struct amd_packed_op *out,
		  struct amd_err *err);

#endif
