/* user_sql.c — a user's read-only SQL on a SQLite store (user_sql.h):
 * through a read-only connection and sqlite3_stmt_readonly, the answer
 * as TabSeparated text. */
#include "user_sql.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <string.h>

int amd_tsv_text(struct amd_buf *b, const char *s)
{
	for (; *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n"
			: *s == '\r' ? "\\r" : NULL;
		if (e ? amd_buf_append(b, e, 2) < 0 : amd_buf_append(b, s, 1) < 0)
			return -1;
	}
	return 0;
}

/* Column i of q's current row as a TabSeparated cell (NULL as \N). */
static int tsv_cell(struct amd_buf *b, sqlite3_stmt *q, int i)
{
	switch (sqlite3_column_type(q, i)) {
	case SQLITE_NULL: return amd_buf_append(b, "\\N", 2);
	case SQLITE_INTEGER: return amd_buf_printf(b, "%lld", (long long)sqlite3_column_int64(q, i));
	case SQLITE_FLOAT: return amd_buf_printf(b, "%.17g", sqlite3_column_double(q, i));
	default: {
		const char *s = (const char *)sqlite3_column_text(q, i);
		return s ? amd_tsv_text(b, s) : -1;
	}
	}
}

static int sqlite_sql(struct amd_store *st, const char *sql, struct amd_buf *out,
		      struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	if (!sqlite3_stmt_readonly(q)) {
		sqlite3_finalize(q);
		return amd_fail(err, "%s: only read-only SQL is run here", st->path);
	}
	int n = sqlite3_column_count(q), rc, bad = 0;
	for (int i = 0; i < n; i++)
		bad |= amd_buf_printf(out, "%s%s", i ? "\t" : "", sqlite3_column_name(q, i)) < 0;
	bad |= n && amd_buf_append(out, "\n", 1) < 0;
	while (!bad && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			bad |= (i && amd_buf_append(out, "\t", 1) < 0) || tsv_cell(out, q, i) < 0;
		bad |= amd_buf_append(out, "\n", 1) < 0;
	}
	if (bad)
		rc = SQLITE_NOMEM;
	return amd_store_rows_done(st, q, rc, err);
}

int amd_store_sql(const char *location, const char *sql, struct amd_buf *out,
		  struct amd_err *err)
{
	struct amd_store *st = NULL;
	if (amd_store_open(location, AMD_STORE_READ, &st, err) < 0)
		return -1;
	int rc = sqlite_sql(st, sql, out, err);
	amd_store_close(st);
	return rc;
}
