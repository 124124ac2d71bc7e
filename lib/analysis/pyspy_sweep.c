/* pyspy_sweep.c — a sweep's py-spy selections and frames' libraries
 * (see pyspy_sweep.h). */
#include "pyspy_sweep.h"

#include <stdio.h>
#include <string.h>

#include "file.h"
#include "runs.h"

static int sweep_has_run(const struct amd_run_view *runs, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (runs[i].id == id)
			return 1;
	return 0;
}

int amd_pyspy_sweep_runs(struct amd_store *st, const char *sweep, struct amd_pyspy_sel *out,
			 size_t max, size_t *n, struct amd_err *err)
{
	struct amd_pyspy_sel sel[AMD_PYSPY_SWEEP_SCAN];
	struct amd_run_view *runs;
	size_t nr;
	*n = 0;
	int found = amd_pyspy_runs(st, sel, AMD_PYSPY_SWEEP_SCAN, err);
	if (found < 0 || amd_runs_list(st, sweep, &runs, &nr, err) < 0)
		return -1;
	for (int i = 0; i < found && i < AMD_PYSPY_SWEEP_SCAN && *n < max; i++)
		if (sweep_has_run(runs, nr, sel[i].run_id))
			out[(*n)++] = sel[i];
	amd_runs_free(runs, nr);
	return 0;
}

void amd_pyspy_library(const char *file, char *buf, size_t n)
{
	const char *p = strstr(file, "site-packages/");
	if (!p)
		p = strstr(file, "dist-packages/");
	if (p) {
		p = strchr(p, '/') + 1;
		snprintf(buf, n, "%.*s", (int)strcspn(p, "/"), p);
	} else
		snprintf(buf, n, "%s", amd_basename(file));
}
