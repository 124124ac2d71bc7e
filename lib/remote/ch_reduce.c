/* ch_reduce.c — reductions computed by the ClickHouse server for a read
 * (ch_reduce.h). */
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
