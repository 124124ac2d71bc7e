/* stats_pooled.h — private to cmd/: stats' note on configurations that
 * pool runs of several configurations (stats_pooled.c). */
#ifndef AMD_CMD_STATS_POOLED_H
#define AMD_CMD_STATS_POOLED_H

#include <stdio.h>

struct amd_store;

/* One "note: ..." line on out per configuration (strategy, world size)
 * of sweep whose runs carry several run names that differ in a param
 * constant within each name; -1 on a store error or out of memory. */
int stats_pooled_notes(struct amd_store *st, const char *sweep, FILE *out);

#endif
