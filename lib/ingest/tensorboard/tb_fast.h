/* tb_fast.h — the usual Event decoded without protobuf-c (tb_fast.c): a
 * wall time, a step and a summary of values that are a tag and a
 * simple_value, as PyTorch's SummaryWriter writes every scalar. */
#ifndef AMD_TB_FAST_H
#define AMD_TB_FAST_H

#include <stddef.h>

#include "tb_event.pb-c.h"

#define TB_FAST_VALUES 16      /* values of one Event, at most */
#define TB_FAST_TAGS 4096      /* bytes of their tags, NULs included */

/* The decoded Event and the memory it points into. */
struct tb_fast {
	Amdtb__Event e;
	Amdtb__Summary s;
	Amdtb__Summary__Value v[TB_FAST_VALUES];
	Amdtb__Summary__Value *pv[TB_FAST_VALUES];
	char tags[TB_FAST_TAGS];
};

/* The Event of data[0..len) in f->e, as protobuf-c's unpack gives it,
 * when it has that shape: 1. 0 for anything else (another field, a
 * field twice, a 10-byte varint, more values or tag bytes than f holds,
 * a record cut short): protobuf-c then reads it. */
int tb_fast_event(const unsigned char *data, size_t len, struct tb_fast *f);

#endif
