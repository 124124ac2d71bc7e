/* call_pack.c — the packed caller edge layout (call_pack.h). */
#include "call_pack.h"

#include "le64.h"

/* A record is its struct's seven int64 fields, in order. */
_Static_assert(sizeof(struct amd_packed_call) == AMD_CALL_BYTES,
	       "struct amd_packed_call is not the record's seven words");

void amd_call_pack(const struct amd_packed_call *v, size_t n, unsigned char *out)
{
	for (size_t i = 0; i < n; i++) {
		const int64_t w[] = {v[i].caller_key, v[i].callee_key, v[i].calls,
				     v[i].prim_calls, v[i].self_ns, v[i].total_ns, v[i].nulls};
		for (size_t k = 0; k < 7; k++, out += 8)
			amd_put_le64(out, (uint64_t)w[k]);
	}
}

int amd_call_unpack(const void *blob, size_t len, const char *what, struct amd_packed_call *out,
		    struct amd_err *err)
{
	if (len % AMD_CALL_BYTES)
		return amd_fail(err, "%s: packed caller edges of %zu bytes, not a multiple of %d",
				what, len, AMD_CALL_BYTES);
	const unsigned char *p = blob;
	for (size_t i = 0; i < len / AMD_CALL_BYTES; i++) {
		int64_t w[7];
		for (size_t k = 0; k < 7; k++, p += 8)
			w[k] = (int64_t)amd_get_le64(p);
		out[i] = (struct amd_packed_call){
			.caller_key = w[0], .callee_key = w[1], .calls = w[2], .prim_calls = w[3],
			.self_ns = w[4], .total_ns = w[5], .nulls = w[6],
		};
	}
	return 0;
}
