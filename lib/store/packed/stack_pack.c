/* stack_pack.c — the packed py-spy stack layout (stack_pack.h). */
#include "stack_pack.h"

#include <stddef.h>
#include <string.h>

#include "le64.h"
#include "sorted_find.h"

void amd_stack_nodes_pack(const struct amd_packed_node *v, size_t n, unsigned char *out)
{
	for (size_t i = 0; i < n; i++, out += AMD_STACK_NODE_BYTES) {
		amd_put_le64(out, (uint64_t)v[i].id);
		amd_put_le64(out + 8, (uint64_t)v[i].parent);
		amd_put_le64(out + 16, (uint64_t)v[i].frame);
	}
}

void amd_stack_samples_pack(const struct amd_packed_sample *v, size_t n, unsigned char *out)
{
	for (size_t i = 0; i < n; i++, out += AMD_STACK_SAMPLE_BYTES) {
		double d = v[i].seconds == 0 ? 0 : v[i].seconds; /* -0.0 as +0 */
		uint64_t bits;
		memcpy(&bits, &d, 8);
		amd_put_le64(out, (uint64_t)v[i].leaf);
		amd_put_le64(out + 8, (uint64_t)v[i].process);
		amd_put_le64(out + 16, (uint64_t)v[i].thread);
		amd_put_le64(out + 24, (uint64_t)v[i].samples);
		amd_put_le64(out + 32, bits);
	}
}

int amd_stack_nodes_unpack(const void *blob, size_t len, const char *what,
			   struct amd_packed_node *out, struct amd_err *err)
{
	if (len % AMD_STACK_NODE_BYTES)
		return amd_fail(err, "%s: packed nodes of %zu bytes, not a multiple of %d", what,
				len, AMD_STACK_NODE_BYTES);
	const unsigned char *p = blob;
	for (size_t i = 0; i < len / AMD_STACK_NODE_BYTES; i++, p += AMD_STACK_NODE_BYTES) {
		out[i].id = (int64_t)amd_get_le64(p);
		out[i].parent = (int64_t)amd_get_le64(p + 8);
		out[i].frame = (int64_t)amd_get_le64(p + 16);
		if (i && out[i].id <= out[i - 1].id)
			return amd_fail(err, "%s: node ids not ascending at node %zu", what, i);
	}
	return 0;
}

int amd_stack_samples_unpack(const void *blob, size_t len, const char *what,
			     struct amd_packed_sample *out, struct amd_err *err)
{
	if (len % AMD_STACK_SAMPLE_BYTES)
		return amd_fail(err, "%s: packed samples of %zu bytes, not a multiple of %d", what,
				len, AMD_STACK_SAMPLE_BYTES);
	const unsigned char *p = blob;
	for (size_t i = 0; i < len / AMD_STACK_SAMPLE_BYTES; i++, p += AMD_STACK_SAMPLE_BYTES) {
		uint64_t bits = amd_get_le64(p + 32);
		out[i].leaf = (int64_t)amd_get_le64(p);
		out[i].process = (int64_t)amd_get_le64(p + 8);
		out[i].thread = (int64_t)amd_get_le64(p + 16);
		out[i].samples = (int64_t)amd_get_le64(p + 24);
		memcpy(&out[i].seconds, &bits, 8);
	}
	return 0;
}

int64_t amd_stack_node_find(const struct amd_packed_node *v, size_t n, int64_t id)
{
	size_t at = amd_sorted_find_i64(v, n, sizeof *v, offsetof(struct amd_packed_node, id), id);
	return at < n ? (int64_t)at : -1;
}
