/* memory_json.h — memory per GPU over a sweep (memory_stats.h) as JSON,
 * the "memory" object of `amdahl stats --json`: per configuration the
 * median peak allocated and reserved bytes with their bootstrap
 * intervals, the least and most, where the figures came from, and which
 * rank's timeline the report draws. */
#ifndef AMD_MEMORY_JSON_H
#define AMD_MEMORY_JSON_H

#include <cjson/cJSON.h>

#include "memory_stats.h"

/* The tree; NULL out of memory (never a tree with parts missing). */
cJSON *amd_memory_json(const struct amd_memory_stats *m);

#endif
