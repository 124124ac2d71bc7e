/* table.c — the table model and its cell formatting; see table.h. */
#include "table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "num.h"

struct amd_table *amd_table_new(size_t ncols, const char *const *headers)
{
	struct amd_table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->ncols = ncols;
	t->elastic = -1;
	t->head = calloc(ncols ? ncols : 1, sizeof *t->head);
	t->right = calloc(ncols ? ncols : 1, sizeof *t->right);
	if (!t->head || !t->right) {
		amd_table_free(t);
		return NULL;
	}
	for (size_t c = 0; c < ncols; c++)
		if (!(t->head[c] = strdup(headers[c] ? headers[c] : ""))) {
			amd_table_free(t);
			return NULL;
		}
	return t;
}

void amd_table_free(struct amd_table *t)
{
	if (!t)
		return;
	for (size_t c = 0; t->head && c < t->ncols; c++)
		free(t->head[c]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (size_t i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->head);
	free(t->cells);
	free(t->strong);
	free(t->right);
	free(t->notes);
	free(t);
}

void amd_table_right(struct amd_table *t, size_t col)
{
	if (t && col < t->ncols)
		t->right[col] = 1;
}

/* Room for one more row in cells and strong (both nrows·ncols long). */
static int grow_rows(struct amd_table *t)
{
	if (t->nrows < t->cap)
		return 0;
	size_t cap = t->cap ? 2 * t->cap : 16, cells = cap * (t->ncols ? t->ncols : 1);
	char **c = realloc(t->cells, cells * sizeof *c);
	if (!c)
		return -1;
	t->cells = c;
	unsigned char *s = realloc(t->strong, cells * sizeof *s);
	if (!s)
		return -1;
	t->strong = s;
	t->cap = cap;
	return 0;
}

int amd_table_add(struct amd_table *t, const char *const *cells)
{
	if (!t)
		return -1;
	if (t->failed || grow_rows(t) < 0) {
		t->failed = 1;
		return -1;
	}
	char **row = t->cells + t->nrows * t->ncols;
	for (size_t c = 0; c < t->ncols; c++) {
		row[c] = strdup(cells[c] ? cells[c] : "");
		if (!row[c]) {
			while (c--)
				free(row[c]);
			t->failed = 1;
			return -1;
		}
	}
	memset(t->strong + t->nrows * t->ncols, 0, t->ncols);
	t->nrows++;
	return 0;
}

void amd_table_strong(struct amd_table *t, size_t col)
{
	if (t && t->nrows && col < t->ncols)
		t->strong[(t->nrows - 1) * t->ncols + col] = 1;
}

int amd_table_note(struct amd_table *t, const char *fmt, ...)
{
	if (!t)
		return -1;
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0 || amd_grow(&t->notes, t->nnotes, &t->notes_cap, sizeof *t->notes, 4) < 0) {
		if (n >= 0)
			free(s);
		t->failed = 1;
		return -1;
	}
	t->notes[t->nnotes++] = s;
	return 0;
}

const char *amd_table_cell(const struct amd_table *t, size_t r, size_t c)
{
	if (r >= t->nrows || c >= t->ncols)
		return "";
	return t->cells[r * t->ncols + c];
}

int amd_table_ok(const struct amd_table *t)
{
	return t && !t->failed;
}

/* ---- cells ---- */

const char *amd_cell_or(char *buf, size_t n, const char *fmt, double v, const char *none)
{
	if (amd_num_ok(v))
		snprintf(buf, n, fmt, v);
	else
		snprintf(buf, n, "%s", none);
	return buf;
}

const char *amd_cell(char *buf, size_t n, const char *fmt, double v)
{
	return amd_cell_or(buf, n, fmt, v, AMD_CELL_NONE);
}

const char *amd_cell_pct(char *buf, size_t n, const char *fmt, double v)
{
	if (amd_num_ok(v))
		snprintf(buf, n, fmt, v * 100);
	else
		snprintf(buf, n, "%s", AMD_CELL_NONE);
	return buf;
}

const char *amd_cell_sig(char *buf, size_t n, double v)
{
	double a = fabs(v);
	const char *fmt = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f"
			: a >= 0.01 ? "%.3f" : "%.2g";
	return amd_cell(buf, n, fmt, v);
}
