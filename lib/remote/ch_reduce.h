/* ch_reduce.h — reductions a read of a ClickHouse store has the server
 * compute, so that only their results cross the network (issue 37,
 * "queries on the server"). Each is exact: what it leaves on the server
 * is what no query of the reader that asks for it reads. */
#ifndef AMD_CH_REDUCE_H
#define AMD_CH_REDUCE_H

#include <stdint.h>

#include "err.h"

/* In *out (malloc'd), a condition (ClickHouse SQL) on metric_point's
 * rows of the attempts in (a SELECT of attempt ids): the rows at the
 * first step of each source, run and key — one point per series (more
 * where that step repeats). The set of (source, run, key) is the whole
 * read's: `runs` counts the keys a run logged (metric_series) and
 * `runs --sources` lists the sources that hold them; neither reads a
 * value or a step. */
int amd_ch_key_sets_cond(const char *in, char **out, struct amd_err *err);

/* Appends to b the SELECT (JSONCompact) of the region rows of the
 * attempts in meeting cond (an SQL condition, or NULL) with a run, of
 * kind kind_chid and profiler prof_chid (their ids on the server; 0:
 * any): per (run, profiler, kind, name, file, line), the sums of calls,
 * prim_calls, self_ns, total_ns and bytes — NULL where every row's is
 * (SQLite's sum()). What `regions SWEEP` reads of the rows
 * (regions.c's sweep_top sums them per configuration and counts each
 * run once): integers, so summed in any order they are the same. One
 * row per run and region instead of one per trace (rank) and region. */
struct amd_buf;
int amd_ch_region_sums_sql(struct amd_buf *b, const char *in, const char *cond,
			   int64_t kind_chid, int64_t prof_chid);

#endif
