/* fuzz_call_blob.c — the packed caller edge reader
 * (lib/store/packed/call_pack.h) on any bytes: a store is a file a user
 * may hand over, so a region_call_pack blob can hold anything.
 * amd_call_unpack must refuse a length that is not whole records with
 * one line, and what it accepts must pack back to the same bytes (the
 * layout is seven int64 words a record and loses nothing: every key and
 * count, negative ones too, any NULL mask; no word is a double). */
#include "fuzz.h"
#include "call_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct amd_err err = {{0}};
	size_t n = size / AMD_CALL_BYTES;
	struct amd_packed_call *v = malloc((n + 1) * sizeof *v);
	unsigned char *back = malloc(size + 1);
	if (!v || !back)
		abort();
	if (amd_call_unpack(data, size, "fuzz", v, &err) < 0) {
		if (size % AMD_CALL_BYTES == 0 || strchr(err.msg, '\n'))
			abort(); /* refused whole records, or a message of two lines */
		free(v);
		free(back);
		return 0;
	}
	amd_call_pack(v, n, back);
	if (memcmp(back, data, size) != 0)
		abort(); /* no word is a double: every byte comes back */
	free(v);
	free(back);
	return 0;
}
