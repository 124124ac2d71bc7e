/* gpu_sweep.h — the GPU phase split both device-timeline readers use
 * (the Kineto trace aggregator and the Nsight Systems reader): device
 * intervals — kernels, memory copies and sets — taken in start order;
 * wall time where a compute kernel runs is compute (and also overlap
 * when a communication kernel runs with it), else communication (nccl*
 * kernels), else memory; idle is the window minus those. */
#ifndef AMD_GPU_SWEEP_H
#define AMD_GPU_SWEEP_H

#include <stdint.h>

enum amd_gpu_class { AMD_GPU_COMPUTE, AMD_GPU_COMM, AMD_GPU_MEMORY, AMD_GPU_CLASSES };

struct amd_gpu_sweep {
	int started;
	int64_t t, cov[AMD_GPU_CLASSES], sum[AMD_GPU_CLASSES], overlap;
};

/* The class of a device interval: memory when is_memory, else
 * communication for a kernel named nccl* (any case), else compute. */
enum amd_gpu_class amd_gpu_class_of(const char *kernel_name, int is_memory);

/* Takes [start, end) of class c; intervals come in start order (a zeroed
 * sweep is an empty one). */
void amd_gpu_sweep_take(struct amd_gpu_sweep *s, int64_t start, int64_t end,
			enum amd_gpu_class c);
/* Accounts the time after the last start (once, after the last take). */
void amd_gpu_sweep_end(struct amd_gpu_sweep *s);
/* The split of window ns into ph (indexed by enum amd_phase): compute,
 * communication, memory, idle, overlap; other 0. */
void amd_gpu_sweep_phases(const struct amd_gpu_sweep *s, int64_t window, int64_t *ph);

#endif
