/* mlflow_sweep.c — MLflow's `Default` experiment named after the folder
 * holding its store (mlflow_sweep.h). */
#include "mlflow_sweep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *amd_mlflow_sweep_name(const char *exp, const char *store, char *buf, size_t len)
{
	if (!exp || strcmp(exp, "Default") != 0 || !store)
		return exp;
	char *real = realpath(store, NULL);
	if (!real)
		return exp;
	char *slash = strrchr(real, '/');
	if (slash)
		*slash = '\0'; /* the folder holding the store */
	const char *holder = strrchr(real, '/');
	holder = holder ? holder + 1 : real;
	const char *out = exp;
	if (*holder && (size_t)snprintf(buf, len, "%s", holder) < len)
		out = buf;
	free(real);
	return out;
}
