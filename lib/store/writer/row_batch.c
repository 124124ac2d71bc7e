/* row_batch.c — the held rows and multi-row INSERTs of row_batch.h:
 * each table's two statement texts, made once per process, and the
 * batches written through the connection's statement cache. */
#include "row_batch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stmt_cache.h"

static pthread_mutex_t sql_lock = PTHREAD_MUTEX_INITIALIZER;

/* "INSERT INTO into VALUES" and rows tuples of cols "?" into out; 0, or
 * -1 when out is too small. */
static int write_values(char *out, size_t size, const char *into, int cols, int rows)
{
	size_t len = (size_t)snprintf(out, size, "INSERT INTO %s VALUES", into);
	for (int r = 0; r < rows && len < size; r++)
		for (int c = 0; c < cols && len < size; c++)
			len += (size_t)snprintf(out + len, size - len, "%s?%s",
						c ? "," : r ? ",(" : "(", c == cols - 1 ? ")" : "");
	return len < size ? 0 : -1;
}

/* Makes t's statement texts, once. */
static int table_ready(struct row_table *t)
{
	if (atomic_load_explicit(&t->ready, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&sql_lock);
	int rc = 0;
	if (!atomic_load_explicit(&t->ready, memory_order_relaxed)) {
		int rows = ROW_BATCH_PARAMS / t->cols;
		t->rows = rows < ROW_BATCH_ROWS ? rows : ROW_BATCH_ROWS;
		rc = write_values(t->one_sql, sizeof t->one_sql, t->into, t->cols, 1) < 0 ||
				     write_values(t->many_sql, sizeof t->many_sql, t->into, t->cols,
						  t->rows) < 0
			     ? -1
			     : 0;
		if (rc == 0)
			atomic_store_explicit(&t->ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&sql_lock);
	return rc;
}

int row_table_rows(struct row_table *t)
{
	return table_ready(t) < 0 ? -1 : t->rows;
}

static void bind_cell(sqlite3_stmt *q, int i, const struct row_cell *c)
{
	if (c->type == ROW_INT)
		sqlite3_bind_int64(q, i, c->v.i);
	else if (c->type == ROW_REAL)
		sqlite3_bind_double(q, i, c->v.d);
	else
		sqlite3_bind_null(q, i);
}

static int store_fail(struct amd_store *st, const struct row_batch *b, struct amd_err *err)
{
	return amd_fail(err, "%s: store: %s", b->path ? b->path : amd_store_path(st),
			sqlite3_errmsg(st->db));
}

/* rows rows from cells by sql (a statement of that many rows). */
static int write_rows(struct amd_store *st, const struct row_batch *b, const char *sql,
		      const struct row_cell *cells, int rows, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(st, sql, err);
	if (!q)
		return -1;
	for (int i = 0; i < rows * b->table->cols; i++)
		bind_cell(q, i + 1, &cells[i]);
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	return rc == SQLITE_DONE ? 0 : store_fail(st, b, err);
}

int row_batch_add(struct amd_store *st, struct row_batch *b, const struct row_cell *row,
		  struct amd_err *err)
{
	struct row_table *t = b->table;
	if (!b->cells) {
		if (table_ready(t) < 0)
			return amd_fail(err, "%s: store: the statement for %s is too long",
					amd_store_path(st), t->into);
		if (!(b->cells = malloc((size_t)t->rows * (size_t)t->cols * sizeof *b->cells)))
			return amd_fail(err, "%s: out of memory", amd_store_path(st));
	}
	memcpy(b->cells + (size_t)b->n * (size_t)t->cols, row, (size_t)t->cols * sizeof *row);
	if (++b->n < t->rows)
		return 0;
	b->n = 0;
	return write_rows(st, b, t->many_sql, b->cells, t->rows, err);
}

int row_batch_flush(struct amd_store *st, struct row_batch *b, struct amd_err *err)
{
	int n = b->n, rc = 0;
	b->n = 0;
	for (int r = 0; r < n && rc == 0; r++)
		rc = write_rows(st, b, b->table->one_sql,
				b->cells + (size_t)r * (size_t)b->table->cols, 1, err);
	return rc;
}

void row_batch_free(struct row_batch *b)
{
	free(b->cells);
	b->cells = NULL;
	b->n = 0;
}
