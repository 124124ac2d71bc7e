/* ingest.h — turning paths into stored facts. The walker finds units
 * (a file, or an MLflow run directory), the format table detects each
 * unit's kind by content, the unit's parser streams its facts into a
 * sink, and the engine makes each unit one transaction in an ingest
 * target (model/sink.h). Every format has one contract, parse(input,
 * sink, err); the engine alone decides on which thread a parse runs
 * (engine_overlap.h). Adding a format is its folder (or a file in a
 * family folder) of lib/ingest/, one row in formats.c and one fixture in
 * tests/fixtures/formats/ (docs/design.md: "Add an input format"). */
#ifndef AMD_INGEST_H
#define AMD_INGEST_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "err.h"
#include "sink.h"

#define AMD_HEAD_BYTES 4096

/* What a parse that succeeded has to say to the user (a TensorBoard
 * file cut short), one line each, file first: the engine keeps them on
 * the unit and `amdahl ingest` prints them as warnings once the unit is
 * written (warnings.c). */
struct amd_warnings {
	char **v;
	size_t n, cap;
};
void amd_warnings_free(struct amd_warnings *w);

/* The largest param or tag value any reader accepts, in bytes (issue 40
 * item 7: one limit for every reader; MLflow itself caps values at 6000
 * characters). */
#define AMD_VALUE_MAX (1 << 20)
/* Reports param (is_tag 0) or tag key = value (len bytes) to the sink,
 * or fails naming where (the file, and the place in it), the key and
 * the limit when len is over AMD_VALUE_MAX (kv_value.c). Every reader's
 * params and tags go through it. */
int amd_sink_key_value(struct amd_sink *sink, int is_tag, const char *where, const char *key,
		       const char *value, size_t len, struct amd_err *err);

/* What a parser is given about its unit. Hints come from the path
 * (a trace under mlruns/<exp>/<run>/artifacts/) or from flags. */
struct amd_input {
	const char *path;
	const char *run_ext_hint;  /* run id the unit belongs to, or NULL */
	const char *run_name_hint; /* run name the unit belongs to, or NULL */
	const char *sweep_hint;    /* --sweep: overrides experiment names */
	int rank_hint;             /* --rank, -1 when not given */
	double sample_rate;        /* --rate for py-spy, 0 when not given */
	double sample_interval;    /* --interval (s) for a GPU log without times, 0 */
	const char *gpu_query;     /* --query: a header-less GPU log's columns, or NULL */
	const struct amd_config *config;
	/* Set by the engine, or NULL: nonzero once the unit's facts are no
	 * longer wanted (its write could not begin). A parse that reads long
	 * before it reports a fact may poll it and fail; one that reports as
	 * it reads needs not: its next sink call then fails. */
	atomic_int *stop;
	/* Set by the engine, or NULL (warnings dropped): the unit's
	 * warnings, added by amd_input_warn from the parse's thread. */
	struct amd_warnings *warnings;
};

/* Adds one warning line (printf-style, file first) to in's unit; 0, or
 * -1 out of memory (err says so). */
