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
#include "store.h"

struct rj_trace {
	int64_t tid, rid, src;
	int rank, null_rank, n, rep; /* rank -1 when null_rank */
	int64_t nsteps, step_ns;     /* profiled steps and their summed duration */
	char *strategy;
	size_t order;                /* its place in the output */
};

/* A region row as read. */
struct rj_in {
	int64_t name_id, kind_id, self_ns;
	int has_self;
};

/* A region row joined to one trace (millions: kept small, 16 bytes —
 * the kernel zeroes every page of them; its name, kind and region are
 * its pair's). */
struct rj_row {
	int64_t self_ns;
	uint32_t pair;               /* index into pairs */
	unsigned trace : 29;         /* index into the traces (rj_index: < 2^29) */
	unsigned has_self : 1, coll : 1; /* coll: of kind "collective" */
	unsigned counts : 1;         /* rj_emit's: an operator row that counts */
};

/* A (name, kind) pair of dict ids as met: its names and region (a
 * collective's: rj_emit's, of kind RJ_KIND_COLL). */
struct rj_pair {
	int64_t name_id, kind_id;
	uint32_t name, kind, group;
};

/* A region as the scaling model groups them: a kind and a name. Kind
 * RJ_KIND_COLL is a trace's summed collectives of one name, RJ_KIND_STEP
 * its step; else kind - RJ_KIND_DICT is an index into names. */
enum { RJ_KIND_COLL, RJ_KIND_STEP, RJ_KIND_DICT };
struct rj_group {
	uint32_t kind, name;
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
	struct amd_dict_text *names;       /* every name and kind id, as met */
	size_t nnames, cap_names;
	struct amd_hmap names_ix;    /* names by id */
	uint32_t *name_rank;         /* rj_coll_of's: names[i]'s place in byte order */
	int64_t coll_kind;           /* the dict id of kind "collective" (0: none) */
	struct rj_pair *pairs;       /* every (name, kind) of the rows */
	size_t npairs, cap_pairs, last_pair;
	struct amd_hmap pairs_ix;
	struct rj_group *groups;     /* every region, as met */
	size_t ngroups, cap_groups;
	struct amd_hmap groups_ix;
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
int rj_add(struct rj *j, int64_t src, int null_rank, int rank, const struct rj_in *r);
/* The index of region (kind, name) in groups, added when new; -1 out
 * of memory. */
int64_t rj_group(struct rj *j, uint32_t kind, uint32_t name);
/* A trace's collectives of one name: by trace, then name's text (qsort
 * order of an array of row pointers, of the rows of j, set by rj_coll_of
 * first on the same thread — after names[].s are filled: qsort has no
 * context argument). rj_coll_of: -1 out of memory. */
int rj_coll_of(struct rj *j);
int rj_cmp_coll(const void *a, const void *b);
/* After names[].s are filled (the dict's strings of names[].id): the
 * rows and traces of region_times.h (amd_store_region_set) in *s, the
 * rows one allocation with their strings (region_walk.c). */
int rj_emit(struct rj *j, size_t per_run_above, struct amd_region_set *s);

/* A region scan shared with a sweep's region list (regions.c's sweep_top,
 * regions.h's amd_region_share; these four are region_times.c's): the
 * rows of sweep `sweep`'s traces joined while that scan reads them, kept
 * in the caller's share until amd_store_region_set of the same sweep
 * takes them. */
struct rj_stash {
	struct rj j;
	int64_t step, coll; /* the dict ids of kinds step and collective (0: none) */
	char *sweep;
};

/* regions.h's amd_region_share: the stash of its scan, NULL before the
 * scan; kept until the share is freed (every region set of its sweep
 * reads it). */
struct amd_region_share {
	struct rj_stash *stash;
};
/* A stash for sweep (its traces loaded) in *out, NULL when the sweep's
 * region times would not be read as one sweep's (a selector); -1 failed
 * (err set). */
int rj_stash_begin(struct amd_store *st, const char *sweep, struct rj_stash **out,
		   struct amd_err *err);
/* One row of the table as region_times.c's scan would give it (kept
 * only when that scan's WHERE would keep it); -1 out of memory. */
int rj_stash_row(struct rj_stash *s, int64_t src, int null_rank, int rank, int64_t name_id,
		 int64_t kind_id, int64_t self_ns, int has_self);
/* After the scan: the names read, the stash kept in sh (freed when it
 * fails, err set). */
int rj_stash_end(struct amd_store *st, struct rj_stash *s, struct amd_region_share *sh,
		 struct amd_err *err);
void rj_stash_free(struct rj_stash *s);

#endif
