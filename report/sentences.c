/* sentences.c — the list of sentences (see sentences.h). */
#include "sentences.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"

int report_text_add(struct report_text *t, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0 || amd_grow(&t->v, t->n, &t->cap, sizeof *t->v, 8) < 0) {
		if (rc >= 0)
			free(s);
		t->failed = 1;
		return -1;
	}
	t->v[t->n++] = s;
	return 0;
}

void report_text_free(struct report_text *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
	t->failed = 0;
}
