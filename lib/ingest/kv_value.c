/* kv_value.c — the one size limit on a param or tag value, applied by
 * every reader that reports one (ingest.h: AMD_VALUE_MAX,
 * amd_sink_key_value): the MLflow file store, mlflow.db, MLflow REST
 * JSON and CSV exports, TensorBoard hparams and MLPerf logs (itwinai's
 * params come through its MLflow file store). */
#include "ingest.h"

int amd_sink_key_value(struct amd_sink *sink, int is_tag, const char *where, const char *key,
		       const char *value, size_t len, struct amd_err *err)
{
	if (len > AMD_VALUE_MAX)
		return amd_fail(err, "%s: %s '%.200s': a value of %zu bytes, over the limit of %d"
				" bytes (1 MiB) for a param or tag value", where,
				is_tag ? "tag" : "param", key, len, AMD_VALUE_MAX);
	int (*fn)(struct amd_sink *, const char *, const char *, struct amd_err *) =
		is_tag ? sink->tag : sink->param;
	return fn ? fn(sink, key, value, err) : 0;
}
