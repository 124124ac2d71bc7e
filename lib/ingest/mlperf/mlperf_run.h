/* mlperf_run.h — the events of one MLPerf log (mlperf_log.c reads the
 * lines) and how they become one run like MLflow's (mlperf_run.c). */
#ifndef AMD_MLPERF_RUN_H
#define AMD_MLPERF_RUN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "buf.h"

#include "err.h"
#include "sink.h"
#include "trace_strtab.h"

enum { AMD_MLPERF_POINT, AMD_MLPERF_START, AMD_MLPERF_END };

/* What a line says besides its key and value. */
struct amd_mlperf_event {
	int kind;          /* AMD_MLPERF_POINT, _START, _END */
	int64_t time_ms;
	int64_t progress;  /* metadata samples_count, epoch_num or step; -1 */
	double epoch;      /* metadata epoch_num when progress is it, else NAN */
	double samples;    /* metadata samples_count, NAN when absent */
	const char *status; /* metadata status (run_stop), or NULL */
};

struct mlperf_ev;      /* one event, without texts (mlperf_run.c) */
struct mlperf_key;     /* what the events of one key say (mlperf_run.c) */
struct mlperf_kv;

/* Events are kept small (a key id, times, numbers) while the file is
 * read, since a key's role (param or metric) is known only at its end;
 * each distinct key is stored once (keys) with its first text. */
struct amd_mlperf_log {
	const char *path;
	struct mlperf_ev *ev;
	size_t nev, cap;
	struct amd_strtab names; /* key id -> "KEY" or "KEY/MEMBER" */
	struct mlperf_key *keys; /* by key id */
	size_t capkeys;
	struct amd_buf name;     /* scratch: KEY/MEMBER */
	struct mlperf_kv *sys;   /* the :::SYSJSON fields kept */
	size_t nsys, capsys;
	long rank;               /* the rank whose events are the run's, -1 none */
	unsigned char *ranks;    /* other ranks seen (by rank, < AMD_MLPERF_MAX_RANK) */
	size_t capranks, nranks; /* nranks: distinct other ranks */
	long max_rank;           /* the highest other rank seen, -1 none */
	int fractional;          /* some progress is a fractional epoch_num */
	struct mlperf_kv *stops; /* other ranks' run_stop: "rank", status */
	size_t nstops, capstops;
};

#define AMD_MLPERF_MAX_RANK (1L << 20)

/* Adds an event: key (KEY/MEMBER when member is not NULL), what e says
 * and its value (a number, string or bool is kept; NULL, arrays and
 * null are not). where names the file and line for errors. */
int amd_mlperf_add(struct amd_mlperf_log *log, const char *key, const char *member,
		   const struct amd_mlperf_event *e, const cJSON *value, const char *where,
		   struct amd_err *err);
/* Keeps a :::SYSJSON field (a string or a number). */
int amd_mlperf_system(struct amd_mlperf_log *log, const char *key, const cJSON *value,
		      const char *where, struct amd_err *err);
/* Notes an event of a rank other than the run's: status is its
 * run_stop's metadata status ("" without one), NULL for other keys. */
int amd_mlperf_other_rank(struct amd_mlperf_log *log, long rank, const char *status,
			  const char *where, struct amd_err *err);
/* Reports the log's run, params and metrics to sink. */
int amd_mlperf_emit(const struct amd_mlperf_log *log, struct amd_sink *sink,
		    struct amd_err *err);
void amd_mlperf_free(struct amd_mlperf_log *log);

#endif
