/* table.c — plain text tables for the terminal: a header, a rule, and
 * columns padded to their widest cell (UTF-8 aware). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

struct table {
	int ncols;
	char **cells; /* rows * ncols, row 0 = headers */
	size_t rows, cap;
	int *right;
};

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

struct table *table_new(int ncols, const char *const *headers)
{
	struct table *t = calloc(1, sizeof *t);
	t->ncols = ncols;
	t->right = calloc((size_t)ncols, sizeof *t->right);
	table_add(t, headers);
	return t;
}

void table_align_right(struct table *t, int col)
{
	if (col >= 0 && col < t->ncols)
		t->right[col] = 1;
}

void table_add(struct table *t, const char *const *cells)
{
	if (t->rows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->cells = realloc(t->cells, t->cap * (size_t)t->ncols * sizeof *t->cells);
	}
	for (int c = 0; c < t->ncols; c++)
		t->cells[t->rows * (size_t)t->ncols + (size_t)c] = strdup(cells[c] ? cells[c] : "");
	t->rows++;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

void table_print(struct table *t, FILE *out)
{
	size_t *w = calloc((size_t)t->ncols, sizeof *w);
	for (size_t r = 0; r < t->rows; r++)
		for (int c = 0; c < t->ncols; c++) {
			size_t cw = width(t->cells[r * (size_t)t->ncols + (size_t)c]);
			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r < t->rows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * (size_t)t->ncols + (size_t)c];
			size_t gap = w[c] - width(s);
			if (c)
				fputs("  ", out);
			if (t->right[c] && r > 0)
				pad(out, gap);
			fputs(s, out);
			if (!(t->right[c] && r > 0) && c + 1 < t->ncols)
				pad(out, gap);
		}
		fputc('\n', out);
		if (r == 0) {
			size_t total = 0;
			for (int c = 0; c < t->ncols; c++)
				total += w[c] + (c ? 2 : 0);
			for (size_t i = 0; i < total; i++)
				fputs("─", out);
			fputc('\n', out);
		}
	}
	free(w);
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->right);
	free(t);
}
