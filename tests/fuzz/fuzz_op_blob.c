/* fuzz_op_blob.c — the packed operator average reader
 * (lib/store/packed/op_pack.h) on any bytes: a store is a file a user may
 * hand over, so an op_average_pack blob can hold anything. amd_op_unpack
 * must refuse a length that is not whole records with one line, and what
 * it accepts must pack back to the same bytes (the layout loses nothing:
 * NaN payloads, every int64, any NULL mask), but for a self or total of
 * -0, which packs as +0 (as SQLite gave it back). */
#include "fuzz.h"
#include "op_pack.h"

/* words 4 and 5 of a record: self_cuda_us and cuda_total_us */
static int op_double(size_t at, size_t unused)
{
	(void)unused;
	size_t word = at % AMD_OP_BYTES / 8;
	return word == 4 || word == 5;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct amd_err err = {{0}};
	size_t n = size / AMD_OP_BYTES;
	struct amd_packed_op *v = malloc((n + 1) * sizeof *v);
	unsigned char *back = malloc(size + 1);
	if (!v || !back)
		abort();
	if (amd_op_unpack(data, size, "fuzz", v, &err) < 0) {
		if (size % AMD_OP_BYTES == 0 || strchr(err.msg, '\n'))
			abort(); /* refused whole records, or a message of two lines */
		free(v);
		free(back);
		return 0;
	}
	amd_op_pack(v, n, back);
	fuzz_repacked_same(data, back, size, op_double, 0);
	free(v);
	free(back);
	return 0;
}
