/* writer_batch.h — a unit's rows of the tables a reader fills row by
 * row (region, region_call, op_average), held in memory and written
 * many rows to one INSERT. Stepped one row at a time, each row cost
 * SQLite a statement's start, its cursors' opening and closing and a
 * reset. The rows keep their order (their rowids are the same); every
 * held row is written before the unit's derived regions (writer_regions.c)
 * read these tables. Part of the unit writer (writer_sink.h). */
#ifndef AMD_WRITER_BATCH_H
#define AMD_WRITER_BATCH_H

#include <stdint.h>

#include "err.h"

struct amd_store_sink;

enum writer_table { WT_REGION, WT_REGION_CALL, WT_OP_AVERAGE, WT_COUNT };

/* One value of a row as it is bound: NULL, an integer or a real. */
struct writer_val {
	enum { WV_NULL, WV_INT, WV_REAL } type;
	union {
		int64_t i;
		double d;
	} u;
};

/* Holds one row of table t (its columns' values in the table's order,
 * writer_batch.c), writing the held rows when they fill a batch. */
int writer_batch_add(struct amd_store_sink *ss, enum writer_table t,
		     const struct writer_val *row, struct amd_err *err);
/* Writes every held row of every table. */
int writer_batch_flush(struct amd_store_sink *ss, struct amd_err *err);
/* Drops the held rows (the unit ended). */
void writer_batch_free(struct amd_store_sink *ss);

/* The values as writer.c's writer_bind_* bind them. */
struct writer_val wv_int(int64_t v);      /* always the integer */
struct writer_val wv_opt(int64_t v);      /* NULL when negative */
struct writer_val wv_nonzero(int64_t v);  /* NULL when 0 */
struct writer_val wv_real(double v);      /* NULL when NaN */
struct writer_val wv_run(const struct amd_store_sink *ss); /* NULL without a run */

#endif
