/* store_gpu.c — queries over gpu_sample (nvidia-smi logs): per-GPU energy
 * by the trapezoid rule, mean power and utilisation; see gpu.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_samples.h"
#include "sqlite_int.h"
#include "buf.h"

struct acc {
	struct amd_gpu_stats s;
	double power_sum, util_sum, prev_p;
	int64_t n_power, n_util, prev_t;
	int has_prev;
};

static void start(struct acc *a, int gpu, int64_t t)
{
	memset(a, 0, sizeof *a);
	a->s.gpu = gpu;
	a->s.t0_ms = t;
	a->s.energy_j = 0;
	a->s.max_power_w = NAN;
}

static void add(struct acc *a, int64_t t, double p, double u)
{
	a->s.samples++;
	a->s.t1_ms = t;
	if (!isnan(u)) {
		a->util_sum += u;
		a->n_util++;
	}
	if (isnan(p)) {
		a->has_prev = 0;
		return;
	}
	if (a->has_prev)
		a->s.energy_j += (double)(t - a->prev_t) / 1000.0 * (a->prev_p + p) / 2.0;
	if (isnan(a->s.max_power_w) || p > a->s.max_power_w)
		a->s.max_power_w = p;
	a->power_sum += p;
	a->n_power++;
	a->prev_p = p;
	a->prev_t = t;
	a->has_prev = 1;
}

static void finish(struct acc *a)
{
	a->s.mean_power_w = a->n_power ? a->power_sum / (double)a->n_power : NAN;
	a->s.mean_util_pct = a->n_util ? a->util_sum / (double)a->n_util : NAN;
	if (a->n_power < 2)
		a->s.energy_j = NAN;
}

static double col_double(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* q yields (gpu, ts_ms, power_w, util_pct) ordered by gpu, ts_ms. */
static int collect(sqlite3_stmt *q, struct amd_gpu_stats **out, size_t *n,
		   struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	struct acc a;
	int have = 0, rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int gpu = sqlite3_column_int(q, 0);
		int64_t t = sqlite3_column_int64(q, 1);
		if (!have || gpu != a.s.gpu) {
			if (have) {
				finish(&a);
				if (amd_grow(out, *n, &cap, sizeof **out, 8) < 0)
					goto oom;
				(*out)[(*n)++] = a.s;
			}
			start(&a, gpu, t);
			have = 1;
		}
		add(&a, t, col_double(q, 2), col_double(q, 3));
	}
	if (rc != SQLITE_DONE) {
		free(*out);
		*out = NULL;
		*n = 0;
		return amd_fail(err, "store: reading GPU samples: %s",
				sqlite3_errmsg(sqlite3_db_handle(q)));
	}
	if (have) {
		finish(&a);
		struct amd_gpu_stats *v = realloc(*out, (*n + 1) * sizeof *v);
		if (!v)
			goto oom;
		*out = v;
		(*out)[(*n)++] = a.s;
	}
	return 0;
oom:
	free(*out);
	*out = NULL;
	*n = 0;
	return amd_fail(err, "store: out of memory");
}

int amd_gpu_stats_run(struct amd_store *st, int64_t run, struct amd_gpu_stats **out,
		      size_t *n, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT gpu, ts_ms, power_w, util_pct FROM gpu_sample WHERE run_id=?1"
		" ORDER BY gpu, ts_ms", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run);
	int rc = collect(q, out, n, err);
	sqlite3_finalize(q);
	return rc;
}

int amd_gpu_stats_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			 struct amd_gpu_stats **out, size_t *n, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT gpu, ts_ms, power_w, util_pct FROM gpu_sample"
		" WHERE ts_ms BETWEEN ?1 AND ?2 ORDER BY gpu, ts_ms", err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, t0_ms);
	sqlite3_bind_int64(q, 2, t1_ms);
	int rc = collect(q, out, n, err);
	sqlite3_finalize(q);
	return rc;
}
