/* fuzz_gpu_blob.c — the packed GPU sample reader (lib/store/packed/gpu_pack.h)
 * on any bytes: a store is a file a user may hand over, so a gpu_series
 * blob can hold anything. amd_gpu_unpack must refuse a length that is
 * not whole samples with one line, and what it accepts must pack back to
 * the same bytes (the layout loses nothing: NaN payloads, every int64),
 * but for a value of -0, which packs as +0 (as SQLite gave it back). */
#include "fuzz.h"
#include "gpu_pack.h"

/* the values follow the n timestamps */
static int gpu_double(size_t at, size_t n)
{
	return at >= 8 * n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct amd_err err = {{0}};
	size_t n = size / AMD_GPU_SAMPLE_BYTES;
	struct amd_gpu_sample *v = malloc((n + 1) * sizeof *v);
	unsigned char *back = malloc(size + 1);
	if (!v || !back)
		abort();
	if (amd_gpu_unpack(data, size, 3, "fuzz", v, &err) < 0) {
		if (size % AMD_GPU_SAMPLE_BYTES == 0 || strchr(err.msg, '\n'))
			abort(); /* refused whole samples, or a message of two lines */
		free(v);
		free(back);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (v[i].gpu != 3 || v[i].ts_ms != amd_gpu_blob_ts(data, i))
			abort();
	amd_gpu_pack(v, n, back);
	fuzz_repacked_same(data, back, size, gpu_double, n);
	free(v);
	free(back);
	return 0;
}
