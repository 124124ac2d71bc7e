/* region_join.h — the in-memory half of amd_store_region_times
 * (region_times.c): region rows joined to their trace by (source, rank),
 * the operators a trace also recorded as collectives dropped, its
 * collectives of one name summed, the step added, and every row emitted
 * in the traces' order (strategy, n, repeat, run, trace) by counting, not
 * by comparing rows. Knows no SQL: region_times.c feeds it. */
#ifndef AMD_REGION_JOIN_H
#define AMD_REGION_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "hmap.h"
#include "region_times.h"

struct rj_trace {
	int64_t tid, rid, src;
	int rank, null_rank, n, rep; /* rank -1 when null_rank */
	int64_t nsteps, step_ns;     /* profiled steps and their summed duration */
	char *strategy;
	size_t order;                /* its place in the output */
};

struct rj_row {
	int64_t name_id, kind_id, self_ns;
	int has_self;
	uint32_t name, kind;         /* indices into names */
	size_t trace;                /* index into the traces */
};

struct rj_name {
	int64_t id;
	char *s;
};

struct rj {
	struct rj_trace *tr;
	size_t ntr;
	size_t *by_key;              /* trace indices by (src, null_rank, rank) */
	size_t last_lo, last_hi;     /* the last lookup's matches in by_key */
	int64_t last_src;
	int last_null, last_rank, has_last;
	struct rj_row *rows;
	size_t nrows, cap;
	struct rj_name *names;       /* every name and kind id, as met */
	size_t nnames, cap_names;
	struct amd_hmap names_ix;    /* names by id */
	int64_t coll_kind;           /* the dict id of kind "collective" (0: none) */
};

void rj_init(struct rj *j);
void rj_free(struct rj *j);
/* After the traces are in: their lookup and output order. */
int rj_index(struct rj *j);
/* Room for rows region rows (a bound: fewer is fine, more grow); their
 * memory asked for as huge pages. -1 out of memory. */
int rj_reserve(struct rj *j, size_t rows);
/* One region row of (source src, rank) — every trace of that key gets
 * it; its name and kind ids join names[] (s NULL) when new. */
int rj_add(struct rj *j, int64_t src, int null_rank, int rank, const struct rj_row *r);
/* After names[].s are filled (the dict's strings of names[].id): the
 * rows of region_times.h in *out, one allocation with their strings. */
int rj_emit(struct rj *j, struct amd_region_time **out, size_t *n);

#endif
