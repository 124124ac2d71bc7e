/* foreign_db.c — read-only access to another tool's SQLite file
 * (foreign_db.h). */
#include "foreign_db.h"

#include <stdio.h>
#include <string.h>

int amd_foreign_is_sqlite(const unsigned char *head, size_t n)
{
	static const char magic[16] = "SQLite format 3";
	return n >= 100 && memcmp(head, magic, 16) == 0;
}

sqlite3 *amd_foreign_open(const char *path)
{
	sqlite3 *db = NULL;
	/* one thread uses the connection: no mutexes (they were ~10% of
	 * reading a 245 MB mlflow.db) */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	return db;
}

/* 1 when sql (one text parameter) yields a row, 0 when none, -1. */
static int exists(sqlite3 *db, const char *sql, const char *text)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int amd_foreign_has_table(sqlite3 *db, const char *name)
{
	return exists(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", name);
}

/* The SQL of fmt (one %s: table, quoted as a string) into sql; -1 when
 * table cannot be quoted so or the SQL does not fit. */
static int table_sql(char *sql, size_t size, const char *fmt, const char *table)
{
	return strchr(table, '\'') || (size_t)snprintf(sql, size, fmt, table) >= size ? -1 : 0;
}

int amd_foreign_has_column(sqlite3 *db, const char *table, const char *column)
{
	char sql[256];
	if (table_sql(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name=?1",
		      table) < 0)
		return -1;
	return exists(db, sql, column);
}

int amd_foreign_is_integer_key(sqlite3 *db, const char *table, const char *column)
{
	char sql[320];
	if (table_sql(sql, sizeof sql,
		      "SELECT 1 FROM (SELECT count(*) AS n, sum(name = ?1 AND upper(type) = 'INTEGER')"
		      " AS k FROM pragma_table_info('%s') WHERE pk > 0) WHERE n = 1 AND k = 1",
		      table) < 0)
		return -1;
	return exists(db, sql, column);
}
