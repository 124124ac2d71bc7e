/* ch_rowbinary.h — rows of the staging store as ClickHouse RowBinary
 * (INSERT … FORMAT RowBinary): each value in its column's binary form,
 * no text to format on our side nor to parse on the server's. */
#ifndef AMD_CH_ROWBINARY_H
#define AMD_CH_ROWBINARY_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "buf.h"

/* The column types of a column list "name Type, name Nullable(Type), …"
 * (Int64, Float64, String; Nullable or not) as one letter each in types
 * (i f s, upper case when Nullable), NUL-terminated. Returns the number
 * of columns, or -1 when a type is none of these or cap is too small. */
int amd_ch_rowbinary_types(const char *columns, char *types, size_t cap);

/* Appends the current row of q (its columns 0.., of the types given)
 * and then extra (an Int64) in RowBinary. Returns 0, -1 when out of
 * memory, or the column number + 1 holding a NULL its type refuses
 * (negated: -2 - column). */
int amd_ch_rowbinary_row(struct amd_buf *b, sqlite3_stmt *q, const char *types,
			 int64_t extra);

#endif
