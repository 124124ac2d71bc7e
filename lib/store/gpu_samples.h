/* gpu.h — GPU statistics from the nvidia-smi samples in the store, per
 * GPU: energy (the trapezoid integral of power over time), mean power
 * and mean utilisation. Samples are chosen either by the run they are
 * linked to (ingest --run) or by a time window (e.g. a run's start..end
 * when the log was not linked; nvidia-smi's zone-less times are read as
 * UTC, so this matches when the logging machine ran on UTC, as in
 * testdata/gpu-batch-sweep). For the statistics and report. */
#ifndef AMD_GPU_H
#define AMD_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

struct amd_gpu_stats {
	int gpu;              /* nvidia-smi index */
	int64_t samples;      /* samples of this GPU in the selection */
	int64_t t0_ms, t1_ms; /* first and last sample time */
	/* Energy in joules: sum over consecutive samples of
	 * (t[i+1]-t[i]) * (P[i]+P[i+1])/2; an interval with a missing power
	 * value on either end is left out. NAN when fewer than 2 powers. */
	double energy_j;
	double mean_power_w;  /* arithmetic mean of the logged powers, NAN if none */
	double mean_util_pct; /* arithmetic mean of utilization.gpu, NAN if none */
	double max_power_w;   /* NAN if none */
};

/* Per-GPU statistics of the samples linked to run (run.id), sorted by
 * GPU; *n is 0 when the run has none. The caller frees *out. */
int amd_gpu_stats_run(struct amd_store *st, int64_t run, struct amd_gpu_stats **out,
		      size_t *n, struct amd_err *err);

/* The same over every sample with t0_ms <= ts_ms <= t1_ms, whatever run
 * it is linked to. */
int amd_gpu_stats_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			 struct amd_gpu_stats **out, size_t *n, struct amd_err *err);

#endif
