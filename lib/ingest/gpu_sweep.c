/* gpu_sweep.c — the GPU phase sweep (gpu_sweep.h). */
#include "gpu_sweep.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "phase.h"

enum amd_gpu_class amd_gpu_class_of(const char *kernel_name, int is_memory)
{
	if (is_memory)
		return AMD_GPU_MEMORY;
	return strncasecmp(kernel_name, "nccl", 4) == 0 ? AMD_GPU_COMM : AMD_GPU_COMPUTE;
}

static void account(struct amd_gpu_sweep *s, int64_t from, int64_t to)
{
	while (from < to) {
		int64_t next = to;
		unsigned act = 0;
		for (int c = 0; c < AMD_GPU_CLASSES; c++)
			if (s->cov[c] > from) {
				act |= 1u << c;
				if (s->cov[c] < next)
					next = s->cov[c];
			}
		int64_t len = next - from;
		if (act & (1u << AMD_GPU_COMPUTE)) {
			s->sum[AMD_GPU_COMPUTE] += len;
			if (act & (1u << AMD_GPU_COMM))
				s->overlap += len;
		} else if (act & (1u << AMD_GPU_COMM))
			s->sum[AMD_GPU_COMM] += len;
		else if (act & (1u << AMD_GPU_MEMORY))
			s->sum[AMD_GPU_MEMORY] += len;
		from = next;
	}
}

void amd_gpu_sweep_take(struct amd_gpu_sweep *s, int64_t start, int64_t end,
			enum amd_gpu_class c)
{
	if (!s->started) {
		s->started = 1;
		s->t = start;
		for (int k = 0; k < AMD_GPU_CLASSES; k++)
			s->cov[k] = INT64_MIN;
	}
	if (start > s->t) {
		account(s, s->t, start);
		s->t = start;
	}
	if (end > s->cov[c])
		s->cov[c] = end;
}

void amd_gpu_sweep_end(struct amd_gpu_sweep *s)
{
	if (!s->started)
		return;
	int64_t last = s->t;
	for (int c = 0; c < AMD_GPU_CLASSES; c++)
		if (s->cov[c] > last)
			last = s->cov[c];
	account(s, s->t, last);
	s->t = last;
}

void amd_gpu_sweep_phases(const struct amd_gpu_sweep *s, int64_t window, int64_t *ph)
{
	memset(ph, 0, AMD_PHASE_COUNT * sizeof *ph);
	ph[AMD_PHASE_COMPUTE] = s->sum[AMD_GPU_COMPUTE];
	ph[AMD_PHASE_COMM] = s->sum[AMD_GPU_COMM];
	ph[AMD_PHASE_MEMORY] = s->sum[AMD_GPU_MEMORY];
	ph[AMD_PHASE_OVERLAP] = s->overlap;
	int64_t busy; /* saturating: phases lie inside a checked window */
	if (__builtin_add_overflow(ph[AMD_PHASE_COMPUTE], ph[AMD_PHASE_COMM], &busy) ||
	    __builtin_add_overflow(busy, ph[AMD_PHASE_MEMORY], &busy))
		busy = INT64_MAX;
	ph[AMD_PHASE_IDLE] = window > busy ? window - busy : 0;
}
