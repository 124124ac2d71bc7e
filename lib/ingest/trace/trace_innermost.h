/* trace_innermost.h — which op is innermost on one thread at each moment,
 * kept as a step function while the thread's ops are taken in start
 * order (an op starts: it is innermost; it ends: its parent is again).
 * Calls Kineto writes in a later pass (cuda_runtime, cuda_driver) are then
 * charged to the op they ran inside, so that op's self time leaves them
 * out. Steps before the latest charged call are forgotten. */
#ifndef AMD_TRACE_INNERMOST_H
#define AMD_TRACE_INNERMOST_H

#include <stddef.h>
#include <stdint.h>

/* Steps are kept in blocks of AMD_INNERMOST_BLOCK (times and ops apart:
 * 12 bytes a step); a block whose steps are all forgotten is reused, so
 * memory follows the steps still needed, with no copying as they come. */
#define AMD_INNERMOST_BLOCK 4096

struct amd_innermost_block;

struct amd_innermost {
	struct amd_innermost_block **blocks; /* blocks[i] holds steps from (base + i) * BLOCK */
	size_t n_blocks, cap_blocks, base;
	struct amd_innermost_block *spare;   /* one forgotten block, for reuse */
	size_t n, from;                      /* steps from..n-1 are still needed */
};

/* From time t on, op (index + 1, 0 for none) is innermost. A t before the
 * last step's is taken as the last step's. -1 when out of memory. */
int amd_innermost_set(struct amd_innermost *m, int64_t t, uint32_t op);

/* Calls charge(ctx, op index, ns) for each op innermost during part of
 * [start, end), with the length of that part. Calls must come in start
 * order: steps before start are forgotten. */
typedef void amd_innermost_charge_fn(void *ctx, uint32_t op, int64_t ns);
void amd_innermost_charge(struct amd_innermost *m, int64_t start, int64_t end,
			  amd_innermost_charge_fn *charge, void *ctx);

void amd_innermost_free(struct amd_innermost *m);

#endif
