/* mlflow_rest.h — between the two halves of the MLflow REST reader:
 * mlflow_rest.c turns a response's values into facts (a runs/search run,
 * one metric point) with one-line errors; mlflow_rest_stream.c streams
 * the file through yajl and hands it those values, one run or one point
 * at a time, so memory stays bounded whatever the file's size. */
#ifndef AMD_MLFLOW_REST_H
#define AMD_MLFLOW_REST_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "ingest.h"

struct amd_rest {
	const struct amd_input *in;
	struct amd_sink *sink;
	struct amd_err *err;
};

/* One JSON value as the rules below need it; str is valid only during
 * the call it is passed to. */
enum amd_rest_jtype { AMD_RJ_ABSENT, AMD_RJ_NULL, AMD_RJ_NUM, AMD_RJ_STR, AMD_RJ_OTHER };
struct amd_rest_jval {
	enum amd_rest_jtype type;
	double num;
	const char *str;
};

/* A metric's {key, value, timestamp, step}: key NULL when absent, empty
 * or not a string; *_rc -1 when that field is not what it must be. */
struct amd_rest_metric {
	const char *key;
	int value_rc, ts_rc, step_rc;
	double value;
	int64_t ts, step;
};

/* "value": a number, or a string ("NaN", "Infinity", "-Infinity", "1.5");
 * -1 otherwise. */
int amd_rest_double(const struct amd_rest_jval *v, double *out);
/* "timestamp", "step", "start_time": a number that is an integer or a
 * decimal string; absent or null is 0; -1 otherwise. */
int amd_rest_int64(const struct amd_rest_jval *v, int64_t *out);
/* Fails with "FILE: WHERE: WHAT". */
int amd_rest_fail(const struct amd_rest *r, const char *where, const char *what);
/* Point i of the "metrics" array at where ("history", "runs[3]"). */
int amd_rest_metric(const struct amd_rest *r, const char *where, long i,
		    const struct amd_rest_metric *m);
/* Element i of runs/search's "runs" array, whole (one run is small). */
int amd_rest_run(const struct amd_rest *r, const cJSON *run, long i);
/* Before get-history's points: the run --run names (a response names
 * none). */
int amd_rest_history_begin(const struct amd_rest *r);
/* Streams r->in's file, calling the three above (mlflow_rest_stream.c). */
int amd_rest_stream(const struct amd_rest *r);

#endif
