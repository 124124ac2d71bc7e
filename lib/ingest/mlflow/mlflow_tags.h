/* mlflow_tags.h — the run facts MLflow keeps in tags rather than in the
 * run's own fields (a run's name when it has none, its parent run), read
 * by every MLflow reader (file store, mlflow.db, REST JSON, CSV) so that
 * the run record it reports carries them (also its entry point and
 * program, by which runs without a name are grouped): the store only stores a run's
 * facts, it never looks inside tags for them (docs/design.md). */
#ifndef AMD_MLFLOW_TAGS_H
#define AMD_MLFLOW_TAGS_H

#include "run.h"

/* The tags that hold a run fact, in the order of amd_mlflow_tag_key. */
enum amd_mlflow_fact {
	AMD_MLFLOW_RUN_NAME,   /* mlflow.runName: the name of a run without one */
	AMD_MLFLOW_PARENT,     /* mlflow.parentRunId: the parent run's id */
	AMD_MLFLOW_ENTRY,      /* mlflow.project.entryPoint: a Projects run's entry point */
	AMD_MLFLOW_PROGRAM,    /* mlflow.source.name: the program or project source */
	AMD_MLFLOW_FACTS
};

/* The tag key of each fact (amd_mlflow_tag_key[AMD_MLFLOW_PARENT] is
 * "mlflow.parentRunId"). */
extern const char *const amd_mlflow_tag_key[AMD_MLFLOW_FACTS];

/* Fills r's facts from the values of those tags (value[f] the value of
 * fact f's tag as the reader reports the tag, NULL when the run has no
 * such tag): the name only when r has no name of its own, the others
 * only when r has none. The strings stay the caller's. */
void amd_mlflow_run_facts(struct amd_run_rec *r, const char *const value[AMD_MLFLOW_FACTS]);

#endif
