/* warnings.c — the warnings of a parse that succeeded (ingest.h): lines
 * a parser adds to its unit through its input, which the engine keeps on
 * the unit for `amdahl ingest` to print. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ingest.h"

int amd_input_warn(const struct amd_input *in, struct amd_err *err, const char *fmt, ...)
{
	struct amd_warnings *w = in->warnings;
	if (!w)
		return 0;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	char *copy = strdup(line);
	if (!copy || amd_grow(&w->v, w->n, &w->cap, sizeof *w->v, 4) < 0) {
		free(copy);
		return amd_fail(err, "%s: out of memory", in->path);
	}
	w->v[w->n++] = copy;
	return 0;
}

void amd_warnings_free(struct amd_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	w->v = NULL;
	w->n = w->cap = 0;
}
