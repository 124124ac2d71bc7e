/* analysis_energy.c — a run's energy, power and utilisation from what it
 * logged (the NVML counter or power samples), and the nvidia-smi seam;
 * see analysis_energy.h. */
#include "analysis_energy.h"

#include <math.h>
#include <stdlib.h>

#include "gpu_energy.h"
#include "metric_points.h"
#include "num.h"

/* Is step kept? pts[0..n) (one rank, sorted by step) with keep[]; the
 * first point logged at the step decides. */
static int is_kept_step(const struct amd_point *pts, size_t n, const int *keep, int64_t step)
{
	size_t i = amd_points_find_step(pts, n, step);
	return i < n ? keep[i] : 0;
}

/* Energy, power and utilisation are never negative nor infinite: such a
 * sample is impossible and left out of the sums. */
static int possible(double v)
{
	return isfinite(v) && v >= 0;
}

/* Mean of the values of p (all ranks). */
static double mean_points(const struct amd_point *p, size_t n)
{
	double s = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (possible(p[i].value)) {
			s += p[i].value;
			k++;
		}
	return k ? s / (double)k : NAN;
}

/* Energy from the NVML counter gpu_energy_J (J per epoch per GPU). */
static void energy_counter(struct amd_run_value *v, const struct amd_point *e, size_t ne,
			   const struct amd_point *pts, size_t n, const int *keep)
{
	double all = 0, kept = 0;
	size_t nk = 0;
	for (size_t i = 0; i < ne; i++) {
		if (!possible(e[i].value))
			continue;
		all += e[i].value;
		if (is_kept_step(pts, n, keep, e[i].step)) {
			kept += e[i].value;
			nk++;
		}
	}
	v->energy_run_j = all;
	v->energy_kept_j = nk ? kept : NAN;
	v->energy_epoch_j = nk ? kept / (double)nk : NAN;
}

/* Energy from power samples the way itwinai does it (power × probing
 * interval), per GPU (rank) and per run. Per epoch and GPU, as the samples
 * are too sparse to split by epoch: mean power × the run's epoch time. */
static void energy_integrated(struct amd_run_value *v, const struct amd_point *p, size_t np,
			      double interval)
{
	double all = 0;
	for (size_t i = 0; i < np; i++)
		if (possible(p[i].value))
			all += p[i].value * interval;
	v->energy_run_j = all;
	v->energy_kept_j = NAN;
	v->energy_epoch_j = mean_points(p, np) * v->value;
}

/* Energy from the logged power samples and the run's probing_interval. */
static int energy_from_power(struct amd_store *st, int64_t run, const struct amd_point *pw,
			     size_t npw, struct amd_run_value *v, struct amd_err *err)
{
	char *pi;
	double iv;
	if (amd_run_param_find(st, run, "probing_interval", &pi, err) < 0)
		return -1;
	if (pi && amd_parse_double(pi, &iv) == 0 && iv > 0)
		energy_integrated(v, pw, npw, iv);
	free(pi);
	return 0;
}

int analysis_run_energy(struct amd_store *st, int64_t run, const struct amd_point *pts,
			size_t n, const int *keep, struct amd_run_value *v, struct amd_err *err)
{
	struct amd_point *e = NULL, *pw = NULL, *u = NULL;
	size_t ne = 0, npw = 0, nu = 0;
	int rc = -1;
	if (amd_run_metric(st, run, "gpu_energy_J", &e, &ne, err) < 0 ||
	    amd_run_metric(st, run, "gpu_power_W", &pw, &npw, err) < 0 ||
	    amd_run_metric(st, run, "gpu_util_pct", &u, &nu, err) < 0)
		goto out;
	if (nu == 0) {
		free(u);
		u = NULL;
		if (amd_run_metric(st, run, "gpu_utilization_percent", &u, &nu, err) < 0)
			goto out;
	}
	v->energy_run_j = v->energy_kept_j = v->energy_epoch_j = NAN;
	if (ne)
		energy_counter(v, e, ne, pts, n, keep);
	else if (npw && energy_from_power(st, run, pw, npw, v, err) < 0)
		goto out;
	v->power_w = mean_points(pw, npw);
	v->util_pct = mean_points(u, nu);
	rc = 0;
out:
	free(e);
	free(pw);
	free(u);
	return rc;
}

int analysis_run_energy_nvsmi(struct amd_store *st, const struct amd_run_view *rv,
			      struct amd_run_value *v, struct amd_err *err)
{
	if (!isnan(v->energy_run_j) && !isnan(v->power_w) && !isnan(v->util_pct))
		return 0;
	struct amd_gpu_run_figures f;
	if (amd_gpu_run_figures(st, rv->id, rv->start_ms, rv->end_ms, &f, err) < 0)
		return -1;
	int filled = 0;
	if (isnan(v->energy_run_j) && !isnan(f.energy_j)) {
		v->energy_run_j = f.energy_j;
		filled = 1;
	}
	if (isnan(v->power_w) && !isnan(f.power_w)) {
		v->power_w = f.power_w;
		filled = 1;
	}
	if (isnan(v->util_pct) && !isnan(f.util_pct)) {
		v->util_pct = f.util_pct;
		filled = 1;
	}
	return filled;
}
