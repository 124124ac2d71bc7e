/* explain_regions.c — compute_growth per region for `amdahl explain`
 * (explain_int.h): which regions' work does not shrink as 1/n, from the
 * region models of `amdahl scaling` (scaling.h). For a compute region
 * (an operator's self time or a kernel) with per-rank model f(n), its
 * rank-seconds per step above the ideal at n against the base n0 are
 * n·f(n) − n0·f(n0) (0 when the work shrinks exactly as 1/n); over the
 * point's rank-time R they are its share of the lost efficiency. The
 * regions' shares need not add up to compute_growth: that one comes
 * from the traces' phases (docs/explain.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain_int.h"
#include "scaling.h"

/* Compute regions: operators' self time and GPU kernels (not
 * collectives, annotations or the step, which nest or are communication;
 * nor NCCL's kernels, which an Nsight export lists as kernels). */
static int is_compute(const char *kind, const char *name)
{
	return kind && (strcmp(kind, "op") == 0 || strcmp(kind, "kernel") == 0)
	       && strncasecmp(name, "nccl", 4) != 0;
}

static int cmp_region(const void *x, const void *y)
{
	const struct amd_explain_region *a = x, *b = y;
	if (a->seconds != b->seconds)
		return a->seconds < b->seconds ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* The growing regions of p from the strategy's models; -1 out of memory. */
static int point_regions(struct amd_explain_point *p, int base_n, const struct amd_scaling_strategy *ss)
{
	double R = p->step_s * p->n;
	p->regions = calloc(ss->nregions ? ss->nregions : 1, sizeof *p->regions);
	if (!p->regions)
		return -1;
	for (size_t i = 0; i < ss->nregions; i++) {
		const struct amd_region_model *m = &ss->regions[i];
		if (!is_compute(m->kind, m->name))
			continue;
		double g = p->n * amd_rfit_value(&m->fit, p->n) - base_n * amd_rfit_value(&m->fit, base_n);
		if (!(g > 0) || !(R > 0))
			continue;
		struct amd_explain_region *r = &p->regions[p->nregions++];
		snprintf(r->name, sizeof r->name, "%s", m->name);
		snprintf(r->kind, sizeof r->kind, "%s", m->kind);
		amd_rfit_model_text(&m->fit, r->model, sizeof r->model);
		r->growth = m->growth;
		r->seconds = g;
		r->share = g / R;
	}
	qsort(p->regions, p->nregions, sizeof *p->regions, cmp_region);
	if (p->nregions > AMD_EXPLAIN_MAX_REGIONS)
		p->nregions = AMD_EXPLAIN_MAX_REGIONS;
	return 0;
}

int expl_growth_regions(struct amd_store *st, struct amd_explain *e,
			const struct amd_explain_opts *eo)
{
	struct amd_scaling_opts o = {.sweep = e->sweep, .strategy = eo->strategy, .resamples = 0,
				     .level = e->level, .analysis = eo->analysis,
				     .share = eo->share};
	const struct amd_scaling *had = eo->scaling;
	struct amd_scaling *sc = NULL;
	struct amd_err err;
	if (had && (!had->sweep || !e->sweep || strcmp(had->sweep, e->sweep) != 0 || had->axis))
		had = NULL; /* not this sweep's models: fitted here */
	if (!had && amd_scaling(st, &o, &sc, &err) < 0)
		return 0; /* no models (no regions, one n): no split */
	const struct amd_scaling *use = had ? had : sc; /* had: read only, not freed here */
	int rc = 0;
	for (size_t i = 0; i < e->nstrategies && rc == 0; i++) {
		struct amd_explain_strategy *s = &e->strategies[i];
		for (size_t j = 0; j < use->nstrategies && rc == 0; j++) {
			if (strcmp(s->strategy, use->strategies[j].strategy) != 0 || use->strategies[j].nn < 2)
				continue;
			for (size_t k = 0; k < s->npoints && rc == 0; k++)
				if (s->points[k].n != s->base_n)
					rc = point_regions(&s->points[k], s->base_n, &use->strategies[j]);
		}
	}
	amd_scaling_free(sc);
	return rc;
}
