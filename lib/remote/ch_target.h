/* ch_target.h — the ClickHouse store as an ingest target (model/sink.h):
 * each unit is written by the SQLite writer into an in-memory staging
 * store, then shipped whole with its commit row (ch_ship.h). */
#ifndef AMD_CH_TARGET_H
#define AMD_CH_TARGET_H

#include "sink.h"
#include "store.h"

/* url must outlive the target. */
struct amd_ingest_target amd_ch_target(const char *url);

#endif
