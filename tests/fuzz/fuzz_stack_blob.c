/* fuzz_stack_blob.c — the packed py-spy stack readers
 * (lib/store/packed/stack_pack.h) on any bytes: a store is a file a user
 * may hand over, so a stack_node_pack or stack_sample_pack blob can hold
 * anything. The first byte picks the reader (even: nodes, odd: samples),
 * the rest is the blob. A refusal is one line, and only for a length
 * that is not whole records or (nodes) ids not ascending; what is
 * accepted packs back to the same bytes, but for seconds of -0, which
 * pack as +0 (as SQLite gave them back); a node found by id is the one
 * holding it. */
#include "fuzz.h"
#include "le64.h"
#include "stack_pack.h"

/* a sample's seconds, at byte 32 of its record */
static int sample_seconds(size_t at, size_t unused)
{
	(void)unused;
	return at % AMD_STACK_SAMPLE_BYTES == 32;
}

static void check_nodes(const uint8_t *data, size_t size)
{
	struct amd_err err = {{0}};
	size_t n = size / AMD_STACK_NODE_BYTES;
	struct amd_packed_node *v = malloc((n + 1) * sizeof *v);
	unsigned char *back = malloc(size + 1);
	if (!v || !back)
		abort();
	if (amd_stack_nodes_unpack(data, size, "fuzz", v, &err) < 0) {
		if (strchr(err.msg, '\n') || !err.msg[0])
			abort();
		int ascending = size % AMD_STACK_NODE_BYTES == 0;
		for (size_t i = 1; ascending && i < n; i++) /* ids read here, not by the reader */
			ascending = (int64_t)amd_get_le64(data + i * AMD_STACK_NODE_BYTES) >
				    (int64_t)amd_get_le64(data + (i - 1) * AMD_STACK_NODE_BYTES);
		if (ascending)
			abort(); /* refused whole records with ascending ids */
	} else {
		if (size % AMD_STACK_NODE_BYTES)
			abort();
		amd_stack_nodes_pack(v, n, back);
		if (memcmp(back, data, size) != 0)
			abort();
		for (size_t i = 0; i < n; i++)
			if ((i && v[i].id <= v[i - 1].id) || amd_stack_node_find(v, n, v[i].id) != (int64_t)i)
				abort();
	}
	free(v);
	free(back);
}

static void check_samples(const uint8_t *data, size_t size)
{
	struct amd_err err = {{0}};
	size_t n = size / AMD_STACK_SAMPLE_BYTES;
	struct amd_packed_sample *v = malloc((n + 1) * sizeof *v);
	unsigned char *back = malloc(size + 1);
	if (!v || !back)
		abort();
	if (amd_stack_samples_unpack(data, size, "fuzz", v, &err) < 0) {
		if (size % AMD_STACK_SAMPLE_BYTES == 0 || strchr(err.msg, '\n'))
			abort(); /* refused whole records, or a message of two lines */
	} else {
		amd_stack_samples_pack(v, n, back);
		fuzz_repacked_same(data, back, size, sample_seconds, 0);
	}
	free(v);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] % 2 == 0)
		check_nodes(data + 1, size - 1);
	else
		check_samples(data + 1, size - 1);
	return 0;
}
