/* packed_vtab.h — what the packed layouts' read-only virtual tables
 * (metric_sql.c's metric_point, gpu_sql.c's gpu_sample) share: the table
 * object, connecting with a declared schema, opening a cursor, the error
 * of a damaged chunk, and a double that SQLite shows as NULL when NaN.
 * Compiled into the library and into the sqlite3 shell's extension. */
#ifndef AMD_PACKED_VTAB_H
#define AMD_PACKED_VTAB_H

#include <sqlite3.h>
#include <stddef.h>

struct amd_packed_vtab {
	sqlite3_vtab base;
	sqlite3 *db; /* the connection the cursors query */
};

/* xConnect's work: schema declared ("CREATE TABLE x(...)"), the table
 * allocated into *out; an SQLite code. */
int amd_packed_vtab_connect(sqlite3 *db, const char *schema, sqlite3_vtab **out);
int amd_packed_vtab_disconnect(sqlite3_vtab *v);
/* xOpen's work: a zeroed cursor of size bytes (its struct starts with
 * sqlite3_vtab_cursor) into *out; an SQLite code. */
int amd_packed_cursor_open(size_t size, sqlite3_vtab_cursor **out);
/* A damaged chunk: msg as the table's error, SQLITE_CORRUPT. */
int amd_packed_vtab_corrupt(sqlite3_vtab_cursor *cur, const char *msg);
/* v as the column's value, NULL when NaN (SQLite has no NaN). */
void amd_packed_result_double(sqlite3_context *ctx, double v);

#endif
