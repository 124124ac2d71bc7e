/* row_batch.c — the queued multi-row INSERTs of row_batch.h. */
#include "row_batch.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* "INSERT INTO into VALUES(?,…),…" for n rows of cols values. */
static sqlite3_stmt *prepare_rows(struct amd_store *st, const struct row_batch *b, size_t n,
				  struct amd_err *err)
{
	struct amd_buf sql = {0};
	int rc = amd_buf_printf(&sql, "INSERT INTO %s VALUES", b->into);
	for (size_t r = 0; r < n && rc == 0; r++) {
		rc = amd_buf_append(&sql, r ? ",(?" : "(?", r ? 3 : 2);
		for (int c = 1; c < b->cols && rc == 0; c++)
			rc = amd_buf_append(&sql, ",?", 2);
		if (rc == 0)
			rc = amd_buf_append(&sql, ")", 1);
	}
	sqlite3_stmt *q = NULL;
	if (rc < 0)
		amd_fail(err, "%s: out of memory", amd_store_path(st));
	else
		q = amd_store_prepare(st, sql.data, err);
	amd_buf_free(&sql);
	return q;
}

/* Binds n rows from cells and runs q. */
static int run_rows(struct amd_store *st, sqlite3_stmt *q, const struct row_cell *cells,
		    size_t n, int cols, struct amd_err *err)
{
	for (size_t k = 0; k < n * (size_t)cols; k++) {
		int i = (int)k + 1;
		if (cells[k].type == ROW_INT)
			sqlite3_bind_int64(q, i, cells[k].v.i);
		else if (cells[k].type == ROW_REAL)
			sqlite3_bind_double(q, i, cells[k].v.d);
		else
			sqlite3_bind_null(q, i);
	}
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? 0 : amd_store_step_fail(st, rc, err);
}

int row_batch_add(struct amd_store *st, struct row_batch *b, const struct row_cell *row,
		  struct amd_err *err)
{
	size_t cols = (size_t)b->cols;
	if (!b->cells && !(b->cells = malloc(ROW_BATCH * cols * sizeof *b->cells)))
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	memcpy(b->cells + b->n * cols, row, cols * sizeof *row);
	if (++b->n < ROW_BATCH)
		return 0;
	if (!b->full && !(b->full = prepare_rows(st, b, ROW_BATCH, err)))
		return -1;
	b->n = 0;
	return run_rows(st, b->full, b->cells, ROW_BATCH, b->cols, err);
}

int row_batch_flush(struct amd_store *st, struct row_batch *b, struct amd_err *err)
{
	if (b->n == 0)
		return 0;
	sqlite3_stmt *q = prepare_rows(st, b, b->n, err);
	int rc = q ? run_rows(st, q, b->cells, b->n, b->cols, err) : -1;
	sqlite3_finalize(q);
	b->n = 0;
	return rc;
}

void row_batch_free(struct row_batch *b)
{
	free(b->cells);
	sqlite3_finalize(b->full);
	b->cells = NULL;
	b->full = NULL;
	b->n = 0;
}
