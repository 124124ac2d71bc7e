/* store.h — the store: where every ingested fact is kept and every
 * analysis reads from. This header and the query headers beside it
 * (runs.h, traces.h, run_facts.h, sources.h, gpu_samples.h,
 * pyspy_samples.h, writer.h) are the store interface; the SQLite backend
 * implements them in the .c files of lib/store, and all SQL of amdahl lives there
 * (sqlite_int.h is the backend's own). A remote store (lib/remote/) is
 * read through an in-memory store these same queries run on. See
 * docs/design.md, "The store". */
#ifndef AMD_STORE_H
#define AMD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "name_cap.h"

enum amd_store_mode { AMD_STORE_READ, AMD_STORE_WRITE };

/* An open store (opaque outside lib/store). */
struct amd_store;

/* Opens (creating and migrating, in WRITE mode) the store at path. A
 * READ open of a missing file fails with a message that says so. */
int amd_store_open(const char *path, enum amd_store_mode mode,
		   struct amd_store **out, struct amd_err *err);
void amd_store_close(struct amd_store *st);
/* The bytes of st's pages held in memory (its page cache: the whole
 * store for one opened at ":memory:", a ClickHouse unit's staging). */
size_t amd_store_memory(struct amd_store *st);

/* Before a store file is written whole over path (`amdahl pull --to`):
 * 0 when path is missing, empty or an amdahl store; else -1 with err
 * saying what the file is (an MLflow database, another SQLite file, a
 * text file, not a regular file), which is then left as it was. */
int amd_store_check_replace(const char *path, struct amd_err *err);

/* After a process wrote the store file at path: copies the write-ahead
 * log into the file (a FULL checkpoint, waiting a few seconds for a
 * reader in the middle of a read), so that the file alone is the whole store even when
 * another process kept it open and the writer's close could not
 * checkpoint. 0 (also when path holds no store or no log), or -1 with
 * err saying how many pages stayed in PATH-wal and how to finish. */
int amd_store_settle(const char *path, struct amd_err *err);

/* The whole store st is a part of, for what a part cannot answer alone
 * (an error's list of every sweep or key): *whole is st itself when st
 * is whole, else the store opened whole (the caller closes it). */
int amd_store_whole(struct amd_store *st, struct amd_store **whole, struct amd_err *err);

/* Marks st as a part of the store at its path (a remote store's read
 * loaded only in part, lib/remote): open_whole opens that store whole,
 * for amd_store_whole. */
typedef int (*amd_store_open_whole_fn)(const char *path, struct amd_store **out,
				       struct amd_err *err);
void amd_store_set_whole(struct amd_store *st, amd_store_open_whole_fn open_whole);

/* What a remote read left on the server (lib/remote fills it in; a
 * SQLite store has none): one table not loaded — loaded the first time
 * a query is about to read it (amd_store_need) — and the reduction a
 * sweep's region list starts from, computed where the rows are
 * (amd_store_region_sums). lib/store knows no backend: only these hooks. */
struct amd_region_sum {
	/* a run's region: ids of this store; file_id, line: has_file,
	 * has_line 0 for NULL */
	int64_t run_id, profiler_id, kind_id, name_id, file_id, line;
	int has_file, has_line;
	/* the sums over the run's rows of calls, prim_calls, self_ns,
	 * total_ns and bytes; has[k] 0 when every one was NULL */
	int64_t sum[5];
	int has[5];
};
typedef int (*amd_region_sum_fn)(void *ctx, const struct amd_region_sum *rows, size_t n);

/* One run's points of a metric reduced where they are (a remote read of
 * `stats` leaves the metric, epoch_time_s and throughput_samples_per_s
 * on the server): what lib/analysis's run value reads of them when each
 * is one series of distinct steps and the run has no child runs. Steps
 * of the metric's points in step order; t, rate: epoch_time_s and
 * throughput_samples_per_s at the point's step (NAN when not logged). */
struct amd_reduced_point {
	int64_t step;
	double value, t, rate;
};
struct amd_run_reduced {
	int64_t total, kept;	/* the metric's points; those kept (step 0 as
				 * asked, finite and > 0) */
	double median, mad;	/* of the kept values (amd_median, amd_mad) */
	struct amd_reduced_point *left, *far; /* not kept; kept and farther
				 * from the median than k·MAD/0.6745·0.99 (a
				 * superset of the MAD flags) */
	size_t nleft, nfar;
	int has_rate;		/* the run logged throughput_samples_per_s */
	/* over the kept points in step order: with has_rate, the sums of
	 * rate·t and t where t, rate, rate·t are finite and > 0, and the
	 * points whose t or rate is ≤ 0 or infinite; else (rate 1) the sum
	 * of t and the count of points where t is finite and > 0, and those
	 * whose t is ≤ 0 or infinite */
	double samples, secs;
	int64_t nvalid;
	struct amd_reduced_point *pairs;
	size_t npairs;
};
void amd_run_reduced_free(struct amd_run_reduced *r);
struct amd_store_remote {
	const char *left; /* the table left on the server ("region") */
	void *ctx;
	/* loads table left into st */
	int (*load)(void *ctx, struct amd_store *st, struct amd_err *err);
	/* per (run, profiler, kind, name, file, line) of the rows left, of
	 * the kind and profiler (dict ids; 0: any), the sums to fn */
	int (*region_sums)(void *ctx, struct amd_store *st, int64_t kind_id, int64_t profiler_id,
			   amd_region_sum_fn fn, void *fn_ctx, struct amd_err *err);
	/* left "metric_point": the keys whose points are left (the store
	 * holds their first point per source, run and key: the key sets),
	 * and run's value of metric keys[0] reduced by the server: 1 with
	 * *out filled, 0 when the caller reads the run's points */
	const char *const *keys;
	size_t nkeys;
	int (*run_reduced)(void *ctx, struct amd_store *st, int64_t run, int keep_first,
			   double mad_k, struct amd_run_reduced *out, struct amd_err *err);
	/* loads the left keys' points of the n runs (sorted; the store
	 * dropped their key sets) alone; NULL: only load, of every run */
	int (*load_runs)(void *ctx, struct amd_store *st, const int64_t *runs, size_t n,
			 struct amd_err *err);
	/* the left keys' points the server holds of run (its child runs'
	 * apart), -1 when it cannot tell; NULL: amd_store_need_key loads no
	 * planned run beside the one asked (amd_store_plan_reads) */
	int64_t (*run_points)(void *ctx, int64_t run);
	void (*release)(void *ctx);
};
/* Installs r (copied; its ctx released with the store). */
void amd_store_set_remote(struct amd_store *st, const struct amd_store_remote *r);
/* Loads table when a remote read left it on the server. Every
 * statement lib/store prepares calls it when the statement reads that
 * table (store.c: SQLite's authorizer tells), so no reader asks for it.
 * 0, or -1 with err set. */
