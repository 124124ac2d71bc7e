/* sink.h — the two interfaces between parsing and storing.
 *
 * struct amd_sink is what every input parser feeds. A parser never
 * touches the store: it reports runs, params, metrics, trace summaries,
 * stacks and GPU samples to a sink. The store's writer (lib/store/
 * writer/writer.c) writes them inside the unit's transaction; tests and fuzzers
 * use counting sinks. A NULL callback means "ignore this kind of fact".
 *
 * struct amd_ingest_target is where the ingest engine sends units: it
 * asks whether a source is already held, then opens one writer per unit
 * (whose sink the parser feeds) and finishes or rolls it back. A store
 * backend implements it (amd_store_target() for SQLite); the engine
 * knows nothing else of the store. See docs/design.md. */
#ifndef AMD_SINK_H
#define AMD_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "err.h"
#include "records.h"
#include "region.h"
#include "run.h"

/* What an operator average is, as the reader that reports it decides
 * (stored in op_average.role; the computation fraction sums the
 * compute ops' share of all ops but the enclosing ones). */
enum amd_op_role {
	AMD_OP_OTHER = 0,     /* an op that is not the framework's computation */
	AMD_OP_COMPUTE = 1,   /* the framework's computation (a tensor kernel op) */
	AMD_OP_ENCLOSING = 2, /* a range enclosing other ops (a profiler step): in no sum */
};

struct amd_sink {
	void *ctx;
	/* Starts (or updates) a run; param/tag/metric calls that follow
	 * belong to it. */
	int (*run)(struct amd_sink *s, const struct amd_run_rec *r, struct amd_err *err);
	int (*param)(struct amd_sink *s, const char *key, const char *value,
		     struct amd_err *err);
	int (*tag)(struct amd_sink *s, const char *key, const char *value,
		   struct amd_err *err);
	int (*metric)(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		      double value, struct amd_err *err);
	/* Names the run (by ext id, else by name within sweep) that later
	 * trace/op_average/gpu/stack facts belong to; creates a placeholder
	 * run when it is not ingested yet. All NULL: facts of no run. */
	int (*link)(struct amd_sink *s, const char *ext_id, const char *name,
		    const char *sweep, struct amd_err *err);
	int (*trace)(struct amd_sink *s, const struct amd_trace_summary *t,
		     struct amd_err *err);
	/* role: what the reader says the op is (enum amd_op_role) */
	int (*op_average)(struct amd_sink *s, const char *name, int role, int rank,
			  double self_cuda_us, double cuda_total_us, int64_t calls,
			  struct amd_err *err);
	int (*gpu_sample)(struct amd_sink *s, const struct amd_gpu_sample *g,
			  struct amd_err *err);
	int (*stack)(struct amd_sink *s, const struct amd_stack_rec *r,
		     struct amd_err *err);
	/* After trace: one device event of that trace (ingest --events). The
	 * engine sets it NULL when events are not wanted; a parser then keeps
	 * none. */
	int (*trace_event)(struct amd_sink *s, const struct amd_trace_event_rec *e,
			   struct amd_err *err);
	/* A profiler's region (region.h) and a caller edge between two
	 * regions of the unit (reported after both regions). */
	int (*region)(struct amd_sink *s, const struct amd_region_rec *r,
		      struct amd_err *err);
	int (*region_call)(struct amd_sink *s, const struct amd_region_call *c,
			   struct amd_err *err);
	/* Optional, before the facts that name them: n names (op, function,
	 * file names; repeats allowed) the unit will report. The store adds the new
	 * ones to its dictionary at once, many to a statement (writer_names.c):
	 * in byte order when in_order is 0, so that its name index fills in
	 * order rather than at random; then the strings stay valid and
	 * unchanged until the unit ends, and a fact naming one by the same
	 * pointer finds its id without hashing the text. in_order 1: in the
	 * order given, which is the order the unit's facts will name them
	 * first (each name then takes the id it would take without the call;
	 * the strings need not outlive the call). */
	int (*names)(struct amd_sink *s, const char *const *names, size_t n, int in_order,
		     struct amd_err *err);
};

/* Where a source (a file or run directory) stands against what the
 * destination holds. Its identity is its place and its content (sha256)
 * together (issue 40 items 3/4): the same bytes already held at another
 * path are the same file when that path puts them in the same run (a
 * copied or moved run folder, a sweep reached by another path:
 * DUPLICATE, nothing to do) and a source of its own when it puts them in
 * another run (the same trace under two runs' artifacts: NEW). */
enum amd_source_state {
	AMD_SOURCE_NEW,       /* path never ingested, or the bytes for another run */
	AMD_SOURCE_SAME,      /* same path, same bytes: nothing to do */
	AMD_SOURCE_CHANGED,   /* same path, new bytes: replace its facts */
	AMD_SOURCE_DUPLICATE, /* same bytes held at another path, same run */
};

