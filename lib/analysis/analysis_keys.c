/* analysis_keys.c — the metric keys a sweep's statistics read (see
 * analysis_keys.h): the asked metric (analysis_run.c), the epoch time
 * and throughput a run's samples and seconds come from (analysis_run.c),
 * the energy counters (analysis_energy.c) and the memory peaks
 * (memory_stats.c). tests/e2e/clickhouse.sh checks that every key those
 * files pass to amd_run_metric is listed here. */
#include "analysis_keys.h"

static const char *const fixed[] = {
	"epoch_time_s", "throughput_samples_per_s",
	"gpu_energy_J", "gpu_power_W", "gpu_util_pct", "gpu_utilization_percent",
	"max_memory_allocated", "max_memory_allocated_bytes", "gpu_max_memory_allocated",
	"cuda_max_memory_allocated", "max_memory_allocated_mb", "max_memory_allocated_mib",
	"max_memory_allocated_gb", "max_memory_allocated_gib",
};

size_t amd_analysis_metric_keys(const struct amd_analysis_opts *o, const char **keys)
{
	size_t n = 0;
	keys[n++] = o && o->metric && *o->metric ? o->metric : "epoch_time_s";
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed && n < AMD_ANALYSIS_MAX_KEYS; i++)
		keys[n++] = fixed[i];
	return n;
}