int amd_store_need(struct amd_store *st, const char *table, struct amd_err *err);
/* The region sums of amd_store_remote computed by the server, when st
 * left its region rows there: 0 done, 1 when st has them itself (the
 * caller scans its table), -1 with err set. */
int amd_store_region_sums(struct amd_store *st, int64_t kind_id, int64_t profiler_id,
			  amd_region_sum_fn fn, void *ctx, struct amd_err *err);
/* Before reading key's points of run (and its child runs; run 0: of
 * every run): loads the left keys' points when a remote read left key's
 * on the server — of run and its child runs when the remote can
 * (load_runs; once per run), with the runs planned after it
 * (amd_store_plan_reads; their child runs too) in the same load, up to
 * AMD_NEED_BATCH_RUNS runs and AMD_NEED_BATCH_POINTS points more
 * (run_points); else of every run. 0, or -1 with err set. */
#define AMD_NEED_BATCH_RUNS 512
#define AMD_NEED_BATCH_POINTS 65536
int amd_store_need_key(struct amd_store *st, int64_t run, const char *key,
		       struct amd_err *err);
/* The logical runs whose points a reader will read next (amd_run_metric
 * of a left key), in the order it will ask for them: a load of
 * amd_store_need_key takes the runs planned after the one asked, so the
 * rows loaded are those the reader's own asks would load, in fewer
 * queries. The reader plans only runs it reads; n 0 forgets the plan.
 * 0, or -1 out of memory (err set). */
int amd_store_plan_reads(struct amd_store *st, const int64_t *runs, size_t n,
			 struct amd_err *err);
/* Run's value of metric reduced by the server (amd_store_remote's
 * run_reduced): 1 with *out filled (amd_run_reduced_free), 0 when the
 * caller reads the points (a SQLite store; another metric; a run the
 * server cannot reduce exactly), -1 with err set. */
int amd_store_run_reduced(struct amd_store *st, int64_t run, const char *metric,
			  int keep_first, double mad_k, struct amd_run_reduced *out,
			  struct amd_err *err);

/* BEGIN IMMEDIATE (waits for other writers up to the busy timeout).
 * Inside a batch: a savepoint, which commit releases into the batch and
 * rollback undoes alone. */
int amd_store_begin(struct amd_store *st, struct amd_err *err);
int amd_store_commit(struct amd_store *st, struct amd_err *err);
void amd_store_rollback(struct amd_store *st);
/* Several units' transactions as one (ingest -j N): the write turn and
 * BEGIN IMMEDIATE for all of them, so pages the units share are written
 * to the log once. amd_store_batch_end commits (commit = 1) or rolls
 * back what the batch holds; -1 with err when the commit failed, and
 * then nothing of the batch is in the store. */
int amd_store_batch_begin(struct amd_store *st, struct amd_err *err);
int amd_store_batch_end(struct amd_store *st, int commit, struct amd_err *err);

/* The form a name is stored and looked up in: s, or past AMD_NAME_MAX
 * bytes its prefix, "…" and a short hash written into out (name_cap.h).
 * NULL with err filled when out of memory. Every name the store writes
 * or matches goes through this (amd_store_intern does). */
const char *amd_store_name(struct amd_store *st, const char *s, char out[AMD_NAME_MAX + 1],
			   struct amd_err *err);

/* Id of s (capped by amd_store_name) in the string dictionary, adding it
 * when new (inside a transaction). Returns the id (> 0) or -1. */
int64_t amd_store_intern(struct amd_store *st, const char *s,
			 struct amd_err *err);

/* The text of dictionary id into *out (the caller frees it); *out is
 * NULL when no such id. -1 on a store error or out of memory. */
int amd_store_text(struct amd_store *st, int64_t id, char **out, struct amd_err *err);

/* A dictionary id and its text (NULL: the dictionary has no such id). */
struct amd_dict_text {
	int64_t id;
	char *s;
};

/* The texts of t[0..n)'s ids into t[i].s (the caller frees them), one
 * cached look-up each; -1 on a store error or out of memory (the texts
 * read so far are set). */
int amd_store_texts(struct amd_store *st, struct amd_dict_text *t, size_t n,
		    struct amd_err *err);

int amd_store_schema_version(struct amd_store *st);

/* The path the store was opened at (for messages). */
const char *amd_store_path(const struct amd_store *st);

#endif
