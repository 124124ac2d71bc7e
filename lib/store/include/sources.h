/* sources.h — the store queries the report needs beyond the
 * analysis: the sources a sweep came from (provenance with sha256) and
 * the metric keys its runs logged under a prefix (the runtime step
 * profiler's profile/train/dl_<loader>/time_*_ms). */
#ifndef AMD_SOURCES_H
#define AMD_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

struct amd_source_row {
	char *path, *kind, *sha256;
	int64_t size;
};

/* Sources of the sweep's runs (run directories, traces, GPU logs, op
 * averages, py-spy files linked to its runs), ordered by path. */
int amd_store_sweep_sources(struct amd_store *st, const char *sweep,
			    struct amd_source_row **out, size_t *n, struct amd_err *err);
void amd_source_rows_free(struct amd_source_row *v, size_t n);

/* Distinct metric keys starting with prefix logged by the sweep's runs
 * (and their child runs), sorted. */
int amd_store_sweep_metric_keys(struct amd_store *st, const char *sweep, const char *prefix,
				char ***out, size_t *n, struct amd_err *err);
void amd_strings_free(char **v, size_t n);

#endif
