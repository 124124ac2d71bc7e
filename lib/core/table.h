/* table.h — a table as data, and the formatting of its cells. A row
 * builder fills one (headers, rows of text cells, which columns align
 * right, which column may be shortened, cells to emphasise, notes under
 * it); a renderer draws it: the terminal's and the Markdown's in
 * cmd/table.c, the PDF's in report/pdf.c. The cell functions are the one
 * place numbers become table text ("–" where there is no value). */
#ifndef AMD_TABLE_H
#define AMD_TABLE_H

#include <stddef.h>

struct amd_table {
	size_t ncols;
	size_t nrows;          /* body rows; the headers are not counted */
	char **head;           /* ncols headers */
	char **cells;          /* nrows * ncols, row by row */
	unsigned char *strong; /* nrows * ncols: 1 for an emphasised cell */
	unsigned char *right;  /* right[c]: column c aligns right (numbers) */
	int elastic;           /* the column shortened when the table is too wide; -1: none */
	char **notes;          /* sentences that go under the table */
	size_t nnotes;
	size_t cap, notes_cap;
	int failed;            /* an allocation failed: the table is incomplete */
};

/* A table of ncols columns with these headers; NULL when out of memory.
 * The functions below take a NULL table as one that failed (adds return
 * -1, amd_table_ok says 0), so a builder may fill it without checking
 * each step and report once. */
struct amd_table *amd_table_new(size_t ncols, const char *const *headers);
void amd_table_free(struct amd_table *t);

/* Column col aligns right. */
void amd_table_right(struct amd_table *t, size_t col);
/* Appends a row of ncols cells (NULL cells are empty). -1 when out of
 * memory; t->failed stays set, so a builder may check once at the end. */
int amd_table_add(struct amd_table *t, const char *const *cells);
/* Emphasises cell col of the last row (Markdown renders it bold). */
void amd_table_strong(struct amd_table *t, size_t col);
/* Appends a note (printf-style); -1 when out of memory (t->failed set). */
int amd_table_note(struct amd_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Cell c of body row r; "" outside the table. */
const char *amd_table_cell(const struct amd_table *t, size_t r, size_t c);
/* 1 when the table is complete (every add succeeded). */
int amd_table_ok(const struct amd_table *t);

/* ---- cells ---- */

/* What a cell says where there is no value. */
#define AMD_CELL_NONE "–"

/* v printed with fmt (one double conversion), or none when v is NaN or
 * infinite. Returns buf. */
const char *amd_cell_or(char *buf, size_t n, const char *fmt, double v, const char *none);
/* The same with AMD_CELL_NONE. */
const char *amd_cell(char *buf, size_t n, const char *fmt, double v);
/* v·100 printed with fmt ("%.1f%%"), or AMD_CELL_NONE when v is not finite. */
const char *amd_cell_pct(char *buf, size_t n, const char *fmt, double v);
/* v with the digits its size calls for: 1234 → "1234", 12.34 → "12.3",
 * 1.234 → "1.23", 0.1234 → "0.123", smaller: two significant digits
 * ("0.0012"); AMD_CELL_NONE when not finite. */
const char *amd_cell_sig(char *buf, size_t n, double v);

#endif
