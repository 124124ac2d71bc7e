/* gpu_samples.h — the nvidia-smi samples in the store (gpu_sample) as
 * rows, ordered by GPU then time: those linked to a run (ingest --run,
 * or a log under the run's artifacts), or those in a time window (e.g.
 * a run's start..end when the log was not linked; nvidia-smi's
 * zone-less times are read as UTC). What they add up to per GPU
 * (energy, mean power and utilisation) is lib/analysis/gpu_energy.h. */
#ifndef AMD_GPU_SAMPLES_H
#define AMD_GPU_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "records.h"
#include "store.h"

/* The samples linked to run (run.id); *n is 0 when it has none. The
 * caller frees *out. Absent values are NAN. */
int amd_gpu_samples_run(struct amd_store *st, int64_t run, struct amd_gpu_sample **out,
			size_t *n, struct amd_err *err);

/* Every sample with t0_ms <= ts_ms <= t1_ms, whatever run it is linked to. */
int amd_gpu_samples_window(struct amd_store *st, int64_t t0_ms, int64_t t1_ms,
			   struct amd_gpu_sample **out, size_t *n, struct amd_err *err);

#endif
