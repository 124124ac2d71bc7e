/* gpu_pack.c — the packed GPU sample layout (gpu_pack.h). */
#include "gpu_pack.h"

#include <string.h>

#include "le64.h"

static void put_f64(unsigned char *p, double d)
{
	uint64_t bits;
	if (d == 0)
		d = 0; /* -0.0 as +0 */
	memcpy(&bits, &d, 8);
	amd_put_le64(p, bits);
}

static double get_f64(const unsigned char *p)
{
	uint64_t bits = amd_get_le64(p);
	double d;
	memcpy(&d, &bits, 8);
	return d;
}

void amd_gpu_pack(const struct amd_gpu_sample *v, size_t n, unsigned char *out)
{
	unsigned char *col = out + 8 * n;
	for (size_t i = 0; i < n; i++) {
		const struct amd_gpu_sample *g = &v[i];
		amd_put_le64(out + 8 * i, (uint64_t)g->ts_ms);
		put_f64(col + 8 * i, g->util_pct);
		put_f64(col + 8 * (n + i), g->mem_util_pct);
		put_f64(col + 8 * (2 * n + i), g->power_w);
		put_f64(col + 8 * (3 * n + i), g->mem_used_mib);
		put_f64(col + 8 * (4 * n + i), g->temp_c);
	}
}

int amd_gpu_unpack(const void *blob, size_t len, int gpu, const char *what,
		   struct amd_gpu_sample *out, struct amd_err *err)
{
	if (len % AMD_GPU_SAMPLE_BYTES)
		return amd_fail(err, "%s: packed samples of %zu bytes, not a multiple of %d", what,
				len, AMD_GPU_SAMPLE_BYTES);
	size_t n = len / AMD_GPU_SAMPLE_BYTES;
	const unsigned char *p = blob, *col = p + 8 * n;
	for (size_t i = 0; i < n; i++) {
		struct amd_gpu_sample *g = &out[i];
		g->gpu = gpu;
		g->ts_ms = (int64_t)amd_get_le64(p + 8 * i);
		g->util_pct = get_f64(col + 8 * i);
		g->mem_util_pct = get_f64(col + 8 * (n + i));
		g->power_w = get_f64(col + 8 * (2 * n + i));
		g->mem_used_mib = get_f64(col + 8 * (3 * n + i));
		g->temp_c = get_f64(col + 8 * (4 * n + i));
	}
	return 0;
}

int64_t amd_gpu_blob_ts(const void *blob, size_t i)
{
	return (int64_t)amd_get_le64((const unsigned char *)blob + 8 * i);
}
