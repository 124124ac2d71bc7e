/* ch_push.h — `amdahl push`: what a local SQLite store holds, copied
 * source by source into a ClickHouse store; idempotent. */
#ifndef AMD_CH_PUSH_H
#define AMD_CH_PUSH_H

#include "remote.h"

/* remote.h's amd_remote_push to the ClickHouse store at url (local is
 * a SQLite file): sources the target already holds with the same bytes
 * are left alone, changed ones replaced, each shipped whole with its
 * commit row (ch_ship.h). */
int amd_ch_push(const char *local, const char *url, const char *sweep,
		struct amd_push_counts *counts, struct amd_err *err);

#endif
