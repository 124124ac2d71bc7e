/* mlflow_tags.c — a run's facts from the tags MLflow keeps them in
 * (mlflow_tags.h). */
#include "mlflow_tags.h"

const char *const amd_mlflow_tag_key[AMD_MLFLOW_FACTS] = {
	[AMD_MLFLOW_RUN_NAME] = "mlflow.runName",
	[AMD_MLFLOW_PARENT] = "mlflow.parentRunId",
	[AMD_MLFLOW_ENTRY] = "mlflow.project.entryPoint",
	[AMD_MLFLOW_PROGRAM] = "mlflow.source.name",
};

void amd_mlflow_run_facts(struct amd_run_rec *r, const char *const value[AMD_MLFLOW_FACTS])
{
	if (!r->name)
		r->name = value[AMD_MLFLOW_RUN_NAME];
	if (!r->parent_ext_id)
		r->parent_ext_id = value[AMD_MLFLOW_PARENT];
	if (!r->entry_point)
		r->entry_point = value[AMD_MLFLOW_ENTRY];
	if (!r->program)
		r->program = value[AMD_MLFLOW_PROGRAM];
}
