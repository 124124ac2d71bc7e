/* gpu_samples.c — the SQL behind gpu_samples.h: nvidia-smi samples of a
 * run or of a time window, ordered by GPU and time. */
#include "gpu_samples.h"
#include "sqlite_int.h"

#include <math.h>
#include <stdlib.h>

#include "buf.h"

#define COLUMNS "gpu, ts_ms, util_pct, mem_util_pct, power_w, mem_used_mib, temp_c"

static double col_double(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* q yields COLUMNS; the rows go to *out. */
static int collect(struct amd_store *st, sqlite3_stmt *q, struct amd_gpu_sample **out,
		   size_t *n, struct amd_err *err)
{
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 256) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct amd_gpu_sample *g = &(*out)[(*n)++];
		g->gpu = sqlite3_column_int(q, 0);
		g->ts_ms = sqlite3_column_int64(q, 1);
		g->util_pct = col_double(q, 2);
		g->mem_util_pct = col_double(q, 3);
		g->power_w = col_double(q, 4);
		g->mem_used_mib = col_double(q, 5);
		g->temp_c = col_double(q, 6);
	}
	sqlite3_finalize(q);
	if (rc == SQLITE_DONE)
		return 0;
	free(*out);
	*out = NULL;
	*n = 0;
	return amd_store_step_fail(st, rc, err);
}

int amd_gpu_samples_run(struct amd_store *st, int64_t run, struct amd_gpu_sample **out,
			size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT " COLUMNS " FROM gpu_sample WHERE run_id=?1 ORDER BY gpu, ts_ms", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	return collect(st, q, out, n, err);
}

int amd_gpu_samples_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			   struct amd_gpu_sample **out, size_t *n, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT " COLUMNS " FROM gpu_sample WHERE ts_ms BETWEEN ?1 AND ?2"
		" ORDER BY gpu, ts_ms", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, t0_ms);
	sqlite3_bind_int64(q, 2, t1_ms);
	return collect(st, q, out, n, err);
}
