/* pb_arena.h — a bump allocator for protobuf-c's unpack: every message
 * of one record is carved from one block and the whole is dropped at
 * once (amd_pb_arena_reset) instead of one malloc/free per submessage,
 * string and repeated field (a TensorBoard event is ~8 of them). */
#ifndef AMD_PB_ARENA_H
#define AMD_PB_ARENA_H

#include <stddef.h>

#include <protobuf-c/protobuf-c.h>

struct amd_pb_arena {
	ProtobufCAllocator pb; /* pass &arena->pb to *__unpack */
	char *block;
	size_t used, cap;
	size_t spilled;        /* bytes asked beyond the block since the reset */
	void **big;            /* what did not fit: malloc'd, freed at reset */
	size_t nbig, capbig;
};

void amd_pb_arena_init(struct amd_pb_arena *a);
/* Frees what the last record took; the block grows to hold a record
 * that spilled, so the next one like it fits. */
void amd_pb_arena_reset(struct amd_pb_arena *a);
void amd_pb_arena_free(struct amd_pb_arena *a);

#endif
