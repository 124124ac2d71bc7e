/* ch_target.h — the ClickHouse store as an ingest target (model/sink.h):
 * each unit is written by the SQLite writer into an in-memory staging
 * store, then shipped whole with its commit row (ch_ship.h). */
#ifndef AMD_CH_TARGET_H
#define AMD_CH_TARGET_H

#include "sink.h"
#include "store.h"

/* url must outlive the target. */
struct amd_ingest_target amd_ch_target(const char *url);

/* Where a unit stands against the committed sources of the store at
 * url's connection ch (enum amd_source_state, or -1); same (NULL:
 * amd_same_run_folder) tells whether another path holding its bytes
 * puts them in the unit's run. */
struct amd_ch;
int amd_ch_source_state(struct amd_ch *ch, const char *path, const char *sha,
			amd_same_run_fn *same, struct amd_err *err);

#endif
