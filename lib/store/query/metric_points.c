/* metric_points.c — step look-up in sorted metric points; see
 * metric_points.h. */
#include "metric_points.h"

#include <stddef.h>

#include "sorted_find.h"

size_t amd_points_lowest_rank(const struct amd_point *p, size_t n)
{
	size_t k = 0;
	while (k < n && p[k].rank == p[0].rank)
		k++;
	return k;
}

size_t amd_points_find_step(const struct amd_point *p, size_t n, int64_t step)
{
	return amd_sorted_find_i64(p, n, sizeof *p, offsetof(struct amd_point, step), step);
}
