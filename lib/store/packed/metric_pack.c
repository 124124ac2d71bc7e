/* metric_pack.c — the packed metric series layout (metric_pack.h). */
#include "metric_pack.h"

#include <stdlib.h>
#include <string.h>

#include "le64.h"

void amd_metric_pack(const struct amd_metric_cols *c, unsigned char *out)
{
	unsigned char *ts = out + 8 * c->n, *val = out + 16 * c->n;
	for (size_t i = 0; i < c->n; i++) {
		uint64_t bits;
		memcpy(&bits, &c->value[i], 8);
		amd_put_le64(out + 8 * i, (uint64_t)c->step[i]);
		amd_put_le64(ts + 8 * i, (uint64_t)c->ts_ms[i]);
		amd_put_le64(val + 8 * i, bits);
	}
}

int amd_metric_unpack(const void *blob, size_t len, const char *what,
		      struct amd_metric_cols *c, struct amd_err *err)
{
	memset(c, 0, sizeof *c);
	if (len % AMD_METRIC_POINT_BYTES)
		return amd_fail(err, "%s: packed points of %zu bytes, not a multiple of %d",
				what, len, AMD_METRIC_POINT_BYTES);
	size_t n = len / AMD_METRIC_POINT_BYTES;
	if (n == 0)
		return 0;
	c->step = malloc(n * sizeof *c->step);
	c->ts_ms = malloc(n * sizeof *c->ts_ms);
	c->value = malloc(n * sizeof *c->value);
	if (!c->step || !c->ts_ms || !c->value) {
		amd_metric_cols_free(c);
		return amd_fail(err, "%s: out of memory", what);
	}
	const unsigned char *p = blob, *ts = p + 8 * n, *val = p + 16 * n;
	for (size_t i = 0; i < n; i++) {
		uint64_t bits = amd_get_le64(val + 8 * i);
		c->step[i] = (int64_t)amd_get_le64(p + 8 * i);
		c->ts_ms[i] = (int64_t)amd_get_le64(ts + 8 * i);
		memcpy(&c->value[i], &bits, 8);
	}
	c->n = n;
	return 0;
}

void amd_metric_cols_free(struct amd_metric_cols *c)
{
	free(c->step);
	free(c->ts_ms);
	free(c->value);
	memset(c, 0, sizeof *c);
}
