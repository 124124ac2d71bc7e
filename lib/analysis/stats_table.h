/* stats_table.h — the tables `amdahl stats` prints for a strategy, as
 * table models (lib/core/table.h): per n the runs' median with its
 * interval, spread, speedup, efficiency, Karp–Flatt and throughput (or,
 * on another axis, throughput, energy per sample, power, utilisation);
 * energy and utilisation; the profile's phase shares. */
#ifndef AMD_STATS_TABLE_H
#define AMD_STATS_TABLE_H

#include "analysis.h"
#include "table.h"

/* An interval as `amdahl stats` prints it: "[lo, hi]" in format f, or
 * why there is none; "[lo, hi] (75%)" when its own level (ci->level) is
 * below the stated one, stated (0: never). Returns b. */
const char *amd_stats_ci_cell(char *b, size_t n, const struct amd_ci *ci, const char *f,
			      double stated);

/* The strategy's table; NULL when out of memory. */
struct amd_table *amd_stats_table(const struct amd_sweep_stats *s,
				  const struct amd_strategy_stats *st);
/* Energy and utilisation per GPU, and the profile's phase shares, per n:
 * no rows when no point has any (NULL when out of memory). */
struct amd_table *amd_energy_table(const struct amd_strategy_stats *st);
struct amd_table *amd_profile_table(const struct amd_strategy_stats *st);

#endif
