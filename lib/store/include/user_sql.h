/* user_sql.h — `amdahl sql`: a user's read-only SQL on either backend,
 * the answer as tab-separated text with a header line. */
#ifndef AMD_USER_SQL_H
#define AMD_USER_SQL_H

#include "buf.h"
#include "err.h"

/* Runs sql on the store at location (a SQLite file or a ClickHouse URL)
 * and appends the answer to out: on SQLite, one header line of column
 * names and a line per row (NULL as \N, tabs and newlines escaped as in
 * TSV); on ClickHouse, the server's TSVWithNames (or the FORMAT the
 * query names). Statements that would write are refused. */
int amd_store_sql(const char *location, const char *sql, struct amd_buf *out,
		  struct amd_err *err);

#endif
