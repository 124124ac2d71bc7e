/* memory_stats.c — memory per GPU over a sweep (see memory_stats.h).
 * A run's figure is the largest peak allocated over its traces'
 * accelerator devices (CUDA, HIP on ROCm, XPU, …: model/device.h; its
 * CPU memory when no trace of the sweep has one), else
 * the largest value of the first max_memory_allocated metric it logged
 * (names below; the unit from the suffix, bytes without one). */
#include "memory_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_points.h"
#include "buf.h"
#include "run_facts.h"
#include "runs.h"
#include "stats.h"


static const struct {
	const char *key;
	double scale;
} metric_keys[] = {
	{"max_memory_allocated", 1},      {"max_memory_allocated_bytes", 1},
	{"gpu_max_memory_allocated", 1},  {"cuda_max_memory_allocated", 1},
	{"max_memory_allocated_mb", 1 << 20}, {"max_memory_allocated_mib", 1 << 20},
	{"max_memory_allocated_gb", 1 << 30}, {"max_memory_allocated_gib", 1 << 30},
};

/* The largest value of the first memory metric run logged, NAN if none. */
static int metric_peak(struct amd_store *st, int64_t run, double *out, struct amd_err *err)
{
	*out = NAN;
	for (size_t k = 0; k < sizeof metric_keys / sizeof metric_keys[0] && isnan(*out); k++) {
		struct amd_point *p;
		size_t n;
		if (amd_run_metric(st, run, metric_keys[k].key, &p, &n, err) < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (isfinite(p[i].value) && !(p[i].value * metric_keys[k].scale <= *out))
				*out = p[i].value * metric_keys[k].scale;
		free(p);
	}
	return 0;
}

/* Does any traced run of the sweep have an accelerator's memory (CUDA,
 * HIP on ROCm, XPU, …: device.h)? */
static int sweep_has_gpu(struct amd_store *st, const struct amd_sweep_stats *s, int *gpu,
			 struct amd_err *err)
{
	*gpu = 0;
	for (size_t i = 0; i < s->nstrategies && !*gpu; i++)
		for (size_t j = 0; j < s->strategies[i].npoints && !*gpu; j++)
			for (size_t r = 0; r < s->strategies[i].points[j].nruns && !*gpu; r++) {
				struct amd_mem_row *m;
				size_t n;
				if (amd_store_run_memory(st, s->strategies[i].points[j].runs[r].run_id,
							 &m, &n, err) < 0)
					return -1;
				for (size_t k = 0; k < n; k++)
					*gpu |= amd_device_is_accelerator(m[k].device_type);
				free(m);
			}
	return 0;
}

/* One run's peaks (NAN when it has none); *row the lowest rank's device
 * row it was read from (trace_id 0 when from a metric or none). */
static int run_peak(struct amd_store *st, struct amd_memory_stats *ms, int64_t run,
		    double *alloc, double *res, struct amd_mem_row *row, struct amd_err *err)
{
	struct amd_mem_row *m;
	size_t n;
	*alloc = *res = NAN;
	memset(row, 0, sizeof *row);
	if (amd_store_run_memory(st, run, &m, &n, err) < 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (amd_device_is_accelerator(m[k].device_type) != ms->gpu)
			continue;
		if (!row->trace_id)
			*row = m[k];
		ms->running_sum |= !m[k].from_totals;
		if (!(m[k].peak_allocated <= *alloc))
			*alloc = (double)m[k].peak_allocated;
		if (m[k].peak_reserved >= 0 && !(m[k].peak_reserved <= *res))
			*res = (double)m[k].peak_reserved;
	}
	free(m);
	if (isnan(*alloc)) {
		if (metric_peak(st, run, alloc, err) < 0)
			return -1;
		ms->from_metric |= !isnan(*alloc);
	}
	return 0;
}

/* The order-statistic interval of the median of x[0..n) with its own
 * exact level, as stats gives the epoch time's (75% for [min, max] of 3;
 * refused below 3 values, saying why). A percentile bootstrap labelled
 * 95% covered 76% at 3 runs. */
static int median_ci(const double *x, size_t n, const struct amd_boot *boot,
		     struct amd_ci *ci, struct amd_err *err)
{
	struct amd_interval iv;
	amd_median_os_ci(x, n, boot->level, &iv);
	if (iv.oom)
		return amd_fail(err, "out of memory");
	analysis_set_ci(ci, &iv, n);
	return 0;
}

/* The figures of one configuration; the first traced run's device row
 * goes to *tl (NULL: the timeline is chosen already). */
static int point(struct amd_store *st, struct amd_memory_stats *ms,
		 const struct amd_point_stats *p, const struct amd_boot *boot,
		 struct amd_memory_point *out, struct amd_mem_row *tl, struct amd_err *err)
{
	double *a = malloc((p->nruns ? p->nruns : 1) * sizeof *a);
	double *rv = malloc((p->nruns ? p->nruns : 1) * sizeof *rv);
	size_t na = 0, nr = 0;
	int rc = a && rv ? 0 : amd_fail(err, "out of memory");
	for (size_t r = 0; r < p->nruns && rc == 0; r++) {
		double x, y;
		struct amd_mem_row row;
		rc = run_peak(st, ms, p->runs[r].run_id, &x, &y, &row, err);
		if (rc == 0 && !isnan(x))
			a[na++] = x;
		if (rc == 0 && !isnan(y))
			rv[nr++] = y;
		if (rc == 0 && row.trace_id && tl && !tl->trace_id) {
			*tl = row;
			snprintf(ms->run, sizeof ms->run, "%s", p->runs[r].name ? p->runs[r].name : "");
			ms->tl_n = p->n;
		}
	}
	*out = (struct amd_memory_point){.strategy = p->strategy, .n = p->n, .nruns = na,
		.nreserved = nr, .allocated = NAN, .lo = NAN, .hi = NAN, .reserved = NAN};
	if (rc == 0) {
		out->allocated = amd_median(a, na);
		out->lo = amd_min(a, na);
		out->hi = amd_max(a, na);
		out->reserved = amd_median(rv, nr);
		ms->any |= na > 0;
		rc = median_ci(a, na, boot, &out->ci, err);
	}
	if (rc == 0)
		rc = median_ci(rv, nr, boot, &out->reserved_ci, err);
	free(a);
	free(rv);
	return rc;
}

int amd_memory_stats(struct amd_store *st, const struct amd_sweep_stats *s,
		     struct amd_memory_stats *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	out->rank = -1;
	out->level = s->level;
	size_t total = 0, cap = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		total += s->strategies[i].npoints;
	if (sweep_has_gpu(st, s, &out->gpu, err) < 0)
		return -1;
	if (total && amd_grow_to(&out->v, total, &cap, sizeof *out->v, total) < 0)
		return amd_fail(err, "out of memory");
	struct amd_mem_row tl = {0};
	const struct amd_boot boot = {s->resamples, s->seed, s->level, AMD_AGG_MEDIAN}; /* peaks: median */
	for (size_t i = 0; i < s->nstrategies; i++) {
		/* the largest axis value first: the timeline's run */
		for (size_t j = s->strategies[i].npoints; j-- > 0;) {
			if (point(st, out, &s->strategies[i].points[j], &boot, &out->v[out->n + j],
				  tl.trace_id ? NULL : &tl, err) < 0) {
				amd_memory_stats_free(out);
				return -1;
			}
		}
		out->n += s->strategies[i].npoints;
	}
	out->rank = tl.rank;
	if (tl.trace_id && amd_store_memory_samples(st, tl.trace_id, tl.device_type,
						    tl.device_id, &out->tl, &out->ntl, err) < 0) {
		amd_memory_stats_free(out);
		return -1;
	}
	return 0;
}

void amd_memory_stats_free(struct amd_memory_stats *m)
{
	free(m->v);
	free(m->tl);
	memset(m, 0, sizeof *m);
}
