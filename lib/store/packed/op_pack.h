/* op_pack.h — the packed layout of operator averages (issue 38, rounds
 * thirteen and fifteen): a stretch of a unit's op_average rows sharing a
 * source and a run (at most AMD_OP_CHUNK), in the order the reader gave
 * them, are one op_average_pack row (source_id, run_id, n, ops), the
 * blob a little-endian column array as call_pack.h's (col_pack.h):
 *
 *   AMD_OP_COLUMNS width bytes (0, 1, 2, 4 or 8), one per integer
 *   column, then each integer column's n signed values of its width,
 *   column after column: the mask (AMD_OP_NULL_* and AMD_OP_ZERO_*;
 *   always of width 1, so that every row takes a byte at least),
 *   name_id, rank, calls, role (a NULL value stored as 0); then the
 *   IEEE-754 float64 bits of self_cuda_us for each row whose
 *   AMD_OP_ZERO_SELF bit is clear, then those of cuda_total_us for each
 *   row whose AMD_OP_ZERO_TOTAL bit is clear.
 *
 * A value that is 0 or NULL takes no bytes: the CSVs' times are sums of
 * doubles (45709.0960000011), not a whole number of ns, so they keep
 * their 8 bytes, and 4 in 10 of them are 0. An itwinai row is ~17 bytes,
 * not the 56 of schema 16's fixed records (amd_op_from_records reads
 * those, for migration 17; a column array of n rows is at most 5 + 49 n
 * bytes, never 56 n, so the two cannot be taken one for the other). The ONE set of functions that writes and
 * reads that layout: the writer, the migrations, the ClickHouse load and
 * the `op_average` virtual table (op_sql.h) go through them. */
#ifndef AMD_OP_PACK_H
#define AMD_OP_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Integer columns of a blob: the mask, name_id, rank, calls, role. */
#define AMD_OP_COLUMNS 5
/* Rows per pack at most: a writer starts a new pack past it. */
#define AMD_OP_CHUNK 4096
#define AMD_OP_CHUNK_SQL "4096" /* AMD_OP_CHUNK, spelled for SQL */

/* The bits of amd_packed_op.nulls: that column is NULL. */
enum { AMD_OP_NULL_RANK = 1, AMD_OP_NULL_SELF = 2, AMD_OP_NULL_TOTAL = 4,
       AMD_OP_NULL_CALLS = 8, AMD_OP_NULL_ROLE = 16, AMD_OP_NULL_ALL = 31 };
/* The blob's mask bits beyond them: that double is 0 (or NULL), stored
 * in no bytes. */
enum { AMD_OP_ZERO_SELF = 32, AMD_OP_ZERO_TOTAL = 64 };

/* One op_average row without its source and run (the pack's). */
struct amd_packed_op {
	int64_t name_id, rank, calls, role;
	double self_cuda_us, cuda_total_us;
	int64_t nulls;
};

/* The bytes amd_op_pack writes for v[0..n). */
size_t amd_op_packed_size(const struct amd_packed_op *v, size_t n);
/* Writes v[0..n) into out, which holds amd_op_packed_size bytes. A NULL
 * value is stored as 0, and a double of 0 as +0 (SQLite gave -0.0 back
 * as 0). */
void amd_op_pack(const struct amd_packed_op *v, size_t n, unsigned char *out);

/* The n rows of a blob of len bytes into out[0..n) (n as stored: a count
 * below 0 is refused); what names the blob in a message: a length that
 * is not the widths' n rows and their doubles, a width not 0/1/2/4/8, an
 * unknown mask bit, a NULL double not marked 0, a stored double of 0. */
int amd_op_unpack(const void *blob, size_t len, int64_t n, const char *what,
		  struct amd_packed_op *out, struct amd_err *err);

/* Schema 16's blob of len bytes (n records of 56 bytes: name_id, rank,
 * calls, role as int64, self_cuda_us, cuda_total_us as float64, the
 * NULL mask as int64, little-endian) into out[0..len / 56); what names
 * it in a message (a length not a multiple of 56, an unknown NULL bit). */
int amd_op_from_records(const void *blob, size_t len, const char *what,
			struct amd_packed_op *out, struct amd_err *err);
#define AMD_OP_RECORD_BYTES 56

#endif
