/* row_batch.h — a unit writer's rows of one table held in memory and
 * written many to a statement: `INSERT INTO t(cols) VALUES(?,…),(?,…),…`
 * for a full batch, one row per statement for the rest at the end. A row
 * per statement spent more on starting and ending the statement (its
 * cursors, its journal, the VDBE's halt) than on the row. The rows go in
 * the order they were held, so their rowids are those one INSERT per row
 * would have given. Users: py-spy stacks (writer_stack.c: frame, stack
 * node and sample rows) and the rows readers report one
 * by one (writer_regions.c: region_detail). */
#ifndef AMD_ROW_BATCH_H
#define AMD_ROW_BATCH_H

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "sqlite_int.h"

/* A full batch: at most this many rows, and at most this many
 * parameters in its statement (SQLite's historic
 * SQLITE_MAX_VARIABLE_NUMBER). */
#define ROW_BATCH_ROWS 128
#define ROW_BATCH_PARAMS 999

/* One value: NULL, an integer or a real. */
struct row_cell {
	enum { ROW_NULL, ROW_INT, ROW_REAL } type;
	union {
		int64_t i;
		double d;
	} v;
};

/* A table rows are written to. Declare it static with ROW_TABLE: its
 * statement texts are made on first use, once per process, and
 * prepared once per connection (stmt_cache.h, keyed by their address). */
struct row_table {
	const char *into; /* "t(c1, c2, …)" */
	int cols;
	atomic_int ready;
	int rows; /* in a full batch */
	char one_sql[768], many_sql[3072];
};
#define ROW_TABLE(INTO, COLS) {.into = (INTO), .cols = (COLS)}

/* The rows of one table held, not written yet. */
struct row_batch {
	struct row_table *table;
	const char *path; /* the unit's input, for a failure's message */
	struct row_cell *cells; /* n rows of table->cols cells */
	int n;
};

static inline struct row_cell row_null(void)
{
	return (struct row_cell){.type = ROW_NULL};
}
static inline struct row_cell row_int(int64_t i)
{
	return (struct row_cell){.type = ROW_INT, .v.i = i};
}
/* i, or NULL when i is 0. */
static inline struct row_cell row_int_or_null(int64_t i)
{
	return i ? row_int(i) : row_null();
}
/* i, or NULL when i is negative. */
static inline struct row_cell row_int_opt(int64_t i)
{
	return i >= 0 ? row_int(i) : row_null();
}
/* d, or NULL when d is NaN. */
static inline struct row_cell row_real(double d)
{
	return isnan(d) ? row_null() : (struct row_cell){.type = ROW_REAL, .v.d = d};
}

/* Holds one row (b->table->cols cells), writing the held rows when they
 * fill a batch. -1 with err filled ("PATH: store: why") on failure. */
int row_batch_add(struct amd_store *st, struct row_batch *b, const struct row_cell *row,
		  struct amd_err *err);
/* Writes the rows held. */
int row_batch_flush(struct amd_store *st, struct row_batch *b, struct amd_err *err);
/* Drops the rows held and their memory; b can be held again. */
void row_batch_free(struct row_batch *b);
/* Rows in table t's full batch. */
int row_table_rows(struct row_table *t);

#endif
