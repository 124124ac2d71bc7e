/* run.h — a run as every stage sees it: the facts a parser reports about
 * one (struct amd_run_rec) and the statuses MLflow gives runs, with the
 * one rule for which statuses count in statistics. See docs/design.md. */
#ifndef AMD_MODEL_RUN_H
#define AMD_MODEL_RUN_H

#include <stdint.h>

/* MLflow run statuses, as the file store numbers them. */
enum amd_run_status {
	AMD_STATUS_UNKNOWN = 0,
	AMD_STATUS_RUNNING = 1,
	AMD_STATUS_SCHEDULED = 2,
	AMD_STATUS_FINISHED = 3,
	AMD_STATUS_FAILED = 4,
	AMD_STATUS_KILLED = 5,
	AMD_STATUS_OTHER = 6, /* the source gave a status MLflow does not define */
};

struct amd_run_rec {
	const char *ext_id;        /* required: MLflow run id or a derived id */
	const char *name;          /* run name, NULL if unknown */
	const char *sweep;         /* experiment name, NULL if unknown */
	const char *sweep_ext_id;  /* experiment id */
	const char *parent_ext_id; /* mlflow.parentRunId, or NULL */
	/* what launched the run, as its source says (NULL if unknown): the
	 * entry point of a project and the program or source file; runs
	 * without a name are grouped by them (runs.h) */
	const char *entry_point;
	const char *program;
	int status;                /* enum amd_run_status */
	int64_t start_ms, end_ms;  /* 0 when unknown */
	/* 1: start_ms..end_ms is this unit's part of a run several units
	 * make (a TensorBoard run directory's event files, which writers only
	 * append to): the store widens the run's span to cover every part
	 * (min of starts, max of ends) instead of replacing it */
	int span_part;
};

/* The kind of source (its importer's name) whose runs are span parts:
 * a remote store keeps no span_part flag, so its reader (table_load.h)
 * widens a run over the rows of sources of this kind. tb_run.c is the
 * one importer that sets span_part. */
#define AMD_SPAN_PART_KIND "tensorboard"

const char *amd_status_name(int status);
/* The status an MLflow name ("FINISHED", …) stands for; AMD_STATUS_UNKNOWN
 * (0) for NULL or any other text. */
int amd_status_parse(const char *name);
/* A status as a source wrote it: NULL or "" is UNKNOWN (it did not
 * say), a name of MLflow's (amd_status_parse) that status, any other
 * text OTHER. */
int amd_status_of_text(const char *text);
/* The same for MLflow's numbers (the file store's meta.yaml). */
int amd_status_of_number(const char *text);
/* FINISHED runs (and runs whose source gives no status) count in
 * statistics; FAILED, KILLED, RUNNING, SCHEDULED and OTHER ones (a
 * status amdahl does not know is not taken for finished) are shown with
 * a note and left out. */
int amd_status_ok(int status);

#endif
