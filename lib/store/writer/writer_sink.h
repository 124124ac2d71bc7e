/* writer_sink.h — the state of one unit's sink (writer.h) and the
 * helpers its parts share: writer.c (the transaction, sources, runs,
 * params, tags, metrics, links) and writer_profile.c (traces, operator
 * averages), writer_gpu.c (GPU samples), writer_stack.c (py-spy stacks),
 * writer_regions.c (regions) and writer_metrics.c (metric series).
 * Included only by those and writer_events.c, writer_names.c. */
#ifndef AMD_WRITER_SINK_H
#define AMD_WRITER_SINK_H

#include "call_pack.h"
#include "metric_pack.h"
#include "op_pack.h"
#include "region_pack.h"
#include "row_batch.h"
#include "sqlite_int.h"
#include "writer.h"

#define WRITER_METRIC_KEYS 16

struct amd_store_sink {
	struct amd_sink iface;
	struct amd_store *st;
	char *path, *kind, *sha, *sweep_override;
	uint64_t size;
	const struct amd_config *cfg;
	int begun, skip;
	enum amd_source_state state;
	int64_t source_id;
	int64_t run_id; /* current run, 0 = none */
	amd_seed_run_fn *seed_run; /* a run not held here (writer.h), or NULL */
	void *seed_ctx;
	amd_same_run_fn *same_run; /* the state's rule for copies (sink.h), or NULL */
	int64_t *touched;
	size_t n_touched, cap_touched;
	sqlite3_stmt *ins_metric, *ins_param, *ins_tag;
	sqlite3_stmt *ins_gpu; /* cached: logs have many rows */
	struct writer_gpus *gpus; /* nvidia-smi samples not written yet (writer_gpu.c) */
	struct writer_name_ids *name_ids; /* the names callback's pointers (writer_names.c) */
	/* rows readers report one by one, held and written many to an
	 * INSERT (row_batch.h; writer_regions.c, writer_profile.c) */
	struct row_batch region_detail_rows;
	int64_t next_region; /* the id the unit's next region takes, 0 before its first */
	/* the unit's regions not written yet, all of run region_run (0:
	 * none), packed into one region_pack row (writer_regions.c) */
	struct amd_packed_region *regions;
	size_t n_regions, cap_regions;
	int64_t region_run;
	/* the last kind and profiler a region named, with their dict ids
	 * (writer_regions.c): a reader gives the same two to all its regions */
	struct writer_memo {
		char s[32];
		int64_t id; /* 0: none yet */
	} kind_memo, profiler_memo;
	/* the unit's operator averages not written yet, all of run ops_run,
	 * packed into one op_average_pack row (writer_ops.c) */
	struct amd_packed_op *ops;
	size_t n_ops, cap_ops;
	int64_t ops_run;
	/* the unit's caller edges not written yet, packed into one
	 * region_call_pack row (writer_calls.c) */
	struct amd_packed_call *calls;
	size_t n_calls, cap_calls;
	/* py-spy stacks (writer_stack.c): a frame's look-up; the unit's
	 * frames and nodes in memory, its rows not written yet */
	sqlite3_stmt *sel_frame;
	struct writer_stacks *stacks;
	/* the last trace written, which trace_event rows belong to
	 * (writer_events.c), with its rank (-1 unknown) and a statement */
	int64_t trace_id;
	int trace_rank;
	sqlite3_stmt *ins_event, *sel_name;
	/* the last metric keys and their dict ids (a unit's keys come
	 * together, or interleaved as TensorBoard's tags are): */
	char *metric_key[WRITER_METRIC_KEYS];
	int64_t metric_key_id[WRITER_METRIC_KEYS];
	unsigned metric_key_next; /* the slot replaced next */
	/* each key's points of one run not written yet (writer_metrics.c):
	 * at most AMD_METRIC_CHUNK, packed into a metric_series row */
	struct writer_series {
		int64_t run;
		struct amd_metric_cols c;
	} metric_buf[WRITER_METRIC_KEYS];
	unsigned char *metric_blob; /* AMD_METRIC_CHUNK points packed */
	int64_t metric_chunk; /* the next chunk row's number in the unit */
};

/* Starts the unit's transaction at its first fact; 1 when the unit is
 * to be skipped (another process ingested it meanwhile), 0 or -1. */
int writer_begin(struct amd_store_sink *ss, struct amd_err *err);

/* Every sink callback starts with this. */
#define WRITER_ENTER(ss, err)                                    \
	do {                                                     \
		int entered_ = writer_begin((ss), (err));        \
		if (entered_ != 0)                               \
			return entered_ < 0 ? -1 : 0;            \
	} while (0)

/* writer_metrics.c: the sink's metric callback; writing every buffered
 * series (at the end of the unit); freeing the buffers. */
int writer_metric(struct amd_sink *s, const char *key, int64_t step, int64_t ts_ms,
		  double value, struct amd_err *err);
int writer_metrics_flush(struct amd_store_sink *ss, struct amd_err *err);
void writer_metrics_free(struct amd_store_sink *ss);

/* writer_gpu.c: writing every GPU's buffered samples (at the end of the
 * unit); freeing the buffers. */
int writer_gpus_flush(struct amd_store_sink *ss, struct amd_err *err);
void writer_gpus_free(struct amd_store_sink *ss);

/* writer_ops.c: writing the buffered operator averages (before SQL
 * that reads them, at the end of the unit); freeing the buffer. */
int writer_ops_flush(struct amd_store_sink *ss, struct amd_err *err);
void writer_ops_free(struct amd_store_sink *ss);

/* The SQLite error of the last statement, after the unit's path. */
int writer_sql_fail(struct amd_store_sink *ss, struct amd_err *err);
/* Holds row of table t in b (one of the sink's held batches). */
int writer_hold(struct amd_store_sink *ss, struct row_batch *b, struct row_table *t,
		const struct row_cell *row, struct amd_err *err);
/* Writes every held row (before SQL that reads their tables). */
int writer_held_flush(struct amd_store_sink *ss, struct amd_err *err);
/* The current run as a row cell: NULL without one. */
struct row_cell writer_run_cell(const struct amd_store_sink *ss);

/* The statement in *slot, prepared on first use and kept until the end. */
sqlite3_stmt *writer_cached(struct amd_store_sink *ss, sqlite3_stmt **slot, const char *sql,
			    struct amd_err *err);

/* Steps a bound statement and resets it. */
int writer_exec(struct amd_store_sink *ss, sqlite3_stmt *q, struct amd_err *err);

/* Binds the current run, or NULL when there is none. */
void writer_bind_run(struct amd_store_sink *ss, sqlite3_stmt *q, int i);
/* Bind NULL for NULL text, 0 and NAN. */
void writer_bind_text(sqlite3_stmt *q, int i, const char *s);
void writer_bind_int(sqlite3_stmt *q, int i, int64_t v);
void writer_bind_double(sqlite3_stmt *q, int i, double v);

#endif
