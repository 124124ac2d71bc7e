/* stack_pack.h — the packed layout of py-spy stacks (issue 38, round
 * six): a source's trie nodes and its samples, stored as one row each
 * (stack_node_pack, stack_sample_pack) holding a little-endian array:
 *
 *   nodes:   n records of 3 int64: id, parent id (0: a root), frame id;
 *            ids ascending (a lookup by id is a binary search);
 *   samples: n records of 4 int64 and a float64: leaf node id,
 *            process and thread label dict ids (0: none), samples,
 *            seconds; in the order the file gave them.
 *
 * A node pack row also holds n and its least and greatest id, a sample
 * pack row n and the samples' run. The ONE pair of functions per array
 * that writes and reads the layout: the writer, the migration from
 * row-per-node stores, the ClickHouse load and the stack_node /
 * stack_sample virtual tables (stack_sql.h) all go through them. */
#ifndef AMD_STACK_PACK_H
#define AMD_STACK_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define AMD_STACK_NODE_BYTES 24
#define AMD_STACK_SAMPLE_BYTES 40

struct amd_packed_node {
	int64_t id, parent, frame; /* parent 0: a root */
};

struct amd_packed_sample {
	int64_t leaf, process, thread; /* process, thread 0: none */
	int64_t samples;
	double seconds;
};

/* Writes n nodes (or samples) of v into out, which holds n times the
 * record's bytes. */
void amd_stack_nodes_pack(const struct amd_packed_node *v, size_t n, unsigned char *out);
void amd_stack_samples_pack(const struct amd_packed_sample *v, size_t n, unsigned char *out);

/* The records of a blob of len bytes into out[0..len / bytes); what
 * names the blob in a message: a length not a multiple of the record,
 * node ids not ascending. */
int amd_stack_nodes_unpack(const void *blob, size_t len, const char *what,
			   struct amd_packed_node *out, struct amd_err *err);
int amd_stack_samples_unpack(const void *blob, size_t len, const char *what,
			     struct amd_packed_sample *out, struct amd_err *err);

/* The index of node id in v[0..n) (ascending ids), -1 when absent. */
int64_t amd_stack_node_find(const struct amd_packed_node *v, size_t n, int64_t id);

#endif
