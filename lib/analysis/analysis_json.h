/* analysis_json.h — a sweep's statistics (analysis.h) as JSON: every
 * strategy's points (median, CIs, speedup, efficiency, Karp–Flatt, energy,
 * phases, run values), the Amdahl and USL fits, the options and the runs
 * left out. Shared by `amdahl stats --json` and report.json. */
#ifndef AMD_ANALYSIS_JSON_H
#define AMD_ANALYSIS_JSON_H

#include <cjson/cJSON.h>

#include "analysis.h"

/* The JSON contract every `--json` output and report.json keep (the
 * schemas in docs/schema/, CHANGES.md): a top-level "schema_version"; an
 * interval is {"lo", "hi", "level"} beside its value, or null; a value
 * that is missing is null, never a key left out; "p" is a raw p-value,
 * "p_holm" Holm's adjusted one; verdicts are the words of
 * amd_json_verdict_word (lib/compare/compare.h). */
#define AMD_JSON_SCHEMA_VERSION 1

/* Adds v under k, or null when v is NaN or infinite; returns the item
 * added, NULL when out of memory (or o NULL). */
cJSON *amd_json_num(cJSON *o, const char *k, double v);
/* Adds s under k, or null when s is NULL; the item, NULL out of memory. */
cJSON *amd_json_str(cJSON *o, const char *k, const char *s);
/* Adds {"lo", "hi", "level"} under k, or null when !valid or lo/hi are
 * not finite; the item, NULL out of memory. */
cJSON *amd_json_interval(cJSON *o, const char *k, int valid, double lo, double hi, double level);
/* An amd_ci under k (amd_json_interval) and beside it k + "_why": why
 * it was refused (its why; null when it has none, or was made). 0, or
 * -1 out of memory. */
int amd_json_ci(cJSON *o, const char *k, const struct amd_ci *ci, double level);
/* Puts "schema_version" first in the object doc; -1 out of memory. */
int amd_json_versioned(cJSON *doc);
/* The whole tree; NULL out of memory (never a tree with parts missing). */
cJSON *amd_sweep_stats_json(const struct amd_sweep_stats *s);

#endif
