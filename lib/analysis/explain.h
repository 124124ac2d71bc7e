/* explain.h — where the efficiency went (`amdahl explain`, issue 34):
 * for each strategy and n of a sweep's profiler traces, the lost
 * efficiency 1 − E(n) of the traced steps split into named shares of the
 * total rank-time that add up to it exactly — data transfer at
 * collectives, waiting for late ranks, imbalance, compute that does not
 * shrink, idle time and the rest — with collectives matched across the
 * ranks of a run (name and sequence number), the ranks that arrive last
 * named by a binomial test, and intervals over repeats. The method is in
 * docs/explain.md; the JSON in explain_json.h. */
#ifndef AMD_EXPLAIN_H
#define AMD_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"
#include "table.h"

struct amd_sweep_stats;
struct amd_region_share;
struct amd_scaling;
struct amd_coll_set;

struct amd_explain_opts {
	const char *sweep;    /* a sweep or a selector; NULL: the only sweep */
	const char *strategy; /* NULL: every strategy */
	double level;         /* interval level (default 0.95) */
	double alpha;         /* straggler test level after Holm (default 0.01) */
	/* the sweep's statistics when the caller has them (a report): used
	 * where they are what explain reads (amd_analysis_is), else computed */
	const struct amd_sweep_stats *analysis;
	/* NULL, or the region table's scan the caller shares (regions.h) */
	struct amd_region_share *share;
	/* NULL, or the sweep's region models when the caller has them (a
	 * report's limits charts): amd_scaling of the same sweep with no
	 * strategy, kind, axis or target, any resamples (the region split
	 * reads only the point fits, which the bootstrap does not change) */
	const struct amd_scaling *scaling;
	/* NULL, or the sweep's collective set when the caller read it (a
	 * report, for its statistics too): amd_store_coll_set of the sweep */
	const struct amd_coll_set *colls;
};

/* The shares, in the order they are printed and summed. */
enum amd_explain_part {
	AMD_EXPLAIN_COMM,      /* transfer: from the last arrival to the end */
	AMD_EXPLAIN_WAIT,      /* waiting at collectives for the last rank */
	AMD_EXPLAIN_IMBALANCE, /* compute of a rank above the run's median rank */
	AMD_EXPLAIN_GROWTH,    /* the rest of the compute above the base's */
	AMD_EXPLAIN_IDLE,      /* neither compute nor collective */
	AMD_EXPLAIN_OTHER,     /* what the above leave (step time they do not cover) */
	AMD_EXPLAIN_NPARTS
};
extern const char *const amd_explain_part_names[AMD_EXPLAIN_NPARTS];

/* A mean over a configuration's runs with its t interval (valid with 2
 * runs or more; else lo = hi = NAN). */
struct amd_explain_value {
	double value, lo, hi;
	int has_ci;
};

/* One rank of a configuration, pooled over its runs. */
struct amd_explain_rank {
	int rank;
	int64_t last, instances;     /* collectives it arrived last at / with one last */
	struct amd_explain_value last_share;
	double wait_caused_s;        /* others' wait at its late arrivals, rank-s per step */
	double extra_work_s;         /* its gap before a collective it is last at, minus
				      * the other ranks' median gap, mean (s) */
	double p, p_holm;            /* P(last ≥ this often | every rank equally likely) */
	int straggler;               /* p_holm < alpha */
};

/* A compute region whose work does not shrink as 1/n (explain_regions.c):
 * from its `scaling` model f (per rank), n·f(n) − n0·f(n0) rank-seconds
 * per step above the base, and that over the point's rank-time. */
#define AMD_EXPLAIN_MAX_REGIONS 8
struct amd_explain_region {
	char name[128], kind[16], model[128];
	const char *growth;          /* the model's "grows", "constant", "shrinks" */
	double seconds, share;
};

struct amd_explain_point {
	int n;
	size_t runs;                 /* runs with every rank traced */
	double step_s;               /* per-step wall time, mean over ranks and runs */
	struct amd_explain_value efficiency; /* of the traced steps, against the base */
	double epoch_efficiency;     /* stats' efficiency of the epoch time (NAN: none) */
	struct amd_explain_value share[AMD_EXPLAIN_NPARTS]; /* fractions of rank-time */
	double seconds[AMD_EXPLAIN_NPARTS]; /* rank-seconds per step over the base's */
	double coll_s;               /* measured collective time, rank-s per step */
	double overlap_s;            /* of it, credited as overlapped with compute */
	double transfer_s, wait_s;   /* of it, transfer and wait (before the credit) */
	int64_t instances;           /* collective instances matched on every rank */
	char top_collective[128];    /* the collective with the most transfer */
	double clock_skew_s;         /* largest "ended before the last rank began" */
	int clock_ok;                /* 0: the traces' clocks disagree (see docs) */
	struct amd_explain_rank *ranks; /* by rank */
	size_t nranks;
	struct amd_explain_region *regions; /* compute_growth by region, largest first
					     * (growing ones only; none at the base) */
	size_t nregions;
};

struct amd_explain_strategy {
	char *strategy;
	int base_n;
	struct amd_explain_point *points; /* by increasing n */
	size_t npoints;
};

struct amd_explain {
	char *sweep;
	double level, alpha;
	struct amd_explain_strategy *strategies;
	size_t nstrategies;
	size_t runs_partial;         /* runs left out: not every rank traced */
	size_t single_n;             /* strategies with runs at one n only: their
				      * budget is against themselves (no scaling
				      * to explain); their collectives and ranks hold */
};

int amd_explain(struct amd_store *st, const struct amd_explain_opts *o, struct amd_explain **out,
		struct amd_err *err);
void amd_explain_free(struct amd_explain *e);

/* stats' "straggler ms" of one logical run: the mean spread of arrivals
 * (the last rank's start minus the first's) over its collective
 * instances seen on two ranks or more, matched by name and sequence as
 * amd_explain matches them; NAN when the run has none. */
int amd_explain_arrival_spread(struct amd_store *st, int64_t run, double *out_ns,
			       struct amd_err *err);
/* The same from set (amd_store_coll_set of the run's sweep) when it
 * holds the run's traces (a counted run's); else read as above. */
int amd_explain_arrival_spread_in(struct amd_store *st, const struct amd_coll_set *set,
				  int64_t run, double *out_ns, struct amd_err *err);

/* The budget of one strategy as a table: a row per n. NULL out of memory. */
struct amd_table *amd_explain_table(const struct amd_explain_strategy *s);
/* The point's budget in sentences into buf ("At n = 8, 35 of the 100
 * points are lost: …"). */
void amd_explain_sentences(const struct amd_explain_point *p, char *buf, size_t n);

#endif
