/* ch_seed.h — the run a unit links to, copied from the ClickHouse store
 * into the unit's staging store (ch_target.c), so the unit's facts ship
 * under that run's id instead of a placeholder's. */
#ifndef AMD_CH_SEED_H
#define AMD_CH_SEED_H

#include "err.h"
#include "store.h"

/* An amd_seed_run_fn (writer.h); ctx is the unit's struct amd_ch. */
int amd_ch_seed_run(void *ctx, struct amd_store *staging, const char *ext_id,
		    const char *name, const char *sweep, struct amd_err *err);

#endif
