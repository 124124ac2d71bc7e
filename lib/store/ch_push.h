/* ch_push.h — `amdahl push`: what a local SQLite store holds, copied
 * source by source into a ClickHouse store; idempotent. */
#ifndef AMD_CH_PUSH_H
#define AMD_CH_PUSH_H

#include <stddef.h>

#include "err.h"

struct amd_push_counts {
	size_t pushed, replaced, unchanged; /* sources */
};

/* Copies every source of the SQLite store at local (only the sources
 * of sweep when not NULL) into the ClickHouse store at url: sources the
 * target already holds with the same bytes are left alone, changed ones
 * replaced, each shipped whole with its commit row (ch_ship.h). */
int amd_ch_push(const char *local, const char *url, const char *sweep,
		struct amd_push_counts *counts, struct amd_err *err);

#endif
