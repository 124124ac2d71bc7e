/* table.c — the text renderers of a table (lib/core/table.h): for the
 * terminal, a header, a rule and columns padded to their widest cell
 * (UTF-8 aware; cells escaped by cmd_shown), or fitted to a width by
 * shortening the table's elastic column inside ("…"; cmd_columns says
 * which width); for Markdown, a pipe table whose separator row carries
 * the alignment and whose emphasised cells are bold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

/* The first n characters of s (UTF-8 sequences whole), as bytes. */
static size_t prefix_bytes(const char *s, size_t n)
{
	size_t i = 0;
	for (; s[i] && n; n--)
		for (i++; ((unsigned char)s[i] & 0xC0) == 0x80; i++)
			;
	return i;
}

/* s in at most w columns: whole, or its head (two thirds: a kernel's or
 * function's name says most first) and tail around "…", in buf. */
static const char *shorten(const char *s, size_t w, char *buf, size_t cap)
{
	size_t have = width(s);
	if (have <= w || w < 3)
		return s;
	size_t tail = (w - 1) / 3, head = w - 1 - tail;
	size_t hb = prefix_bytes(s, head);
	const char *t = s + prefix_bytes(s, have - tail);
	if (hb + strlen("…") + strlen(t) >= cap)
		return s; /* wider than any terminal: left whole */
	snprintf(buf, cap, "%.*s…%s", (int)hb, s, t);
	return buf;
}

/* Header (row NULL) or body row: right-aligned body cells padded on the
 * left, every other cell on the right except in the last column; a cell
 * wider than its column (the elastic one, fitted) shortened. */
static void print_row(const struct amd_table *t, const char *const *row, const size_t *w,
		      FILE *out)
{
	const char *const *cells = row ? row : (const char *const *)t->head;
	for (size_t c = 0; c < t->ncols; c++) {
		char buf[4096];
		const char *cell = shorten(cmd_shown(cells[c]), w[c], buf, sizeof buf);
		size_t cw = width(cell);
		size_t gap = w[c] > cw ? w[c] - cw : 0;
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

/* The elastic column is never fitted below this (or its header). */
#define ELASTIC_MIN 30
/* The width of tables written where no terminal reads them (a pipe, a
 * file, CI's log) and COLUMNS is not set: the same lines wherever the
 * command runs. */
#define PIPE_COLUMNS 100

int cmd_columns(void)
{
	const char *env = getenv("COLUMNS");
	char *end;
	long v = env ? strtol(env, &end, 10) : 0;
	if (env && *env && !*end && v > 0 && v <= 100000)
		return (int)v;
	struct winsize ws;
	if (isatty(STDOUT_FILENO))
		return ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
	return PIPE_COLUMNS;
}

/* Shortens the elastic column of widths w so the row fits columns. */
static void fit(const struct amd_table *t, size_t *w, size_t columns)
{
	size_t total = 0;
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c] + (c ? 2 : 0);
	if (!columns || total <= columns || t->elastic < 0 || (size_t)t->elastic >= t->ncols)
		return;
	size_t e = (size_t)t->elastic, floor = width(t->head[e]);
	if (floor < ELASTIC_MIN)
		floor = ELASTIC_MIN;
	size_t over = total - columns;
	w[e] = w[e] > floor + over ? w[e] - over : w[e] > floor ? floor : w[e];
}

int table_print_fit(const struct amd_table *t, FILE *out, int columns)
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
	fit(t, w, columns > 0 ? (size_t)columns : 0);
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

int table_print(const struct amd_table *t, FILE *out)
{
	return table_print_fit(t, out, 0);
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
