/* ch_rowbinary.h — rows of a store's row stream (unit_rows.h) as ClickHouse RowBinary
 * (INSERT … FORMAT RowBinary): each value in its column's binary form,
 * no text to format on our side nor to parse on the server's. */
#ifndef AMD_CH_ROWBINARY_H
#define AMD_CH_ROWBINARY_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "unit_rows.h"

/* The column types of a column list "name Type, name Nullable(Type), …"
 * (Int64, Float64, String; Nullable or not) as one letter each in types
 * (i f s, upper case when Nullable), NUL-terminated. Returns the number
 * of columns, or -1 when a type is none of these or cap is too small. */
int amd_ch_rowbinary_types(const char *columns, char *types, size_t cap);

/* Appends the row cells (one per letter of types) and then extra (an
 * Int64) in RowBinary; a String column given a number gets its text
 * ("%lld", "%.17g"). Returns 0, -1 when out of memory, or the column
 * number + 1 holding a NULL its type refuses (negated: -2 - column). */
int amd_ch_rowbinary_row(struct amd_buf *b, const struct amd_cell *cells, const char *types,
			 int64_t extra);

/* Appends points [from, to) of series s as metric_point rows (run_id,
 * key_id, step, ts_ms, value, source_id, then src and rn): run and key
 * are the series' ClickHouse ids, attempt is source_id and src, and rn
 * counts on from *rn. A NaN value is NULL, as metric_point gives it.
 * Returns 0, or -1 when out of memory. */
int amd_ch_rowbinary_points(struct amd_buf *b, int64_t run, int64_t key,
			    const struct amd_series_rows *s, size_t from, size_t to,
			    int64_t attempt, int64_t *rn);

#endif
