/* fuzz_mlflow_run.c — the MLflow file-store run parser. The input is
 * split at "\n~~~\n" into the run's meta.yaml, its metric file
 * metrics/loss and its param file params/strategy, written into a
 * scratch run directory mlruns/0/run/ (with an experiment meta.yaml). */
#include "fuzz.h"

#define SEP "\n~~~\n"

extern const struct amd_format amd_fmt_mlflow_run;

/* Next part of the input (up to SEP or the end). */
static const uint8_t *part(const uint8_t **p, const uint8_t *end, size_t *n)
{
	const uint8_t *start = *p;
	if (!start) {
		*n = 0;
		return (const uint8_t *)"";
	}
	const uint8_t *s = memmem(start, (size_t)(end - start), SEP, strlen(SEP));
	*n = (size_t)((s ? s : end) - start);
	*p = s ? s + strlen(SEP) : NULL;
	return start;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *run, *exp;
	if (!run) {
		char *mlruns = amd_path_join(fuzz_scratch(), "mlruns");
		mkdir(mlruns, 0700);
		exp = amd_path_join(mlruns, "0");
		run = amd_path_join(exp, "run");
		free(mlruns);
		mkdir(exp, 0700);
		free(fuzz_write(exp, "meta.yaml", "name: fuzz\nexperiment_id: '0'\n", 30));
	}
	const uint8_t *p = data, *end = data + size;
	size_t n_meta, n_metric, n_param;
	const uint8_t *meta = part(&p, end, &n_meta);
	const uint8_t *metric = part(&p, end, &n_metric);
	const uint8_t *param = part(&p, end, &n_param);
	char *m = fuzz_write(run, "meta.yaml", meta, n_meta);
	char *metrics = amd_path_join(run, "metrics");
	char *params = amd_path_join(run, "params");
	free(fuzz_write(metrics, "loss", metric, n_metric));
	free(fuzz_write(params, "strategy", param, n_param));
	fuzz_parse_unit(&amd_fmt_mlflow_run, run);
	free(m);
	free(metrics);
	free(params);
	return 0;
}
