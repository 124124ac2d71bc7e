/* step_time.h — the step-time breakdown of a sweep, from the runtime
 * step profiler's metrics profile/train/dl_<loader>/time_<phase>_ms:
 * its data loaders (from the metric names), the groups of finished
 * runs sharing a strategy and axis value (from the run model, so they
 * exist even when the sweep has no epoch metric for the statistics),
 * and per phase, group and loader the median over the group's runs of
 * each run's median logged value; plus, per loader, the share of a step
 * spent loading data where it is largest and smallest. */
#ifndef AMD_STEP_TIME_H
#define AMD_STEP_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "err.h"
#include "store.h"

#define AMD_STEP_PHASES 4      /* data, forward, backward, optimizer */
#define AMD_STEP_MAX_LOADERS 8 /* loaders past the eighth are left out */

/* The phases' names as the metric keys spell them. */
extern const char *const amd_step_phases[AMD_STEP_PHASES];

struct amd_step_group {
	char strategy[128];
	double x;      /* the runs' axis value: n, or the axis param (NAN: unknown) */
	int64_t *runs; /* the group's run ids */
	size_t nruns;
};

struct amd_step_time {
	char loaders[AMD_STEP_MAX_LOADERS][64]; /* in metric key order */
	size_t nloaders;
	struct amd_step_group *groups; /* by strategy, then axis value */
	size_t ngroups;
	double *ms;     /* per phase, group and loader (amd_step_ms); NAN: not logged */
	int any;        /* 1 when some value is finite */
	size_t runs_lo, runs_hi; /* the fewest and most runs of a group */
};

/* The breakdown of sweep s (its name and axis) from the store. No
 * loader or no finished run leaves ngroups 0; no value logged leaves
 * any 0. -1 with err on a store error or out of memory. */
int amd_step_time(struct amd_store *st, const struct amd_sweep_stats *s,
		  struct amd_step_time *out, struct amd_err *err);
void amd_step_time_free(struct amd_step_time *t);

/* The time in ms of phase (0 … AMD_STEP_PHASES−1) for group and loader. */
double amd_step_ms(const struct amd_step_time *t, int phase, size_t group, size_t loader);

/* The data phase's share of a step (over the phases with a value), for
 * one loader: the group where it is largest and where it is smallest
 * (first of equals); hi < 0 when no group has a data time and a
 * positive step time. */
struct amd_step_share {
	long hi, lo;
	double share_hi, share_lo;
};
void amd_step_data_share(const struct amd_step_time *t, size_t loader,
			 struct amd_step_share *out);

#endif
