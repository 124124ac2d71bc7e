/* metric_points.c — step look-up in sorted metric points; see
 * metric_points.h. */
#include "metric_points.h"

size_t amd_points_lowest_rank(const struct amd_point *p, size_t n)
{
	size_t k = 0;
	while (k < n && p[k].rank == p[0].rank)
		k++;
	return k;
}

size_t amd_points_find_step(const struct amd_point *p, size_t n, int64_t step)
{
	size_t lo = 0, hi = n; /* first index with p[i].step >= step */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].step < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && p[lo].step == step ? lo : n;
}
