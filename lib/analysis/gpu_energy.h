/* gpu_energy.h — GPU statistics from the nvidia-smi samples in the
 * store (gpu_samples.h), per GPU: energy (the trapezoid integral of
 * power over time), mean and peak power and mean utilisation; and the
 * same for a run with all its GPUs together, which is where the
 * statistics take energy and utilisation from when a run logged none
 * (analysis_energy.h, amd_run_energy_nvsmi). Samples are chosen either
 * by the run they are linked to (ingest --run) or by a time window (a
 * run's start..end when the log was not linked; nvidia-smi's zone-less
 * times are read as UTC, so this matches when the logging machine ran
 * on UTC, as in testdata/gpu-batch-sweep). */
#ifndef AMD_GPU_ENERGY_H
#define AMD_GPU_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "records.h"
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

/* Per-GPU statistics of samples v[0..n) ordered by GPU then time (as
 * the store returns them); *nout is 0 when n is. The caller frees *out. */
int amd_gpu_stats_of(const struct amd_gpu_sample *v, size_t n, struct amd_gpu_stats **out,
		     size_t *nout, struct amd_err *err);

/* Per-GPU statistics of the samples linked to run (run.id), sorted by
 * GPU; *n is 0 when the run has none. The caller frees *out. */
int amd_gpu_stats_run(struct amd_store *st, int64_t run, struct amd_gpu_stats **out,
		      size_t *n, struct amd_err *err);

/* The same over every sample with t0_ms <= ts_ms <= t1_ms, whatever run
 * it is linked to. */
int amd_gpu_stats_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			 struct amd_gpu_stats **out, size_t *n, struct amd_err *err);

/* One run's nvidia-smi figures, its GPUs together. */
struct amd_gpu_run_figures {
	size_t gpus;       /* GPUs with samples; 0: no samples, the rest NAN */
	int linked;        /* 1: samples linked to the run, 0: its time window */
	double energy_j;   /* sum of the GPUs' energy_j (those that have one), NAN if none */
	double power_w;    /* mean over GPUs and samples of the logged powers */
	double util_pct;   /* mean over GPUs and samples of utilization.gpu */
};

#define AMD_GPU_DEVICES_PARAM "CUDA_VISIBLE_DEVICES"
#define AMD_GPU_MAX_DEVICES 64

/* The figures of run from the samples linked to it, else (when none
 * are, and t0_ms < t1_ms) from every sample in t0_ms..t1_ms — only its
 * own GPUs' when the run logs a CUDA_VISIBLE_DEVICES param listing GPU
 * indexes (runs sharing a host at once each take their devices). */
int amd_gpu_run_figures(struct amd_store *st, int64_t run, int64_t t0_ms, int64_t t1_ms,
			struct amd_gpu_run_figures *out, struct amd_err *err);

#endif
