/* sweep_facts.c — values, extents and counts over a sweep's points
 * (see sweep_facts.h). */
#include "sweep_facts.h"

#include <math.h>
#include <stdlib.h>

double amd_point_value(const struct amd_point_stats *p, enum amd_point_value v)
{
	switch (v) {
	case AMD_PV_MEDIAN: return p->median;
	case AMD_PV_SPEEDUP: return p->speedup;
	case AMD_PV_EFFICIENCY: return p->efficiency;
	case AMD_PV_THROUGHPUT: return p->throughput;
	case AMD_PV_UTIL: return p->util_pct;
	case AMD_PV_ENERGY_EPOCH: return p->energy_epoch_j;
	case AMD_PV_ENERGY_SOLUTION: return p->energy_solution_j;
	case AMD_PV_ENERGY_SAMPLE: return p->energy_per_sample_j;
	case AMD_PV_COMP_FRACTION: return p->comp_fraction;
	case AMD_PV_COMM_SHARE: return p->has_trace ? p->comm_share : NAN;
	}
	return NAN;
}

const struct amd_ci *amd_point_ci(const struct amd_point_stats *p, enum amd_point_value v)
{
	switch (v) {
	case AMD_PV_MEDIAN: return &p->ci;
	case AMD_PV_SPEEDUP: return &p->ci_speedup;
	case AMD_PV_EFFICIENCY: return &p->ci_efficiency;
	case AMD_PV_ENERGY_EPOCH: return &p->ci_energy_epoch;
	case AMD_PV_ENERGY_SOLUTION: return &p->ci_energy_solution;
	case AMD_PV_ENERGY_SAMPLE: return &p->ci_energy_sample;
	default: return NULL;
	}
}

int amd_sweep_any(const struct amd_sweep_stats *s, enum amd_point_value v)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			if (isfinite(amd_point_value(&s->strategies[i].points[k], v)))
				return 1;
	return 0;
}

double amd_sweep_max(const struct amd_sweep_stats *s, enum amd_point_value v)
{
	double m = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			double x = amd_point_value(&s->strategies[i].points[k], v);
			if (isfinite(x) && x > m)
				m = x;
		}
	return m;
}

size_t amd_sweep_axis_extent(const struct amd_sweep_stats *s, double *lo, double *hi)
{
	size_t points = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			double n = s->strategies[i].points[k].n;
			*lo = fmin(*lo, n);
			*hi = fmax(*hi, n);
			points++;
		}
	return points;
}

/* Ascending, in place (few values; an insertion sort keeps any NAN
 * where it was). */
static void sort_values(double *xs, size_t n)
{
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && xs[b - 1] > xs[b]; b--) {
			double t = xs[b];
			xs[b] = xs[b - 1];
			xs[b - 1] = t;
		}
}

int amd_sweep_axis_values(const struct amd_sweep_stats *s, double **xs, size_t *n)
{
	size_t cap = 1;
	for (size_t i = 0; i < s->nstrategies; i++)
		cap += s->strategies[i].npoints;
	*n = 0;
	*xs = malloc(cap * sizeof **xs);
	if (!*xs)
		return -1;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			double x = s->strategies[i].points[k].n;
			size_t j = 0;
			while (j < *n && (*xs)[j] != x)
				j++;
			if (j == *n)
				(*xs)[(*n)++] = x;
		}
	sort_values(*xs, *n);
	return 0;
}

void amd_sweep_runs_range(const struct amd_sweep_stats *s, size_t *lo, size_t *hi)
{
	*lo = (size_t)-1;
	*hi = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			size_t r = s->strategies[i].points[k].nruns;
			*lo = r < *lo ? r : *lo;
			*hi = r > *hi ? r : *hi;
		}
}

size_t amd_sweep_ci_count(const struct amd_sweep_stats *s, enum amd_point_value v,
			  size_t *total)
{
	size_t valid = 0;
	int ratio = v == AMD_PV_SPEEDUP || v == AMD_PV_EFFICIENCY; /* none at the base */
	*total = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			const struct amd_ci *ci = amd_point_ci(p, v);
			if (!ci || (ratio && p->n == s->strategies[i].base_n))
				continue;
			(*total)++;
			valid += ci->valid != 0;
		}
	return valid;
}

int amd_sweep_ci_levels(const struct amd_sweep_stats *s, enum amd_point_value v, double *lo,
			double *hi)
{
	int own = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_ci *ci = amd_point_ci(&s->strategies[i].points[k], v);
			if (!ci || !ci->valid)
				continue;
			double l = ci->level > 0 ? ci->level : s->level;
			own |= ci->level > 0 && fabs(ci->level - s->level) > 1e-9;
			*lo = l < *lo ? l : *lo;
			*hi = l > *hi ? l : *hi;
		}
	if (!(*lo <= *hi))
		*lo = *hi = s->level;
	return own;
}

int amd_sweep_scalable(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		if (s->strategies[i].npoints >= 2)
			return 1;
	return 0;
}

int amd_sweep_has_trace(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			if (s->strategies[i].points[k].has_trace)
				return 1;
	return 0;
}

int amd_sweep_has_repeats(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++)
			if (s->strategies[i].points[k].nruns >= 2)
				return 1;
	return 0;
}

size_t amd_sweep_bases(const struct amd_sweep_stats *s, double *bases, size_t max)
{
	size_t nb = 0;
	for (size_t i = 0; i < s->nstrategies && nb < max; i++) {
		double b = s->strategies[i].base_n;
		int seen = 0;
		for (size_t k = 0; k < nb; k++)
			seen |= bases[k] == b;
		if (!seen && isfinite(b) && b > 0 && s->strategies[i].npoints >= 2)
			bases[nb++] = b;
	}
	return nb;
}

double amd_sweep_phase_sum_max(const struct amd_sweep_stats *s, const int *phases, size_t np)
{
	double m = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *pt = &s->strategies[i].points[k];
			double sum = 0;
			for (size_t p = 0; pt->has_trace && p < np; p++)
				if (isfinite(pt->phase_share[phases[p]]))
					sum += pt->phase_share[phases[p]];
			m = fmax(m, sum);
		}
	return m;
}

int amd_sweep_phase_present(const struct amd_sweep_stats *s, int phase, double min_share)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *pt = &s->strategies[i].points[k];
			if (pt->has_trace && isfinite(pt->phase_share[phase]) &&
			    pt->phase_share[phase] > min_share)
				return 1;
		}
	return 0;
}
