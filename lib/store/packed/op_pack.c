/* op_pack.c — the packed operator average layout (op_pack.h). */
#include "op_pack.h"

#include <string.h>

#include "le64.h"

static uint64_t f64_bits(double d)
{
	uint64_t bits;
	if (d == 0)
		d = 0; /* -0.0 as +0 */
	memcpy(&bits, &d, 8);
	return bits;
}

static double bits_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, 8);
	return d;
}

void amd_op_pack(const struct amd_packed_op *v, size_t n, unsigned char *out)
{
	for (size_t i = 0; i < n; i++, out += AMD_OP_BYTES) {
		amd_put_le64(out, (uint64_t)v[i].name_id);
		amd_put_le64(out + 8, (uint64_t)v[i].rank);
		amd_put_le64(out + 16, (uint64_t)v[i].calls);
		amd_put_le64(out + 24, (uint64_t)v[i].role);
		amd_put_le64(out + 32, f64_bits(v[i].self_cuda_us));
		amd_put_le64(out + 40, f64_bits(v[i].cuda_total_us));
		amd_put_le64(out + 48, (uint64_t)v[i].nulls);
	}
}

int amd_op_unpack(const void *blob, size_t len, const char *what, struct amd_packed_op *out,
		  struct amd_err *err)
{
	if (len % AMD_OP_BYTES)
		return amd_fail(err, "%s: packed ops of %zu bytes, not a multiple of %d", what, len,
				AMD_OP_BYTES);
	const unsigned char *p = blob;
	for (size_t i = 0; i < len / AMD_OP_BYTES; i++, p += AMD_OP_BYTES) {
		out[i].name_id = (int64_t)amd_get_le64(p);
		out[i].rank = (int64_t)amd_get_le64(p + 8);
		out[i].calls = (int64_t)amd_get_le64(p + 16);
		out[i].role = (int64_t)amd_get_le64(p + 24);
		out[i].self_cuda_us = bits_f64(amd_get_le64(p + 32));
		out[i].cuda_total_us = bits_f64(amd_get_le64(p + 40));
		out[i].nulls = (int64_t)amd_get_le64(p + 48);
	}
	return 0;
}
