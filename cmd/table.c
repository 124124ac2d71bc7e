/* table.c — the text renderers of a table (lib/core/table.h): for the
 * terminal, a header, a rule and columns padded to their widest cell
 * (UTF-8 aware; cells escaped by cmd_shown); for Markdown, a pipe table whose separator row carries
 * the alignment and whose emphasised cells are bold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/* Header (row NULL) or body row: right-aligned body cells padded on the
 * left, every other cell on the right except in the last column. */
static void print_row(const struct amd_table *t, const char *const *row, const size_t *w,
		      FILE *out)
{
	const char *const *cells = row ? row : (const char *const *)t->head;
	for (size_t c = 0; c < t->ncols; c++) {
		const char *cell = cmd_shown(cells[c]);
		size_t gap = w[c] - width(cell);
		int right = row && t->right[c];
		if (c)
			fputs("  ", out);
		if (right)
			pad(out, gap);
		fputs(cell, out);
		if (!right && c + 1 < t->ncols)
			pad(out, gap);
	}
	fputc('\n', out);
}

int table_print(const struct amd_table *t, FILE *out)
{
	if (!amd_table_ok(t))
		return -1;
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof *w);
	if (!w)
		return -1;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width(cmd_shown(t->head[c]));
		for (size_t r = 0; r < t->nrows; r++) {
			size_t cw = width(cmd_shown(amd_table_cell(t, r, c)));
			if (cw > w[c])
				w[c] = cw;
		}
	}
	print_row(t, NULL, w, out);
	size_t total = 0;
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c] + (c ? 2 : 0);
	for (size_t i = 0; i < total; i++)
		fputs("─", out);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++)
		print_row(t, (const char *const *)t->cells + r * t->ncols, w, out);
	free(w);
	return 0;
}

/* "| cell " Markdown-escaped (text_safe.h: '|', markup, backticks)
 * with newlines flattened; bold when strong. -1 when out of memory. */
static int md_cell(FILE *f, const char *s, int strong)
{
	struct amd_buf b = {0};
	if (amd_md_escape(&b, s) < 0) {
		amd_buf_free(&b);
		return -1;
	}
	fprintf(f, "%s%s%s", strong ? "| **" : "| ", b.data ? b.data : "", strong ? "** " : " ");
	amd_buf_free(&b);
	return 0;
}

int table_markdown(const struct amd_table *t, FILE *out)
{
	if (!amd_table_ok(t))
		return -1;
	int rc = 0;
	for (size_t c = 0; c < t->ncols; c++)
		rc |= md_cell(out, t->head[c], 0);
	fputs("|\n", out);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->right[c] ? "| ---: " : "| --- ", out);
	fputs("|\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			rc |= md_cell(out, amd_table_cell(t, r, c), t->strong[r * t->ncols + c]);
		fputs("|\n", out);
	}
	return rc;
}

/* One RFC 4180 field: quoted when it holds a comma, quote or newline. */
static void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int table_csv(const struct amd_table *t, FILE *out)
{
	if (!amd_table_ok(t))
		return -1;
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(c ? "," : "", out);
		csv_cell(out, t->head[c]);
	}
	fputs("\r\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			fputs(c ? "," : "", out);
			csv_cell(out, amd_table_cell(t, r, c));
		}
		fputs("\r\n", out);
	}
	return 0;
}
