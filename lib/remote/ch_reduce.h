/* ch_reduce.h — reductions a read of a ClickHouse store has the server
 * compute, so that only their results cross the network (issue 37,
 * "queries on the server"). Each is exact: what it leaves on the server
 * is what no query of the reader that asks for it reads. */
#ifndef AMD_CH_REDUCE_H
#define AMD_CH_REDUCE_H

#include "err.h"

/* In *out (malloc'd), a condition (ClickHouse SQL) on metric_point's
 * rows of the attempts in (a SELECT of attempt ids): the rows at the
 * first step of each source, run and key — one point per series (more
 * where that step repeats). The set of (source, run, key) is the whole
 * read's: `runs` counts the keys a run logged (metric_series) and
 * `runs --sources` lists the sources that hold them; neither reads a
 * value or a step. */
int amd_ch_key_sets_cond(const char *in, char **out, struct amd_err *err);

#endif
