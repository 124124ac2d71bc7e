/* statistic.c — the statistic registry (statistic.h): one row per
 * per-configuration statistic, with the accessors that read it. A new
 * statistic is one row here (after its value is computed into struct
 * amd_point_stats by analysis_points.c, and into struct amd_run_value
 * when it is compared). */
#include "statistic.h"

#include <math.h>
#include <string.h>

#include "table.h"

/* ---- a point's values ---- */

static double p_median(const struct amd_point_stats *p) { return p->median; }
static double p_mean(const struct amd_point_stats *p) { return p->mean; }
static double p_sd(const struct amd_point_stats *p) { return p->sd; }
static double p_cv(const struct amd_point_stats *p) { return p->cv; }
static double p_min(const struct amd_point_stats *p) { return p->min; }
static double p_max(const struct amd_point_stats *p) { return p->max; }
static double p_speedup(const struct amd_point_stats *p) { return p->speedup; }
static double p_efficiency(const struct amd_point_stats *p) { return p->efficiency; }
static double p_karp_flatt(const struct amd_point_stats *p) { return p->karp_flatt; }
static double p_throughput(const struct amd_point_stats *p) { return p->throughput; }
static double p_energy_epoch(const struct amd_point_stats *p) { return p->energy_epoch_j; }
static double p_energy_solution(const struct amd_point_stats *p) { return p->energy_solution_j; }
static double p_energy_sample(const struct amd_point_stats *p) { return p->energy_per_sample_j; }
static double p_power(const struct amd_point_stats *p) { return p->power_w; }
static double p_util(const struct amd_point_stats *p) { return p->util_pct; }

static const struct amd_ci *ci_median(const struct amd_point_stats *p) { return &p->ci; }
static const struct amd_ci *ci_mean_t(const struct amd_point_stats *p) { return &p->ci_mean_t; }
static const struct amd_ci *ci_speedup(const struct amd_point_stats *p) { return &p->ci_speedup; }
static const struct amd_ci *ci_efficiency(const struct amd_point_stats *p)
{
	return &p->ci_efficiency;
}
static const struct amd_ci *ci_energy_epoch(const struct amd_point_stats *p)
{
	return &p->ci_energy_epoch;
}
static const struct amd_ci *ci_energy_solution(const struct amd_point_stats *p)
{
	return &p->ci_energy_solution;
}
static const struct amd_ci *ci_energy_sample(const struct amd_point_stats *p)
{
	return &p->ci_energy_sample;
}
static const struct amd_ci *ci_power(const struct amd_point_stats *p) { return &p->ci_power; }

/* ---- one run's values, for comparisons ---- */

#define RUN_ARGS const struct amd_strategy_stats *s, const struct amd_point_stats *p, \
		 const struct amd_run_value *r

static double r_value(RUN_ARGS) { (void)s, (void)p; return r->value; }
static double r_throughput(RUN_ARGS) { (void)s, (void)p; return r->throughput; }
static double r_speedup(RUN_ARGS) { (void)p; return s->base_value / r->value; }
static double r_efficiency(RUN_ARGS) { return s->base_value / r->value * s->base_n / p->n; }
static double r_energy_epoch(RUN_ARGS) { (void)s, (void)p; return r->energy_epoch_j; }
static double r_energy_run(RUN_ARGS) { (void)s, (void)p; return r->energy_run_j; }
static double r_power(RUN_ARGS) { (void)s, (void)p; return r->power_w; }
static double r_util(RUN_ARGS) { (void)s, (void)p; return r->util_pct; }

/* ---- the registry ---- */

#define NONE AMD_INTERVAL_NONE
#define LOWER AMD_BETTER_LOWER
#define HIGHER AMD_BETTER_HIGHER
#define NEITHER AMD_BETTER_NEITHER

