/* tb_run.h — the run a TensorBoard event file belongs to and the facts
 * it reports (tb_run.c); tb_events.c reads the records. */
#ifndef AMD_TB_RUN_H
#define AMD_TB_RUN_H

#include <stdint.h>

#include "err.h"
#include "sink.h"
#include "tb_event.pb-c.h"

struct tb_run;

/* The run of the event file at path (see tb_run.c for the naming); or,
 * when run_ext_id is not NULL (the file lies in an MLflow run's
 * artifacts), that run, which the file's facts join (sweep: --sweep, or
 * NULL). */
struct tb_run *tb_run_new(const char *path, const char *run_ext_id, const char *sweep,
			  struct amd_err *err);
/* An event's wall time (seconds), for the run's start and end. */
int tb_run_seen(struct tb_run *r, double wall_time);
/* A scalar: the metric tag (prefixed by the writer's folder) at step. */
int tb_run_scalar(struct tb_run *r, struct amd_sink *sink, const char *tag, int64_t step,
		  double wall_time, double value, struct amd_err *err);
/* An hparam of the hparams plugin's session start: a param. */
int tb_run_hparam(struct tb_run *r, struct amd_sink *sink, const char *where, const char *key,
		  const Amdtb__HParamValue *v, struct amd_err *err);
/* At the end of the file: the run (again) with its start and end. */
int tb_run_finish(struct tb_run *r, struct amd_sink *sink, struct amd_err *err);
void tb_run_free(struct tb_run *r);

#endif
