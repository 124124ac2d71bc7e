/* trace_innermost.h — which op is innermost on one thread at each moment,
 * kept as a step function while the thread's ops are taken in start
 * order (an op starts: it is innermost; it ends: its parent is again).
 * Calls Kineto writes in a later pass (cuda_runtime, cuda_driver) are then
 * charged to the op they ran inside, so that op's self time leaves them
 * out. Steps before the latest charged call are forgotten; steps still
 * needed beyond a few blocks go to a temporary file, so memory stays
 * bounded however far the calls lag behind the ops (issue 40 item 9: in
 * Kineto's order every CPU op comes before the first runtime call). */
#ifndef AMD_TRACE_INNERMOST_H
#define AMD_TRACE_INNERMOST_H

#include <stddef.h>
#include <stdint.h>

/* Steps are kept in blocks of AMD_INNERMOST_BLOCK steps (times and ops
 * apart: 12 bytes a step, 48 KB a block). The newest
 * AMD_INNERMOST_MEM_BLOCKS blocks are in memory; older blocks still
 * needed are appended to a temporary file (created unlinked in TMPDIR, or
 * /tmp, only once needed) and read back through a cache of
 * AMD_INNERMOST_CACHE_BLOCKS blocks. A block whose steps are all
 * forgotten is reused; once every block in the file is forgotten the file
 * is emptied. Beyond the blocks, memory holds 16 bytes a block (its first
 * time, for the search) for blocks not yet forgotten. */
#define AMD_INNERMOST_BLOCK 4096
#define AMD_INNERMOST_MEM_BLOCKS 16
#define AMD_INNERMOST_CACHE_BLOCKS 4
#define AMD_INNERMOST_CACHE_MAX 16

struct amd_innermost_slot;

struct amd_innermost {
	/* limits, 0 for the defaults above (tests set small ones) */
	size_t block_steps, mem_blocks, cache_blocks;
	struct amd_innermost_slot *slots; /* blocks base .. n_blocks - 1 */
	size_t n_blocks, cap_slots, base;
	size_t mem_base;  /* blocks from mem_base on are in memory, the older ones in the file */
	size_t file_base; /* the block at the file's offset 0 */
	unsigned char *spare; /* one forgotten block, for reuse */
	struct { size_t id; unsigned char *buf; } cache[AMD_INNERMOST_CACHE_MAX];
	size_t n_cache, next_victim;
	int has_file, fd;
	size_t n, from; /* steps from..n-1 are still needed */
	int sys_errno;  /* set when -1 came from the file, not from memory */
	char why[256];  /* then: what failed, one line */
};

/* From time t on, op (index + 1, 0 for none) is innermost. A t before the
 * last step's is taken as the last step's. -1 when out of memory, or
 * when the temporary file cannot be written (why and sys_errno set). */
int amd_innermost_set(struct amd_innermost *m, int64_t t, uint32_t op);

/* Calls charge(ctx, op index, ns) for each op innermost during part of
 * [start, end), with the length of that part. Calls must come in start
 * order: steps before start are forgotten. -1 when the temporary file
 * cannot be read (why and sys_errno set) or memory runs out. */
typedef void amd_innermost_charge_fn(void *ctx, uint32_t op, int64_t ns);
int amd_innermost_charge(struct amd_innermost *m, int64_t start, int64_t end,
			 amd_innermost_charge_fn *charge, void *ctx);

/* Blocks of steps held in memory now (newest blocks, cache, spare). */
size_t amd_innermost_blocks_held(const struct amd_innermost *m);

/* Blocks written to the temporary file so far and not yet forgotten. */
size_t amd_innermost_blocks_spilled(const struct amd_innermost *m);

void amd_innermost_free(struct amd_innermost *m);

#endif
