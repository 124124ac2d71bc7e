/* highlights.c — the points findings talk about (see highlights.h). */
#include "highlights.h"

#include <math.h>

const struct amd_point_stats *amd_best_speedup(const struct amd_strategy_stats *st)
{
	const struct amd_point_stats *best = NULL;
	for (size_t k = 1; k < st->npoints; k++)
		if (isfinite(st->points[k].speedup) && (!best || st->points[k].speedup > best->speedup))
			best = &st->points[k];
	return best;
}

size_t amd_scaling_stop(const struct amd_sweep_stats *s, const struct amd_strategy_stats *st)
{
	for (size_t k = 1; k < st->npoints; k++) {
		const struct amd_point_stats *p = &st->points[k], *q = &st->points[k - 1];
		int worse = s->higher_is_better ? p->median <= q->median : p->median >= q->median;
		if (isfinite(p->median) && isfinite(q->median) && worse)
			return k;
	}
	return 0;
}

const struct amd_point_stats *amd_efficiency_below(const struct amd_strategy_stats *st,
						   double bound)
{
	for (size_t k = 1; k < st->npoints; k++)
		if (isfinite(st->points[k].efficiency) && st->points[k].efficiency < bound)
			return &st->points[k];
	return NULL;
}

void amd_throughput_extremes(const struct amd_strategy_stats *st,
			     const struct amd_point_stats **lo, const struct amd_point_stats **hi)
{
	*lo = *hi = NULL;
	for (size_t k = 0; k < st->npoints; k++) {
		const struct amd_point_stats *p = &st->points[k];
		if (!isfinite(p->throughput))
			continue;
		if (!*lo || p->throughput < (*lo)->throughput)
			*lo = p;
		if (!*hi || p->throughput > (*hi)->throughput)
			*hi = p;
	}
}

void amd_comm_span(const struct amd_strategy_stats *st, double min_share,
		   const struct amd_point_stats **first, const struct amd_point_stats **last)
{
	*first = *last = NULL;
	for (size_t k = 0; k < st->npoints; k++) {
		const struct amd_point_stats *p = &st->points[k];
		if (!p->has_trace || !isfinite(p->comm_share) || p->comm_share <= min_share)
			continue;
		if (!*first)
			*first = p;
		*last = p;
	}
}

void amd_energy_extremes(const struct amd_sweep_stats *s, struct amd_point_pick *best,
			 struct amd_point_pick *worst)
{
	*best = *worst = (struct amd_point_pick){NULL, NULL};
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (!isfinite(p->energy_per_sample_j) || p->pooled_param[0])
				continue; /* no finding from a point pooling configurations */
			if (!best->p || p->energy_per_sample_j < best->p->energy_per_sample_j)
				*best = (struct amd_point_pick){p, s->strategies[i].strategy};
			if (!worst->p || p->energy_per_sample_j > worst->p->energy_per_sample_j)
				*worst = (struct amd_point_pick){p, s->strategies[i].strategy};
		}
}

struct amd_point_pick amd_largest_spread(const struct amd_sweep_stats *s)
{
	struct amd_point_pick worst = {NULL, NULL};
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			if (p->nruns >= 2 && isfinite(p->cv) && !p->pooled_param[0] &&
			    (!worst.p || p->cv > worst.p->cv))
				worst = (struct amd_point_pick){p, s->strategies[i].strategy};
		}
	return worst;
}

size_t amd_flagged_runs(const struct amd_sweep_stats *s)
{
	size_t flagged = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			for (size_t r = 0; r < s->strategies[i].points[k].nruns; r++) {
				const char *f = s->strategies[i].points[k].runs[r].flagged;
				flagged += f && *f;
			}
	return flagged;
}
