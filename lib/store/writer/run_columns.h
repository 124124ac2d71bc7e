/* run_columns.h — a run's scaling facts as columns of the run row:
 * strategy, n (world size), nodes, rank and repeat, taken from its
 * params (the first of a list of known names, matched in any case;
 * amdahl.yaml can name others under run.strategy_params, run.n_params,
 * …); a run with no world-size param takes n as nodes × workers per node
 * (run.per_node_params), else from its traces
 * (distributedInfo.world_size; a param wins over a trace). The unit writer
 * derives them for every run a unit touched, before it commits. */
#ifndef AMD_RUN_COLUMNS_H
#define AMD_RUN_COLUMNS_H

#include <stdint.h>

#include "config.h"
#include "err.h"
#include "store.h"

/* Fills the columns of run (run.id) inside the open transaction; unit
 * names the unit being written, for messages. */
int amd_run_columns_derive(struct amd_store *st, const struct amd_config *cfg, int64_t run,
			   const char *unit, struct amd_err *err);

#endif
