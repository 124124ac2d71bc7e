/* gpu_energy.c — per-GPU energy by the trapezoid rule, mean power and
 * utilisation over nvidia-smi samples, and a run's figures with its
 * GPUs together; see gpu_energy.h. The samples come from the store
 * (gpu_samples.h). */
#include "gpu_energy.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "gpu_samples.h"
#include "runs.h"

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

/* Appends the finished statistics of a to *out. */
static int emit(struct acc *a, struct amd_gpu_stats **out, size_t *n, size_t *cap)
{
	finish(a);
	if (amd_grow(out, *n, cap, sizeof **out, 8) < 0)
		return -1;
	(*out)[(*n)++] = a->s;
	return 0;
}

int amd_gpu_stats_of(const struct amd_gpu_sample *v, size_t n, struct amd_gpu_stats **out,
		     size_t *nout, struct amd_err *err)
{
	*out = NULL;
	*nout = 0;
	size_t cap = 0;
	struct acc a;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || v[i].gpu != a.s.gpu) {
			if (i > 0 && emit(&a, out, nout, &cap) < 0)
				goto oom;
			start(&a, v[i].gpu, v[i].ts_ms);
		}
		add(&a, v[i].ts_ms, v[i].power_w, v[i].util_pct);
	}
	if (n > 0 && emit(&a, out, nout, &cap) < 0)
		goto oom;
	return 0;
oom:
	free(*out);
	*out = NULL;
	*nout = 0;
	return amd_fail(err, "GPU statistics: out of memory");
}

int amd_gpu_stats_run(struct amd_store *st, int64_t run, struct amd_gpu_stats **out,
		      size_t *n, struct amd_err *err)
{
	struct amd_gpu_sample *v;
	size_t nv;
	*out = NULL;
	*n = 0;
	if (amd_gpu_samples_run(st, run, &v, &nv, err) < 0)
		return -1;
	int rc = amd_gpu_stats_of(v, nv, out, n, err);
	free(v);
	return rc;
}

int amd_gpu_stats_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			 struct amd_gpu_stats **out, size_t *n, struct amd_err *err)
{
	struct amd_gpu_sample *v;
	size_t nv;
	*out = NULL;
	*n = 0;
	if (amd_gpu_samples_window(st, t0_ms, t1_ms, &v, &nv, err) < 0)
		return -1;
	int rc = amd_gpu_stats_of(v, nv, out, n, err);
	free(v);
	return rc;
}

/* The figures of samples v[0..n) of one run. */
static int figures_of(const struct amd_gpu_sample *v, size_t n, struct amd_gpu_run_figures *f,
		      struct amd_err *err)
{
	struct amd_gpu_stats *s;
	size_t ns;
	if (amd_gpu_stats_of(v, n, &s, &ns, err) < 0)
		return -1;
	double e = 0, p = 0, u = 0;
	size_t ne = 0, np = 0, nu = 0;
	for (size_t i = 0; i < ns; i++)
		if (isfinite(s[i].energy_j)) {
			e += s[i].energy_j;
			ne++;
		}
	for (size_t i = 0; i < n; i++) {
		if (!isnan(v[i].power_w)) {
			p += v[i].power_w;
			np++;
		}
		if (!isnan(v[i].util_pct)) {
			u += v[i].util_pct;
			nu++;
		}
	}
	f->gpus = ns;
	f->energy_j = ne ? e : NAN;
	f->power_w = np ? p / (double)np : NAN;
	f->util_pct = nu ? u / (double)nu : NAN;
	free(s);
	return 0;
}

/* The GPU indexes a CUDA_VISIBLE_DEVICES value names ("0,2", spaces
 * and newlines allowed) into dev[0..AMD_GPU_MAX_DEVICES); their count, 0 when the
 * value names none or is not such a list (GPU UUIDs, MIG names): then
 * every GPU's samples count. */
static size_t device_list(const char *v, int *dev)
{
	size_t k = 0;
	while (*v) {
		char *end;
		while (isspace((unsigned char)*v))
			v++;
		long d = strtol(v, &end, 10);
		if (end == v || d < 0 || d > 65535 || k == AMD_GPU_MAX_DEVICES)
			return 0;
		dev[k++] = (int)d;
		for (v = end; isspace((unsigned char)*v); v++)
			;
		if (*v == ',')
			v++;
		else if (*v)
			return 0;
	}
	return k;
}

/* Keeps the samples of v[0..*n) whose GPU the run names in its
 * CUDA_VISIBLE_DEVICES param, if it names any. */
static int keep_run_devices(struct amd_store *st, int64_t run, struct amd_gpu_sample *v,
			    size_t *n, struct amd_err *err)
{
	char *val;
	int dev[AMD_GPU_MAX_DEVICES];
	if (amd_run_param_find(st, run, AMD_GPU_DEVICES_PARAM, &val, err) < 0)
		return -1;
	size_t nd = val ? device_list(val, dev) : 0;
	free(val);
	if (nd == 0)
		return 0;
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		for (size_t d = 0; d < nd; d++)
			if (v[i].gpu == dev[d]) {
				v[k++] = v[i];
				break;
			}
	*n = k;
	return 0;
}

int amd_gpu_run_figures(struct amd_store *st, int64_t run, int64_t t0_ms, int64_t t1_ms,
			struct amd_gpu_run_figures *out, struct amd_err *err)
{
	struct amd_gpu_sample *v;
	size_t n;
	memset(out, 0, sizeof *out);
	out->energy_j = out->power_w = out->util_pct = NAN;
	if (amd_gpu_samples_run(st, run, &v, &n, err) < 0)
		return -1;
	out->linked = n > 0;
	if (n == 0 && t0_ms < t1_ms) {
		free(v);
		if (amd_gpu_samples_window(st, t0_ms, t1_ms, &v, &n, err) < 0)
			return -1;
		if (keep_run_devices(st, run, v, &n, err) < 0) {
			free(v);
			return -1;
		}
	}
	int rc = figures_of(v, n, out, err);
	free(v);
	return rc;
}