/* 1 when the held path, with the bytes of the unit at path, gives them
 * to the same run as the unit does: the ingest's rule is amd_same_run
 * (lib/ingest/walk.c), push's amd_same_run_folder (lib/core/file.h). */
typedef int amd_same_run_fn(const char *held, const char *path);

/* One unit about to be written. */
struct amd_unit_info {
	const char *path, *kind, *sha256;
	uint64_t size;
	const char *sweep_override; /* --sweep, or NULL */
	const struct amd_config *config;
	amd_same_run_fn *same_run; /* for the state found when it begins */
};

struct amd_unit_writer;

struct amd_ingest_target {
	void *ctx;
	/* Once, before any worker connects: create and migrate. */
	int (*prepare)(void *ctx, struct amd_err *err);
	/* Optional: once, after the last worker disconnected, when prepare
	 * succeeded: ends what prepare kept open. */
	void (*release)(void *ctx);
	/* One connection per worker thread. */
	void *(*connect)(void *ctx, struct amd_err *err);
	void (*disconnect)(void *conn);
	/* enum amd_source_state, or -1. */
	int (*state)(void *conn, const char *path, const char *sha256, amd_same_run_fn *same,
		     struct amd_err *err);
	/* Optional: the n units the worker asks state about next (engine.c
	 * claims them a batch at a time), each path with its sha256 when
	 * hashed ahead, else NULL: a target may answer their questions from
	 * one query about these only. A question about another unit (or
	 * bytes) is asked as before. */
	void (*expect)(void *conn, const char *const *paths, const char *const *shas, size_t n);
	/* Opens the unit's transaction; its sink takes the parser's facts. */
	struct amd_unit_writer *(*begin)(void *conn, const struct amd_unit_info *u,
					 struct amd_err *err);
	struct amd_sink *(*sink)(struct amd_unit_writer *w);
	/* Commits and frees w; *state is the unit's state as found when the
	 * transaction started (SAME/DUPLICATE: another process got there
	 * first and nothing was written). */
	int (*finish)(struct amd_unit_writer *w, enum amd_source_state *state,
		      struct amd_err *err);
	/* Rolls back whatever the unit wrote and frees w. */
	void (*rollback)(struct amd_unit_writer *w);
	/* `--run` on a unit already held (SAME): links its run-less facts
	 * to that run without reading it again; 1 when it linked, 0 when
	 * nothing changed, -1. NULL: the target cannot. */
	int (*link)(void *conn, const char *path, const char *run, const char *sweep,
		    const struct amd_config *cfg, struct amd_err *err);
	/* A held path that now holds nothing (a run deleted since): drops
	 * its facts, its source and the runs only it made; -1 on an error.
	 * NULL: the target keeps them. */
	int (*forget)(void *conn, const char *path, struct amd_err *err);
	/* Optional: several units' begin .. finish inside one transaction
	 * (each unit's own is a savepoint: a failed unit rolls back alone);
	 * batch_end commits (commit = 1) or rolls back the batch, -1 with
	 * err when the commit failed and nothing of the batch was kept, 1
	 * with err when the batch was committed (readers see it) but what
	 * follows the commit failed (ClickHouse: removing the attempts it
	 * replaces, left for the target's next prepare).
	 * NULL: one transaction per unit. */
	int (*batch_begin)(void *conn, struct amd_err *err);
	int (*batch_end)(void *conn, int commit, struct amd_err *err);
	/* Optional, with batch_end: batch_send commits the open batch as
	 * batch_end(conn, 1, ...) would, but in the background (ClickHouse:
	 * its INSERTs go from a thread of their own, on a connection of
	 * their own), and batch_landed waits for that and returns what
	 * batch_end would have. In between, the worker reads its next units
	 * (state, expect, link, forget) but begins no unit and no batch:
	 * what the batch sent is on the store before the next one is
	 * written (engine.c, the flight). */
	void (*batch_send)(void *conn);
	int (*batch_landed)(void *conn, struct amd_err *err);
	/* 1: batches with one worker too (ClickHouse: a batch's rows go in
	 * one request per table, its commits in one); 0: only with several. */
	int batch_always;
	/* The bytes the target holds in memory for the open batch (its
	 * units' rows waiting for batch_end): the engine writes a unit
	 * whose parse waits into it at once and goes on with the batch,
	 * and ends the batch's part past its bound (engine.c STAGED_HELD).
	 * NULL: the target holds none (those units end the batch). */
	size_t (*batch_held)(void *conn);
	/* Optional: 1 when a unit's failure (its one-line message msg, on
	 * the worker's connection conn) is the store's rather than the
	 * unit's — a full disk, an I/O error, a server that stopped
	 * answering — so that no later unit can be written either: the
	 * ingest stops there (engine.c). A target that can tell from conn
	 * (ClickHouse: the transport marks a request that got no answer)
	 * does not read msg. */
	int (*store_failed)(void *conn, const char *msg);
};

#endif
