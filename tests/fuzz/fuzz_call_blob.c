/* fuzz_call_blob.c — the packed caller edge reader
 * (lib/store/packed/call_pack.h) on any bytes: a store is a file a user
 * may hand over, so a region_call_pack row can hold anything. The first
 * two bytes are the row's n (0..65535), the rest its blob.
 * amd_call_unpack must refuse what is not n edges (widths, length,
 * null bits) with one line; what it accepts must pack (the least
 * widths) and read back to the same edges, a value under a NULL bit as
 * 0, and that pack must pack again to the same bytes. */
#include "fuzz.h"
#include "call_pack.h"

/* e as packed: a NULL value as 0 */
static void stored(void *row)
{
	struct amd_packed_call *e = row;
	for (int c = AMD_CL_CALLS; c < AMD_CALL_COLUMNS; c++)
		if (e->v[AMD_CL_NULLS] & AMD_CALL_NULL(c))
			e->v[c] = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t n;
	const uint8_t *blob;
	size_t len;
	if (!fuzz_counted_blob(data, size, &n, &blob, &len))
		return 0;
	struct amd_err err = {{0}};
	size_t cap = (uint64_t)n <= len ? (size_t)n : 0;
	struct amd_packed_call *v = malloc((cap + 1) * sizeof *v), *w = malloc((cap + 1) * sizeof *w);
	if (!v || !w)
		abort();
	if (amd_call_unpack(blob, len, n, "fuzz", v, &err) < 0) {
		fuzz_refused(&err);
		free(v);
		free(w);
		return 0;
	}
	if (cap != (size_t)n)
		abort(); /* accepted more edges than the blob has bytes */
	size_t bytes = amd_call_packed_size(v, cap);
	unsigned char *back = malloc(bytes), *again = malloc(bytes);
	if (!back || !again)
		abort();
	amd_call_pack(v, cap, back);
	if (amd_call_unpack(back, bytes, n, "fuzz", w, &err) < 0)
		abort();
	fuzz_rows_same(v, w, cap, sizeof *v, stored);
	if (amd_call_packed_size(w, cap) != bytes || (amd_call_pack(w, cap, again), memcmp(back, again, bytes)))
		abort();
	free(v);
	free(w);
	free(back);
	free(again);
	return 0;
}
