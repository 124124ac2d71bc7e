/* user_sql.c — a user's read-only SQL (user_sql.h): on SQLite through a
 * read-only connection and sqlite3_stmt_readonly; on ClickHouse sent to
 * the server with readonly=1, where the event-level tables and every
 * ingest attempt are (the view `committed` lists the visible ones). */
#include "user_sql.h"
#include "sqlite_int.h"

#include <stdio.h>
#include <string.h>

#include "ch_ship.h"
#include "clickhouse.h"

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
			bad |= (i && amd_buf_append(out, "\t", 1) < 0) || amd_ch_tsv_cell(out, q, i) < 0;
		bad |= amd_buf_append(out, "\n", 1) < 0;
	}
	if (bad)
		rc = SQLITE_NOMEM;
	return amd_store_rows_done(st, q, rc, err);
}

int amd_store_sql(const char *location, const char *sql, struct amd_buf *out,
		  struct amd_err *err)
{
	if (amd_ch_is_url(location)) {
		struct amd_ch *ch = NULL;
		if (amd_ch_open(location, &ch, err) < 0)
			return -1;
		int rc = amd_ch_user_query(ch, sql, out, err);
		amd_ch_close(ch);
		return rc;
	}
	struct amd_store *st = NULL;
	if (amd_store_open(location, AMD_STORE_READ, &st, err) < 0)
		return -1;
	int rc = sqlite_sql(st, sql, out, err);
	amd_store_close(st);
	return rc;
}
