/* charts_resource.c — energy and GPU utilisation charts (see
 * charts_resource.h). */
#include "charts_resource.h"

#include <math.h>
#include <stdio.h>

#include "labels.h"
#include "sweep_plot.h"

/* The unit a value axis of energies up to max_j reads best in, and the
 * factor from joules to it. */
static void energy_unit(double max_j, const char **unit, double *scale)
{
	if (max_j >= 3.6e5) {
		*unit = "Wh";
		*scale = 1 / 3600.0;
	} else if (max_j >= 1e4) {
		*unit = "kJ";
		*scale = 1e-3;
	} else if (max_j < 0.1) {
		*unit = "mJ";
		*scale = 1e3;
	} else {
		*unit = "J";
		*scale = 1;
	}
}

/* Bars of energy v per axis value, in the unit its largest value reads
 * best in; what names the energy on the value axis. */
static struct chart *energy_bars(const struct amd_sweep_stats *s, const char *title,
				 const char *what, enum amd_point_value v)
{
	const char *unit;
	double k;
	char yl[96];
	energy_unit(amd_sweep_max(s, v), &unit, &k);
	snprintf(yl, sizeof yl, "%s (%s)", what, unit);
	struct chart *c = plot_grouped(s, title, yl, v, k);
	chart_value_labels(c, k == 1 ? "%.0f" : "%.1f");
	return c;
}

static int energy_epoch(struct report_charts *rc, const struct amd_sweep_stats *s,
			const char *rpp, struct amd_err *err)
{
	char ci[96];
	struct chart *c = energy_bars(s, "Energy per epoch", "energy per epoch, per GPU",
				      AMD_PV_ENERGY_EPOCH);
	plot_ci_note(s, AMD_PV_ENERGY_EPOCH, "bars", ci, sizeof ci);
	chart_subtitle(c, "mean over %s runs per point, each GPU counted on its own; %s", rpp, ci);
	return report_chart_add(
		rc, err, "energy_epoch", c, "Energy per epoch",
		"Energy of one epoch on one GPU: power integrated over the epoch (itwinai's power × "
		"probing interval), per GPU and per run, never summed over repeats. Whiskers: the "
		"95%% percentile-bootstrap interval of the mean over runs, made as the epoch "
		"time's.");
}

static int energy_solution(struct report_charts *rc, const struct amd_sweep_stats *s,
			   const char *rpp, struct amd_err *err)
{
	char ci[96];
	struct chart *c = energy_bars(s, "Energy to solution", "energy to solution, all GPUs",
				      AMD_PV_ENERGY_SOLUTION);
	plot_ci_note(s, AMD_PV_ENERGY_SOLUTION, "bars", ci, sizeof ci);
	chart_subtitle(c, "one training run on all its GPUs; mean of %s runs per point; %s%s", rpp,
		       ci, s->nruns_nvsmi ? "; runs that logged none: from nvidia-smi samples" : "");
	return report_chart_add(
		rc, err, "energy_solution", c, "Energy to solution",
		"Energy of a whole training run summed over its GPUs, as a mean over the repeats "
		"of each configuration: what the run costs, to compare with its speedup. Whiskers: "
		"the 95%% percentile-bootstrap interval of that mean.");
}

static int energy_sample(struct report_charts *rc, const struct amd_sweep_stats *s,
			 const char *rpp, struct amd_err *err)
{
	const char *unit;
	double k;
	char yl[96];
	energy_unit(amd_sweep_max(s, AMD_PV_ENERGY_SAMPLE), &unit, &k);
	snprintf(yl, sizeof yl, "energy per sample (%s)", unit);
	struct chart *c = plot_xy(s, "Energy per sample", yl);
	chart_yrange(c, NAN, NAN, 1);
	char ci[96];
	plot_strategy_lines(c, s, AMD_PV_ENERGY_SAMPLE, k, 1, CS_ERRBARS);
	plot_ci_note(s, AMD_PV_ENERGY_SAMPLE, "bars", ci, sizeof ci);
	chart_subtitle(c, "energy of all GPUs over samples processed; %s runs per point; %s", rpp,
		       ci);
	return report_chart_add(rc, err, "energy_sample", c, "Energy per sample",
				"Energy per training sample: the figure to minimise when the budget "
				"is energy, not time. Error bars: the 95%% percentile-bootstrap "
				"interval of Σ energy / Σ samples, runs resampled whole.");
}

static int energy(struct report_charts *rc, const struct amd_sweep_stats *s, struct amd_err *err)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	if (amd_sweep_any(s, AMD_PV_ENERGY_EPOCH) && energy_epoch(rc, s, rpp, err) < 0)
		return -1;
	if (amd_sweep_any(s, AMD_PV_ENERGY_SOLUTION) && energy_solution(rc, s, rpp, err) < 0)
		return -1;
	if (amd_sweep_any(s, AMD_PV_ENERGY_SAMPLE) && energy_sample(rc, s, rpp, err) < 0)
		return -1;
	return 0;
}

static int utilisation(struct report_charts *rc, const struct amd_sweep_stats *s,
		       struct amd_err *err)
{
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	struct chart *c = plot_grouped(s, "GPU utilisation", "mean GPU utilisation (%)", AMD_PV_UTIL, 1);
	chart_yrange(c, 0, 100, 1);
	chart_value_labels(c, "%.0f%%");
	chart_subtitle(c, "mean over GPUs and samples of %s runs per point%s", rpp,
		       s->nruns_nvsmi ? "; runs that logged none: from nvidia-smi samples" : "");
	return report_chart_add(
		rc, err, "gpu_util", c, "GPU utilisation",
		"Mean GPU utilisation reported by NVML/nvidia-smi: the share of time a kernel was "
		"running, not how busy the GPU's units were.");
}

int report_resource_charts(struct report_charts *rc, const struct amd_sweep_stats *s,
			   struct amd_err *err)
{
	int rc_ = 0;
	if (amd_sweep_any(s, AMD_PV_ENERGY_EPOCH) || amd_sweep_any(s, AMD_PV_ENERGY_SOLUTION) ||
	    amd_sweep_any(s, AMD_PV_ENERGY_SAMPLE))
		rc_ = energy(rc, s, err);
	else
		rc_ = report_chart_missing(rc, err, "Energy: no GPU energy or power metrics "
						    "(gpu_energy_J, gpu_power_W, nvidia-smi "
						    "power.draw) for these runs.");
	if (rc_ < 0)
		return -1;
	if (s->has_util && amd_sweep_any(s, AMD_PV_UTIL))
		return utilisation(rc, s, err);
	return report_chart_missing(rc, err, "GPU utilisation: no utilisation metrics or "
					     "nvidia-smi samples.");
}
