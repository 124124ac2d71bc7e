/* pb_arena.c — the bump allocator of pb_arena.h. Allocations are 16-byte
 * aligned (as malloc's); one that does not fit the block is malloc'd and
 * listed; free is a no-op, the reset frees everything. Out of memory is
 * NULL, which protobuf-c's unpack reports as a failed unpack. */
#include "pb_arena.h"

#include <stdint.h>
#include <stdlib.h>

#include "buf.h"

#define ARENA_FIRST (64u << 10)
#define ARENA_MAX (64u << 20) /* the block stops growing here */

static void *spill(struct amd_pb_arena *a, size_t size)
{
	if (amd_grow(&a->big, a->nbig, &a->capbig, sizeof *a->big, 8) < 0)
		return NULL;
	void *p = malloc(size);
	if (p) {
		a->big[a->nbig++] = p;
		a->spilled += size;
	}
	return p;
}

static void *arena_alloc(void *data, size_t size)
{
	struct amd_pb_arena *a = data;
	size_t need = size ? (size + 15) & ~(size_t)15 : 16;
	if (need < size)
		return NULL;
	if (a->block && need <= a->cap - a->used) {
		void *p = a->block + a->used;
		a->used += need;
		return p;
	}
	return spill(a, need);
}

static void arena_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

void amd_pb_arena_init(struct amd_pb_arena *a)
{
	*a = (struct amd_pb_arena){.pb = {arena_alloc, arena_free, NULL}};
	a->pb.allocator_data = a;
}

void amd_pb_arena_reset(struct amd_pb_arena *a)
{
	for (size_t i = 0; i < a->nbig; i++)
		free(a->big[i]);
	size_t want = a->used + a->spilled;
	a->nbig = 0;
	a->used = 0;
	a->spilled = 0;
	if (want <= a->cap || a->cap >= ARENA_MAX)
		return;
	size_t cap = a->cap ? a->cap : ARENA_FIRST;
	while (cap < want && cap < ARENA_MAX)
		cap *= 2;
	char *b = malloc(cap);
	if (!b)
		return; /* keep the old block; big records keep spilling */
	free(a->block);
	a->block = b;
	a->cap = cap;
}

void amd_pb_arena_free(struct amd_pb_arena *a)
{
	for (size_t i = 0; i < a->nbig; i++)
		free(a->big[i]);
	free(a->block);
	free(a->big);
	amd_pb_arena_init(a);
}
