/* regions.h — the store's regions (lib/model/region.h): every
 * profiler's "where the time went" in one shape, read by one query
 * whatever measured it. Three questions:
 *
 *   the top regions of a run, a file or a sweep (per configuration):
 *     struct amd_region_sel sel;
 *     amd_region_resolve(st, "run-id|run-name|sweep|path", &sel, &err);
 *     struct amd_region_filter f = {.kind = "kernel", .limit = 20};
 *     struct amd_region_list l;
 *     amd_regions_top(st, &sel, &f, &l, &err); … amd_region_list_free(&l);
 *
 *   one region across the runs of a sweep (each run and rank, with the
 *   run's strategy, n and repeat: group them by configuration or by n):
 *     struct amd_region_point *p; size_t n;
 *     amd_region_across(st, sweep_id, "aten::mm", "op", "torch", &p, &n, &err);
 *
 * Numbers a profiler does not give are -1 (calls of a sampling profiler,
 * bytes of a function). See docs/design.md, "Regions". */
#ifndef AMD_STORE_REGIONS_H
#define AMD_STORE_REGIONS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

/* What the user named: one run, one ingested file, or a sweep. */
struct amd_region_sel {
	int64_t run_id, source_id, sweep_id; /* exactly one > 0, or none with runs */
	char *runs; /* a selector's logical run ids as a JSON array, else NULL */
	char label[512];
};

/* WHAT is a run's id, a sweep's name, an ingested file's path (as
 * ingested, or one resolving to it), or a run's name (the newest launch
 * of that name that has regions). Fails naming WHAT when nothing matches. */
int amd_region_resolve(struct amd_store *st, const char *what, struct amd_region_sel *sel,
		       struct amd_err *err);

/* The same, and WHAT may also be a selector (selector.h, e.g.
 * 'strategy=ddp,n>=4'): its logical runs, whose rows are per configuration
 * as a sweep's. Fails as amd_select_runs does when it picks nothing.
 * Free with amd_region_sel_free. */
int amd_region_resolve_select(struct amd_store *st, const char *what,
			      struct amd_region_sel *sel, struct amd_err *err);
void amd_region_sel_free(struct amd_region_sel *sel);
/* 1 when sel's rows are per configuration: a sweep or a selector. */
int amd_region_sel_per_config(const struct amd_region_sel *sel);

/* One read of the region table for two questions about a sweep: its
 * region list (amd_regions_top of a sweep by name, no kind or profiler
 * filter) and its region times (region_times.h's amd_store_region_set).
 * A caller that asks both, in that order and inside one read snapshot
 * (store_read.h) — the report — makes one, hands it to both and frees it
 * after: the list's scan keeps the times' half in it, and every region
 * set of the same sweep asked meanwhile (the report's limits, explain's
 * region split) reads it. The store keeps nothing between reads. */
struct amd_region_share;
/* NULL when out of memory. */
struct amd_region_share *amd_region_share_new(void);
void amd_region_share_free(struct amd_region_share *sh);

struct amd_region_filter {
	const char *kind;     /* NULL: every kind */
	const char *profiler; /* NULL: every profiler */
	size_t limit;         /* rows (per configuration for a sweep); 0: all */
	struct amd_region_share *share; /* NULL, or the scan to share (above) */
};

/* A region of a run or file (per rank and device), or of a sweep's
 * configuration (numbers: the mean per run of the sum over its ranks). */
struct amd_region_row {
	char *name, *kind, *profiler, *file; /* file NULL when unknown */
	int line;                            /* 0 when unknown */
	int rank, device;                    /* -1 unknown (always for a sweep) */
	char *strategy;                      /* sweep: the configuration; else NULL */
	int n;                               /* sweep: the configuration's n; else -1 */
	int runs;                            /* runs the numbers come from */
	int64_t calls, prim_calls, self_ns, total_ns, bytes; /* -1: not measured */
	double share; /* self_ns over the self time of every region of the same
			 profiler, kind and rank (sweep: configuration); NAN
			 when self time is not measured */
};

struct amd_region_list {
	struct amd_region_row *v;
	size_t n;     /* rows kept */
	size_t n_all; /* rows before the limit */
};

/* Regions of sel by self time, largest first (a sweep: by strategy and
 * n, then self time). */
int amd_regions_top(struct amd_store *st, const struct amd_region_sel *sel,
		    const struct amd_region_filter *f, struct amd_region_list *out,
		    struct amd_err *err);
void amd_region_list_free(struct amd_region_list *l);

/* The tables the functions of this header read, besides source (a
 * selector's runs and the runs' sources, run_sources.h, included): a
 * remote store's read for `regions` loads only these; a trace's
 * collectives, phases and memory, a region's detail and call edges and
 * the py-spy stacks stay on the server. */
extern const char *const amd_regions_tables[];
extern const size_t amd_regions_table_count;
/* 1 when two of a row's texts are equal, NULL equal only to NULL (a
 * region's file, a run's strategy may be NULL). */
int amd_region_same_text(const char *a, const char *b);

/* One region in one run and rank of a sweep. */
struct amd_region_point {
	int64_t run_id;
	char *run;      /* the run's ext id */
	char *strategy; /* NULL when unknown */
	char *kind, *profiler;
	int n, repeat, rank; /* -1 when unknown */
	int64_t calls, self_ns, total_ns, bytes; /* -1: not measured */
};

/* The region named name (of that kind and profiler; NULL: any) in
 * every run and rank of the sweep, ordered by strategy, n, repeat, rank. */
int amd_region_across(struct amd_store *st, int64_t sweep_id, const char *name,
		      const char *kind, const char *profiler, struct amd_region_point **out,
		      size_t *n, struct amd_err *err);
void amd_region_points_free(struct amd_region_point *p, size_t n);

#endif
