/* run_sources.h — every source file of the chosen runs, one row per
 * (logical run, file): what `amdahl runs --sources` lists, and its
 * summary per run (files, bytes, kinds, a digest over the files'
 * SHA-256s) that the report's Appendix C shows for a sweep of more than
 * AMD_SOURCES_PER_FILE_MAX files. A child worker's files count as its
 * parent run's. */
#ifndef AMD_RUN_SOURCES_H
#define AMD_RUN_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "store.h"

/* Up to this many files, the report lists one row per file. */
#define AMD_SOURCES_PER_FILE_MAX 200

struct amd_run_source {
	char *run;      /* the logical run's ext_id; NULL: a file linked to no run */
	char *name;     /* its name (NULL when none) */
	int n, repeat;  /* its world size (0: unknown) and repeat */
	char *path, *kind, *sha256;
	int64_t size;
};

/* The files of the runs sweep picks (a sweep's name, a selector —
 * amd_selector_is — or NULL: every run), ordered by the runs' strategy,
 * n, repeat and id, then path; with sweep NULL, the orphans
 * (amd_store_orphans) follow with run NULL. */
int amd_store_run_sources(struct amd_store *st, const char *sweep,
			  struct amd_run_source **out, size_t *n, struct amd_err *err);
void amd_run_sources_free(struct amd_run_source *v, size_t n);

/* The logical run ids selector text picks (amd_select_runs), as a
 * JSON array in *json (malloc'd). */
int amd_selected_runs_json(struct amd_store *st, const char *text, char **json,
			   struct amd_err *err);

/* One run's files in sum. digest: SHA-256 (hex) of the files' SHA-256
 * hex digests, each followed by a newline, in path order — what
 * `sha256sum` prints for the list of those digests. */
struct amd_run_files {
	const struct amd_run_source *first; /* the run (its first row) */
	size_t files;
	int64_t bytes;
	char kinds[160];                    /* distinct kinds, sorted, ", " between */
	char digest[65];
};

/* The runs of rows v[0..n) (as amd_store_run_sources orders them), one
 * entry each, in *out. */
int amd_run_files_sum(const struct amd_run_source *v, size_t n, struct amd_run_files **out,
		      size_t *nout, struct amd_err *err);

#endif
