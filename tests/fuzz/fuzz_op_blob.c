/* fuzz_op_blob.c — the packed operator average reader
 * (lib/store/packed/op_pack.h) on any bytes: a store is a file a user may
 * hand over, so an op_average_pack row can hold anything. The first two
 * bytes are the row's n (0..65535), the rest its blob. amd_op_unpack
 * must refuse what is not n rows (widths, length, mask bits, a NULL or
 * 0 double stored) with one line naming the blob; what it accepts must
 * pack (the least widths) and read back to the same rows, a value under
 * a NULL bit as 0, and that pack must pack again to the same bytes.
 * Schema 16's records (amd_op_from_records) on the same bytes: refused
 * in one line, or read into rows that pack and read back the same. */
#include "fuzz.h"
#include "op_pack.h"

/* o as packed: a NULL value as 0 */
static void stored(void *row)
{
	struct amd_packed_op *o = row;
	if (o->nulls & AMD_OP_NULL_RANK)
		o->rank = 0;
	if (o->nulls & AMD_OP_NULL_CALLS)
		o->calls = 0;
	if (o->nulls & AMD_OP_NULL_ROLE)
		o->role = 0;
	if (o->nulls & AMD_OP_NULL_SELF || o->self_cuda_us == 0)
		o->self_cuda_us = 0;
	if (o->nulls & AMD_OP_NULL_TOTAL || o->cuda_total_us == 0)
		o->cuda_total_us = 0;
}

/* v[0..n) packed, read back (the same rows as stored) and packed again
 * (the same bytes) */
static void round_trip(struct amd_packed_op *v, size_t n)
{
	struct amd_err err = {{0}};
	size_t bytes = amd_op_packed_size(v, n);
	unsigned char *back = malloc(bytes), *again = malloc(bytes);
	struct amd_packed_op *w = malloc((n + 1) * sizeof *w);
	if (!back || !again || !w)
		abort();
	amd_op_pack(v, n, back);
	if (amd_op_unpack(back, bytes, (int64_t)n, "fuzz", w, &err) < 0)
		abort();
	fuzz_rows_same(v, w, n, sizeof *v, stored);
	if (amd_op_packed_size(w, n) != bytes || (amd_op_pack(w, n, again), memcmp(back, again, bytes)))
		abort();
	free(back);
	free(again);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t n;
	const uint8_t *blob;
	size_t len;
	if (!fuzz_counted_blob(data, size, &n, &blob, &len))
		return 0;
	struct amd_err err = {{0}};
	size_t cap = (uint64_t)n <= len ? (size_t)n : 0, recs = len / AMD_OP_RECORD_BYTES;
	struct amd_packed_op *v = malloc(((cap > recs ? cap : recs) + 1) * sizeof *v);
	if (!v)
		abort();
	if (amd_op_unpack(blob, len, n, "fuzz", v, &err) < 0)
		fuzz_refused(&err);
	else if (cap != (size_t)n)
		abort(); /* accepted more rows than the blob has bytes */
	else
		round_trip(v, cap);
	if (amd_op_from_records(blob, len, "fuzz", v, &err) < 0)
		fuzz_refused(&err);
	else
		round_trip(v, recs);
	free(v);
	return 0;
}
