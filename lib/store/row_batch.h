/* row_batch.h — rows of one table queued in memory and written many to a
 * statement: `INSERT INTO t(cols) VALUES(?,…),(?,…),…` prepared once for
 * ROW_BATCH rows, the last few in one statement of their own. A row per
 * statement spent more on starting and ending the statement (its cursors,
 * its journal, the VDBE's halt) than on the row; the writer of py-spy
 * stacks (writer_stack.c) queues its frame, stack node, sample and region
 * rows here. The rows go in the order they were queued, so their rowids
 * are those that one INSERT per row would have given. */
#ifndef AMD_ROW_BATCH_H
#define AMD_ROW_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "sqlite_int.h"

#define ROW_BATCH 128

/* One value: NULL, an integer or a real. */
struct row_cell {
	enum { ROW_NULL, ROW_INT, ROW_REAL } type;
	union {
		int64_t i;
		double d;
	} v;
};

struct row_batch {
	const char *into; /* "t(c1, c2, …)" */
	int cols;
	struct row_cell *cells; /* n rows of cols cells */
	size_t n, cap;
	sqlite3_stmt *full; /* for ROW_BATCH rows */
};

static inline struct row_cell row_int(int64_t i)
{
	return (struct row_cell){.type = ROW_INT, .v.i = i};
}
/* i, or NULL when i is 0. */
static inline struct row_cell row_int_or_null(int64_t i)
{
	return i ? row_int(i) : (struct row_cell){.type = ROW_NULL};
}
static inline struct row_cell row_real(double d)
{
	return (struct row_cell){.type = ROW_REAL, .v.d = d};
}

/* Queues one row (b->cols cells), writing the queue when it is full. */
int row_batch_add(struct amd_store *st, struct row_batch *b, const struct row_cell *row,
		  struct amd_err *err);
/* Writes the rows queued. */
int row_batch_flush(struct amd_store *st, struct row_batch *b, struct amd_err *err);
/* Frees the queue and its statement (rows not written are dropped). */
void row_batch_free(struct row_batch *b);

#endif
