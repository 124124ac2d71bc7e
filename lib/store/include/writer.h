/* writer.h — the store's side of ingest: the ingest target (model/sink.h)
 * over the SQLite store, and below it the writer of one unit, whose sink
 * writes a parser's facts inside the unit's transaction. */
#ifndef AMD_STORE_WRITER_H
#define AMD_STORE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "sink.h"
#include "store.h"

/* The ingest target that writes into the SQLite store at path (each
 * worker opens its own connection). path must outlive the target. */
struct amd_ingest_target amd_store_target(const char *path);

/* Where a unit stands (enum amd_source_state: its place and content
 * decide; same, NULL for amd_same_run_folder, tells whether another path
 * holding its bytes puts them in the unit's run). */
int amd_store_source_state(struct amd_store *st, const char *path, const char *sha,
			   amd_same_run_fn *same, struct amd_err *err);

/* Drops what path left in the store (a run deleted since it was
 * ingested): its facts, its source row, the runs only it made and the
 * sweeps they leave empty, in one transaction. */
int amd_store_forget_source(struct amd_store *st, const char *path, struct amd_err *err);

/* A run's strategy, n, nodes, rank and repeat columns are derived from
 * its params at ingest under amdahl.yaml's run lists (run.n_params, …).
 * When cfg's lists now give other values (the configuration changed
 * after the ingest), the SQLite store at path gets them re-derived from
 * the stored params, in one transaction: *changed runs. 0 (and
 * *changed 0) when every run already agrees or path is no store that
 * opens (the command's own open says why); -1 when the store cannot be
 * written (a read-only file) or a query fails. run_columns.c. */
int amd_run_columns_refresh(const char *path, const struct amd_config *cfg, size_t *changed,
			    struct amd_err *err);
/* The same on an open store st (a remote store's read copy: what the
 * command reads, never written back), name naming it in messages:
 * *changed runs re-derived, in one transaction of st. run_columns.c. */
int amd_run_columns_rederive(struct amd_store *st, const char *name, const struct amd_config *cfg,
			     size_t *changed, struct amd_err *err);

/* Why a run's n is what it is when its params say it in a way the run
 * lists do not show: fn(run id, why, arg) for each such run of st, why
 * "nnodes × nproc_per_node (nodes × workers per node)" or "WORLD_SIZE
 * (world_size in another case)"; a run whose n is a listed name as
 * spelled, its traces' or none is not told. fn returns -1 (out of
 * memory) to stop. run_columns.c. */
typedef int amd_n_source_fn(int64_t run, const char *why, void *arg);
int amd_run_n_sources(struct amd_store *st, const struct amd_config *cfg, amd_n_source_fn *fn,
		      void *arg, struct amd_err *err);

struct amd_store_sink;

struct amd_store_sink *amd_store_sink_new(struct amd_store *st, const char *path,
					  const char *kind, const char *sha,
					  uint64_t size, const char *sweep_override,
					  const struct amd_config *cfg);
struct amd_sink *amd_store_sink_iface(struct amd_store_sink *ss);
/* Derives run columns, commits; returns the unit's state as found when
 * the transaction started (NEW, CHANGED, or SAME/DUPLICATE when another
 * process got there first, in which case nothing was written). */
int amd_store_sink_finish(struct amd_store_sink *ss, enum amd_source_state *state,
			  struct amd_err *err);
/* The run a link names, as the sink finds it in st: by ext_id, else the
 * newest run named name (or with that id) in sweep when not NULL; 0
 * when none, -1 on an error. */
int64_t amd_store_sink_find_run(struct amd_store *st, const char *ext_id, const char *name,
				const char *sweep, struct amd_err *err);
/* Called when a link names a run st does not hold, before a placeholder
 * is made, and when a unit reports a run st does not hold yet (ext_id
 * only, name and sweep NULL), before writing it: copies into st the run
 * the real store holds, if it does (the ClickHouse target's staging
 * store, ch_seed.c), so the unit merges with it; 0 or -1. */
typedef int amd_seed_run_fn(void *ctx, struct amd_store *st, const char *ext_id,
			    const char *name, const char *sweep, struct amd_err *err);
/* The rule the state found when the unit begins applies to held copies
 * (sink.h; NULL: amd_same_run_folder). */
void amd_store_sink_same_run(struct amd_store_sink *ss, amd_same_run_fn *fn);
void amd_store_sink_seed_runs(struct amd_store_sink *ss, amd_seed_run_fn *fn, void *ctx);
/* Rolls back whatever the unit wrote and frees the sink. */
void amd_store_sink_abort(struct amd_store_sink *ss);
void amd_store_sink_free(struct amd_store_sink *ss);

#endif