const struct amd_statistic amd_statistics[] = {
	/* key, row, unit, better, interval, interval key, gate, scaling, point, point_ci, run,
	 * the terminal's column, the report's column */
	{"median", "", "metric", AMD_BETTER_AS_METRIC, AMD_INTERVAL_BOOT_AGGREGATE, "ci",
	 AMD_GATE_GATED, 0, p_median, ci_median, r_value,
	 {NULL, NULL, 0}, {NULL, NULL, 0}},
	{"mean", NULL, "metric", AMD_BETTER_AS_METRIC, AMD_INTERVAL_T_MEAN, "mean_ci_t",
	 AMD_GATE_NOT_COMPARED, 0, p_mean, ci_mean_t, NULL,
	 {NULL, NULL, 0}, {NULL, NULL, 0}},
	{"sd", NULL, "metric", NEITHER, NONE, NULL, AMD_GATE_NOT_COMPARED, 0, p_sd, NULL, NULL,
	 {NULL, NULL, 0}, {"sd", NULL, 0}},
	{"cv", NULL, "", NEITHER, NONE, NULL, AMD_GATE_NOT_COMPARED, 0, p_cv, NULL, NULL,
	 {"CV", "%.1f%%", 1}, {"CV", "%.1f%%", 1}},
	{"min", NULL, "metric", NEITHER, NONE, NULL, AMD_GATE_NOT_COMPARED, 0, p_min, NULL, NULL,
	 {NULL, NULL, 0}, {"min", NULL, 0}},
	{"max", NULL, "metric", NEITHER, NONE, NULL, AMD_GATE_NOT_COMPARED, 0, p_max, NULL, NULL,
	 {NULL, NULL, 0}, {"max", NULL, 0}},
	{"throughput", "throughput", "samples/s", HIGHER, NONE, NULL, AMD_GATE_GATED, 0,
	 p_throughput, NULL, r_throughput,
	 {"samples/s", "%.1f", 0}, {"samples/s", NULL, 0}},
	{"speedup", "speedup", "×", HIGHER, AMD_INTERVAL_BOOT_RATIO, "speedup_ci",
	 AMD_GATE_GATED, 1, p_speedup, ci_speedup, r_speedup,
	 {NULL, NULL, 0}, {"speedup", "%.2f×", 0}},
	{"efficiency", "efficiency", "", HIGHER, AMD_INTERVAL_BOOT_SCALED, "efficiency_ci",
	 AMD_GATE_SHOWN, 1, p_efficiency, ci_efficiency, r_efficiency,
	 {"efficiency", "%.0f%%", 1}, {"efficiency", "%.0f%%", 1}},
	{"karp_flatt", NULL, "", LOWER, NONE, NULL, AMD_GATE_NOT_COMPARED, 0, p_karp_flatt, NULL,
	 NULL,
	 {"Karp–Flatt", "%.3f", 0}, {NULL, NULL, 0}},
	{"energy_epoch_j", "energy_epoch_j", "J", LOWER, AMD_INTERVAL_BOOT_MEAN,
	 "energy_epoch_ci", AMD_GATE_SHOWN, 0, p_energy_epoch, ci_energy_epoch, r_energy_epoch,
	 {"J/epoch/GPU", "%.4g", 0}, {"J/epoch/GPU", NULL, 0}},
	{NULL, "energy_run_j", "J", LOWER, NONE, NULL, AMD_GATE_SHOWN, 0, NULL, NULL,
	 r_energy_run,
	 {NULL, NULL, 0}, {NULL, NULL, 0}},
	{"energy_solution_j", NULL, "J", LOWER, AMD_INTERVAL_BOOT_MEAN, "energy_solution_ci",
	 AMD_GATE_NOT_COMPARED, 0, p_energy_solution, ci_energy_solution, NULL,
	 {"J/run (all GPUs)", "%.0f", 0}, {"J to solution", NULL, 0}},
	{"energy_per_sample_j", NULL, "J/sample", LOWER, AMD_INTERVAL_BOOT_MEAN,
	 "energy_per_sample_ci", AMD_GATE_NOT_COMPARED, 0, p_energy_sample, ci_energy_sample,
	 NULL,
	 {"J/sample", "%.4g", 0}, {"J/sample", NULL, 0}},
	{"power_w", "power_w", "W", LOWER, AMD_INTERVAL_BOOT_MEAN, "power_ci", AMD_GATE_SHOWN, 0,
	 p_power, ci_power, r_power,
	 {"power W", "%.1f", 0}, {"power (W)", NULL, 0}},
	{"util_pct", "util_pct", "%", HIGHER, NONE, NULL, AMD_GATE_SHOWN, 0, p_util, NULL, r_util,
	 {"util %", "%.1f", 0}, {"util", "%.1f%%", 0}},
};
const size_t amd_nstatistics = sizeof amd_statistics / sizeof amd_statistics[0];

const struct amd_statistic *amd_statistic_by_key(const char *key)
{
	for (size_t i = 0; key && i < amd_nstatistics; i++)
		if (amd_statistics[i].key && strcmp(amd_statistics[i].key, key) == 0)
			return &amd_statistics[i];
	return NULL;
}

const char *amd_statistic_cell(const struct amd_stat_column *c, double v, char *b, size_t n)
{
	if (!c->fmt)
		return amd_cell_sig(b, n, v);
	return c->pct ? amd_cell_pct(b, n, c->fmt, v) : amd_cell(b, n, c->fmt, v);
}

static const struct amd_stat_column *column(const char *key, int report)
{
	const struct amd_statistic *st = amd_statistic_by_key(key);
	return report ? &st->report : &st->term;
}

void amd_statistic_columns(const char *const *keys, size_t k, int report,
			   const char **heads)
{
	for (size_t i = 0; i < k; i++)
		heads[i] = column(keys[i], report)->label;
}

void amd_statistic_cells(const char *const *keys, size_t k, int report,
			 const struct amd_point_stats *p, char (*b)[32], const char **cells)
{
	for (size_t i = 0; i < k; i++)
		cells[i] = amd_statistic_cell(column(keys[i], report),
					      amd_statistic_by_key(keys[i])->point(p), b[i],
					      sizeof b[i]);
}
