/* analysis_energy.h — a run's energy, power and GPU utilisation for the
 * statistics (analysis.h): from the NVML energy counter the run logged
 * per epoch (gpu_energy_J), else from its logged power samples the way
 * itwinai integrates them (gpu_power_W × probing_interval), and its
 * mean power and utilisation (gpu_util_pct or gpu_utilization_percent).
 *
 * nvidia-smi logs: analysis_run_energy_nvsmi fills the same values from
 * the nvidia-smi samples in the store (gpu_energy.h) for a run that
 * logged none — those linked to it, else those in its start..end (one log
 * for a whole sweep); analysis_run.c calls it right after
 * analysis_run_energy and marks the run (gpu_from_nvsmi), so stats and
 * the report name the source. */
#ifndef AMD_ANALYSIS_ENERGY_H
#define AMD_ANALYSIS_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "runs.h"

/* Fills v's energy_run_j, energy_kept_j, energy_epoch_j, power_w and
 * util_pct for run, whose epochs pts[0..n) are kept where keep[i] (v's
 * value, the run's metric, must be set). NAN where nothing was logged. */
int analysis_run_energy(struct amd_store *st, int64_t run, const struct amd_point *pts,
			size_t n, const int *keep, struct amd_run_value *v, struct amd_err *err);

/* Where the run's energy and utilisation come from when it logged none:
 * each of v's energy_run_j,
 * power_w and util_pct that is NAN is taken from the nvidia-smi samples
 * linked to the run, else from those in its start..end window (all its
 * GPUs together: energy summed over GPUs, power and utilisation the mean
 * over GPUs and samples). energy_epoch_j and energy_kept_j stay as they
 * are: the samples are not split by epoch. 1 when something was filled,
 * 0 when not, -1 on a store error or out of memory. */
int analysis_run_energy_nvsmi(struct amd_store *st, const struct amd_run_view *rv,
			      struct amd_run_value *v, struct amd_err *err);

#endif
