/* pooled.h — private to lib/analysis: marking the points of a sweep's
 * statistics that pool runs of several configurations (pooled.c). */
#ifndef AMD_ANALYSIS_POOLED_H
#define AMD_ANALYSIS_POOLED_H

#include "analysis.h"
#include "err.h"
#include "store.h"

/* Sets pooled_param, pooled_values and pooled_names of every point of s
 * whose runs carry several run names that differ in a param constant
 * within each name and not the runs' repeat index (global_batch_size on a
 * batch-size sweep at one world size): its median, spread and energy mix
 * unlike runs. -1 on a store error or out of memory. */
int amd_sweep_mark_pooled(struct amd_store *st, struct amd_sweep_stats *s, struct amd_err *err);

#endif
