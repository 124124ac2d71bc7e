/* ch_reduce.c — reductions computed by the ClickHouse server for a read
 * (ch_reduce.h): the key-set condition of `runs`, the per-run region
 * sums of `regions SWEEP`. */
#include "ch_reduce.h"

#include <stdlib.h>

#include "buf.h"

int amd_ch_key_sets_cond(const char *in, char **out, struct amd_err *err)
{
	struct amd_buf b = {0};
	*out = NULL;
	if (amd_buf_printf(&b, "(src, run_id, key_id, step) IN (SELECT src, run_id, key_id,"
			   " min(step) FROM metric_point WHERE src IN (%s)"
			   " GROUP BY src, run_id, key_id)", in) < 0) {
		amd_buf_free(&b);
		return amd_fail(err, "out of memory");
	}
	*out = b.data;
	return 0;
}

/* sum(x) of the group, NULL when every x is (a Nullable column's
 * sum would be 0 there) */
#define SUM_OR_NULL(x) "if(count(" x ") = 0, NULL, sum(" x "))"

int amd_ch_region_sums_sql(struct amd_buf *b, const char *in, const char *cond,
			   int64_t kind_chid, int64_t prof_chid)
{
	int bad = amd_buf_printf(b, "SELECT run_id, profiler_id, kind_id, name_id, file_id, line, "
				 SUM_OR_NULL("calls") ", " SUM_OR_NULL("prim_calls") ", "
				 SUM_OR_NULL("self_ns") ", " SUM_OR_NULL("total_ns") ", "
				 SUM_OR_NULL("bytes") " FROM region WHERE src IN (%s)"
				 " AND isNotNull(run_id)", in) < 0;
	if (!bad && cond && *cond)
		bad = amd_buf_printf(b, " AND (%s)", cond) < 0;
	if (!bad && kind_chid)
		bad = amd_buf_printf(b, " AND kind_id = %lld", (long long)kind_chid) < 0;
	if (!bad && prof_chid)
		bad = amd_buf_printf(b, " AND profiler_id = %lld", (long long)prof_chid) < 0;
	return bad || amd_buf_printf(b, " GROUP BY run_id, profiler_id, kind_id, name_id, file_id,"
				     " line FORMAT JSONCompact") < 0 ? -1 : 0;
}
