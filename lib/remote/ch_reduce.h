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

/* For a read that leaves the points of some keys on the server (`stats`:
 * its metric, epoch_time_s and throughput_samples_per_s, whose values
 * the server reduces per run, amd_ch_run_values_sql): in *out
 * (malloc'd) the condition on metric_point's rows of the attempts in
 * keeping those meeting kept (the other keys read, an SQL condition) and
 * of those meeting left only the key sets (amd_ch_key_sets_cond): the
 * keys a run logged stay known to the read store. */
int amd_ch_left_keys_cond(const char *in, const char *kept, const char *left, char **out,
			  struct amd_err *err);

/* Appends to b the SELECT (JSONCompact) of metric_point's rows of the
 * attempts in meeting scope (NULL: all) of keys (the metric, epoch time,
 * throughput: their ids on the server): per run and key, the rows,
 * their distinct steps and distinct (step, time). A run whose epoch time
 * or throughput repeats a step, or whose metric repeats a step at one
 * time, is read from its points (which point a step look-up finds, and
 * the order of points at one step and time, follow the load's order);
 * the metric's points at one step are ordered by time, as
 * amd_run_metric orders them. */
int amd_ch_run_series_sql(struct amd_buf *b, const char *in, const char *scope,
			  const int64_t keys[3]);

/* Appends to b the SELECT (JSONCompact) of one row per run holding
 * points of keys[0] (as amd_ch_run_series_sql): what lib/analysis's run
 * value (analysis_run.c) computes from the run's points of the metric
 * keys[0] (in step and time order), epoch time keys[1] and throughput
 * keys[2] (each one series of distinct steps), in this order: run_id, the metric's points,
 * the steps and values (text) of those not kept (step 0 unless
 * keep_first, NaN, non-finite or ≤ 0), the kept count, their median and
 * MAD (stats.c's: the sorted values' middle one or two, midpoint
 * a + (b - a) / 2), the kept points farther than far × MAD from the
 * median (their steps' differences, the first from 0, each value's
 * number, from 1, among the list's distinct values, and those values as
 * text: a long run repeating a few values flags many), the sums of rate × t and of t over the
 * kept points whose epoch time t and rate are finite and > 0 and the
 * steps, t and rate of those where either is ≤ 0 or infinite, then the
 * same with a rate of 1: the sum of t, the count, steps and t. Floats
 * as text (toString: the shortest form that reads back to the same
 * double); sums by arraySum over the step-sorted array, which adds in
 * order as run_throughput does. */
int amd_ch_run_values_sql(struct amd_buf *b, const char *in, const char *scope,
			  const int64_t keys[3], int keep_first, double far);
