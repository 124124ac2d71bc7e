/* user_sql.h — `amdahl sql`: a user's read-only SQL on a SQLite store,
 * the answer as tab-separated text with a header line (a remote store:
 * lib/remote's amd_location_sql). */
#ifndef AMD_USER_SQL_H
#define AMD_USER_SQL_H

#include "buf.h"
#include "err.h"

/* Runs sql on the SQLite store at location and appends the answer to
 * out: one header line of column names and a line per row (NULL as \N,
 * tabs and newlines escaped as in TSV). Statements that would write are
 * refused. */
int amd_store_sql(const char *location, const char *sql, struct amd_buf *out,
		  struct amd_err *err);

/* Appends s escaped for TabSeparated (\\ \t \n \r), as a cell of
 * amd_store_sql's answer (and of a remote store's rows: lib/remote). */
int amd_tsv_text(struct amd_buf *b, const char *s);

#endif
