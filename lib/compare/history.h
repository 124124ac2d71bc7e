/* history.h — a metric over labelled groups of runs in order (commits,
 * nightly builds): per group the runs' values, their median and interval,
 * and the change points among the group medians (changepoint.h), each
 * with the medians of the runs on either side (up to the neighbouring
 * change points), their ratio with its interval at an exact level
 * (scale_ratio.h: the step's factor, distribution-free) and the
 * permutation p of the change-point search (changepoint.h: the largest
 * divergence over every split searched, so the p accounts for the search;
 * a test of the runs on either side of a split chosen for being the most
 * different would not — 93% of false change points had a Mann–Whitney
 * p < 0.05). `amdahl history` prints it; the chart is
 * report/charts_history.c. */
#ifndef AMD_HISTORY_H
#define AMD_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "changepoint.h"
#include "significance.h"
#include "store.h"

struct amd_history_opts {
	const char *select;   /* the runs (a selector or sweep name; NULL every run) */
	const char *by;       /* the group key: tag.git_commit, param.NAME, ... */
	const char *order;    /* NULL or "start": earliest start; else a key whose
			       * value orders the groups (numbers as numbers) */
	const char *metric;   /* default epoch_time_s */
	struct amd_cp_opts cp;
	int resamples;        /* bootstrap, default 4000 */
	unsigned long seed;   /* default 20260101 */
	double level;         /* default 0.95 */
};

struct amd_history_group {
	char *label, *selector;
	char *config;          /* "ddp n=8": the group's one configuration */
	char *order;           /* the order key's value, or NULL (start time) */
	int64_t first_ms;
	size_t nruns;
	double *values;        /* the runs' values */
	double median;
	struct amd_ci ci;
};

struct amd_history_change {
	size_t group;          /* the first group after the change */
	size_t from, to;       /* groups [from, group) before, [group, to) after */
	size_t nbefore, nafter; /* runs */
	double before, after;  /* medians of the runs */
	double ratio;          /* after / before */
	struct amd_ci ci;      /* of the factor, ci.level its exact level */
	double q, p_perm;      /* the split's divergence and permutation p */
};

struct amd_history {
	char *metric, *by, *order;
	int higher_is_better;
	size_t ngroups;
	struct amd_history_group *groups;
	size_t nchanges;
	struct amd_history_change *changes;
	struct amd_cp_opts cp;  /* as applied */
	double level;           /* the intervals' level, as applied */
	size_t skipped;         /* selected runs without the group key */
};

int amd_history(struct amd_store *st, const struct amd_history_opts *o,
		struct amd_history **out, struct amd_err *err);
void amd_history_free(struct amd_history *h);

#endif