int amd_input_warn(const struct amd_input *in, struct amd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What parse returns when its unit holds nothing for the store (a
 * deleted run, a database whose runs are all deleted): err then says why
 * in a few words, without the path; the engine writes nothing, drops what
 * an older version of the path left, and reports the unit skipped. */
#define AMD_PARSE_NOTHING 1
/* What parse returns when the file is not of its format after all,
 * though detection took it for one (a TensorFlow or JAX profiler's
 * Chrome trace read as a PyTorch trace): err says why, file first. The
 * engine writes nothing. A file the user named fails; one found by
 * walking a directory (a TensorFlow trace among an MLflow run's
 * artifacts) is refused with a warning and the ingest goes on. */
#define AMD_PARSE_FOREIGN 2

struct amd_format {
	const char *name;
	const char *variants; /* what it reads, for ingest --formats (or NULL) */
	int is_dir; /* the unit is a directory (MLflow run) */
	/* Confidence 0 (not this format) .. 100, -1 when out of memory.
	 * For files, head holds the first bytes (gunzipped); for
	 * directories head is NULL. */
	int (*detect)(const char *path, const unsigned char *head, size_t n);
	/* The one contract: streams the unit's facts into sink, in order;
	 * 0, AMD_PARSE_NOTHING, or -1 with err one line naming the file and
	 * the place. It may be called on any thread, with a sink whose
	 * callbacks pass the facts on to another (queued_sink.h): a record
	 * handed to a callback needs to stay valid only during the call. */
	int (*parse)(const struct amd_input *in, struct amd_sink *sink,
		     struct amd_err *err);
	/* Directory units: hash every file that belongs to the unit. NULL
	 * for files (the file's own bytes are hashed). */
	int (*hash)(const char *path, char hex[65], uint64_t *size, struct amd_err *err);
	/* Directory units: the subdirectory the walker still descends into
	 * (an MLflow run's "artifacts"), or NULL. */
	const char *walk_into;
	/* Directory units: 1 when the walker must not descend into
	 * walk_into (a deleted MLflow run's artifacts belong to no run), or
	 * NULL. */
	int (*walk_skip)(const char *path);
	/* Files, or NULL: asked only when no format claims the head (every
	 * detect below 50), for a format whose mark may come late (an
	 * MLPerf result whose first :::MLLOG line follows kilobytes of a
	 * launcher's output): reads a bounded prefix of the file; a
	 * confidence like detect's. */
	int (*detect_deep)(const char *path, const unsigned char *head, size_t n);
	/* 1: each unit is a run of its own (an MLPerf log, a TensorBoard
	 * file): --run, which names the run of profiler files, is refused */
	int is_run;
};

/* Links the facts that follow to the run the input names (--run or a
 * path under a run's artifacts), or to no run (input_link.c). */
int amd_input_link(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err);

extern const struct amd_format *const amd_formats[];
const struct amd_format *amd_format_by_name(const char *name);
/* Best format for a file (or directory) in *out, NULL when none claims
 * it; -1 when the file's head cannot be read, -2 out of memory. */
int amd_detect(const char *path, int is_dir, const struct amd_format **out,
	       struct amd_err *err);
/* What a file no format claims looks like, in a few words for an error
 * ("an empty file", "binary data", "JSON, beginning '…'", "text whose
 * first line is '…'"), in out. */
void amd_detect_describe(const char *path, char *out, size_t cap);

/* LINKED: held already, now linked to the run --run names. SKIPPED:
 * it holds nothing for the store (AMD_PARSE_NOTHING; error says why).
 * REFUSED: found by walking, not of its format after all
 * (AMD_PARSE_FOREIGN; error says why); not a failure of the ingest. */
enum amd_unit_result { AMD_UNIT_ADDED, AMD_UNIT_REPLACED, AMD_UNIT_UNCHANGED,
		       AMD_UNIT_FAILED, AMD_UNIT_LINKED, AMD_UNIT_SKIPPED,
		       AMD_UNIT_REFUSED };

struct amd_unit {
	char *path;
	const struct amd_format *fmt;
	char *run_ext_hint;
	char *run_name_hint;
	enum amd_unit_result result;
	/* FAILED: the error; SKIPPED, REFUSED: why (malloc'd when set, else NULL; a
	 * unit carries no buffer of its own: 200,000 units took 200 MB) */
	char *error;
	int named; /* named by the user, not found by walking a directory */
	struct amd_warnings warnings; /* the parse's, when the unit was written */
};

struct amd_ingest_opts {
	const char *sweep;   /* --sweep */
	const char *run;     /* --run: run name or id for traces/py-spy */
	int rank;            /* --rank, -1 */
	double sample_rate;  /* --rate */
	double sample_interval; /* --interval */
	const char *gpu_query;  /* --query */
	int jobs;            /* -j */
	int events;          /* --events: traces' device events too (sink trace_event) */
	const char *format;  /* --format: force a format by name */
	const struct amd_config *config;
	/* called after each unit (from any worker; serialised by the engine) */
	void (*progress)(void *ctx, size_t done, size_t total, const struct amd_unit *u);
	void *progress_ctx;
};

struct amd_unit_list {
	struct amd_unit *v;
	size_t n, cap;
	size_t skipped; /* files in walked directories no format claims */
	/* units left unwritten because the store failed (the target's
	 * store_failed) on an earlier one: result FAILED, error "not
	 * read: ..."; the first store failure is in stop_error */
	size_t not_written;
	char stop_error[1024];
	/* units whose batch was committed (they count as written) but whose
	 * clean-up after the commit failed (sink.h batch_end returning 1):
	 * the rows they replace are left, seen by no reader; the first such
	 * failure is in uncleaned_error */
	size_t uncleaned;
	char uncleaned_error[1024];
};

/* The unit's error or reason, "out of memory" when it could not be kept. */
const char *amd_unit_error(const struct amd_unit *u);

/* Walks paths into units. A path that does not exist, or a file named
 * directly that no format claims, is an error. */
int amd_walk(const char *const *paths, size_t n, const struct amd_ingest_opts *o,
	     struct amd_unit_list *out, struct amd_err *err);
void amd_unit_list_free(struct amd_unit_list *l);
/* amd_same_run_fn (sink.h): held and path, with the same bytes, go to
 * the same run — the run id of the MLflow run folder above "artifacts"
 * (its meta.yaml's, else the folder's name), else the itwinai run name
 * above "torch-traces", else neither has a run. A copied run folder is
 * the same run; the same trace under two runs' artifacts is two sources
 * (issue 40 item 3). */
int amd_same_run(const char *held, const char *path);

/* Ingests every unit into target (each worker opens its own
 * connection). Returns the number of failed units (plus the uncleaned
 * ones), or -1 when nothing could start (err says why). At the first
 * failure that is the store's (full disk, a server gone), no more units
 * are read: they count in units->not_written, and only the units that
 * failed before are reported to the progress callback. */
int amd_ingest_units(const struct amd_ingest_target *target, struct amd_unit_list *units,
		     const struct amd_ingest_opts *o, struct amd_err *err);

/* Ingests one unit through a connection of target, in one transaction. */
int amd_ingest_one(const struct amd_ingest_target *target, void *conn, struct amd_unit *u,
		   const struct amd_ingest_opts *o, struct amd_err *err);

#endif
