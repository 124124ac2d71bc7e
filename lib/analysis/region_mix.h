/* region_mix.h — where a sweep's time goes, per configuration: the
 * shares of the top regions (store regions.h) of the sweep's dominant
 * profiler and kind — the pair with the most self time, phases and
 * devices aside — in each configuration's self time, the rest as
 * "other". The report's stacked share chart draws it. */
#ifndef AMD_REGION_MIX_H
#define AMD_REGION_MIX_H

#include <stddef.h>

#include "err.h"
#include "regions.h"
#include "store.h"

struct amd_region_mix {
	char *profiler, *kind;  /* NULL when the sweep has no regions */
	size_t ngroups;         /* configurations, by strategy and n */
	char **strategy;        /* NULL entries: unknown */
	int *n;                 /* -1: unknown */
	size_t nnames;          /* the top regions, then "other" last */
	char **names;
	double *share;          /* ngroups × nnames, fractions of the group's self time */
	struct amd_region_list all; /* the sweep's regions it comes from (amd_regions_top, no
				       filter): narrow with amd_region_list_pick, no second scan */
};

/* The mix of sweep (by name) with up to top regions by mean share.
 * share: NULL, or a scan to share with the sweep's region times read
 * next (regions.h's amd_region_share). */
int amd_region_mix(struct amd_store *st, const char *sweep, size_t top,
		   struct amd_region_share *share, struct amd_region_mix *out,
		   struct amd_err *err);
void amd_region_mix_free(struct amd_region_mix *m);

#endif
