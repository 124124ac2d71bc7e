/* orphans.h — inputs linked to no run: the traces, py-spy files,
 * profiles and GPU logs whose facts no run owns (a GPU log counts as
 * linked when one of its samples falls inside a run's start..end, which
 * is how energy finds it), and linking such a source to a run after it
 * was ingested, without reading the file again; finding the run a
 * `--run NAME` means, with the closest names when there is none. */
#ifndef AMD_ORPHANS_H
#define AMD_ORPHANS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "err.h"
#include "store.h"

struct amd_orphan {
	char *path; /* the source's path as stored (absolute) */
	char *kind; /* its format name */
};

/* Every orphaned source, by path; *out is NULL when there is none. */
int amd_store_orphans(struct amd_store *st, struct amd_orphan **out, size_t *n,
		      struct amd_err *err);
void amd_orphans_free(struct amd_orphan *v, size_t n);

/* The tables amd_store_orphans reads (a read may load only these). */
extern const char *const amd_orphan_tables[];
extern const size_t amd_orphan_table_count;

/* The tables whose rows a source owns and a run may own (run_id). */
extern const char *const amd_run_fact_tables[];
extern const size_t amd_run_fact_table_count;

enum amd_link_result {
	AMD_LINK_DONE,     /* the source's facts now belong to the run */
	AMD_LINK_ALREADY,  /* they already did */
	AMD_LINK_NOTHING,  /* the source has no facts a run can own (an MLflow run) */
};

/* The run `--run run` names (its id, or the newest run of that name,
 * in sweep when not NULL): its row id; 0 when there is none, and then
 * closest gets "; closest: 'a', 'b'" (the run names nearest by edit
 * distance) or ""; -1 on an error. */
int64_t amd_store_run_find(struct amd_store *st, const char *run, const char *sweep,
			   char *closest, size_t size, struct amd_err *err);

/* Links every fact of source path a run may own (trace, operator
 * averages, py-spy samples, GPU samples, regions) to the run named run
 * (amd_store_run_find) in one transaction, and derives the run's
 * columns again. When no run answers and create is set with a sweep, a
 * placeholder run of that name is made in sweep (as `ingest --sweep S
 * --run NAME` does for a new file). Fails when path was never
 * ingested, or no run answers. Returns enum amd_link_result, or -1. */
int amd_store_link_source(struct amd_store *st, const struct amd_config *cfg,
			  const char *path, const char *run, const char *sweep, int create,
			  struct amd_err *err);

/* The same on the SQLite store at store_path, opened to write (`amdahl
 * link`; a remote store: lib/remote's amd_location_link). */
int amd_store_link_at(const char *store_path, const struct amd_config *cfg,
		      const char *path, const char *run, const char *sweep, struct amd_err *err);

#endif
