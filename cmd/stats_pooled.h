/* stats_pooled.h — private to cmd/: stats' note on configurations that
 * pool runs of several configurations (stats_pooled.c). */
#ifndef AMD_CMD_STATS_POOLED_H
#define AMD_CMD_STATS_POOLED_H

#include <stdio.h>

struct amd_sweep_stats;

/* One "note: ..." line on out per point of s that amd_analyse marked as
 * pooling configurations (pooled_param). */
void stats_pooled_notes(const struct amd_sweep_stats *s, FILE *out);

#endif
