/* fuzz_metric_blob.c — the packed metric series reader (lib/store/packed/
 * metric_pack.h) on any bytes: a store is a file a user may hand over,
 * so a metric_series blob can hold anything. amd_metric_unpack must
 * refuse a length that is not whole points with one line, and what it
 * accepts must pack back to the same bytes (the layout loses nothing:
 * NaN payloads, -0, every int64). */
#include "fuzz.h"
#include "metric_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct amd_err err = {{0}};
	struct amd_metric_cols c;
	if (amd_metric_unpack(data, size, "fuzz", &c, &err) < 0) {
		if (size % AMD_METRIC_POINT_BYTES == 0 || strchr(err.msg, '\n'))
			abort(); /* refused whole points, or a message of two lines */
		return 0;
	}
	if (c.n * AMD_METRIC_POINT_BYTES != size)
		abort();
	unsigned char *back = malloc(size + 1);
	if (!back)
		abort();
	amd_metric_pack(&c, back);
	if (size && memcmp(back, data, size) != 0)
		abort();
	free(back);
	amd_metric_cols_free(&c);
	return 0;
}
