/* unit_store_dir.h — what the engine's unit tests on a real SQLite store
 * share (test_engine_parts.c, test_hash_beside.c): a private directory
 * under /tmp, made by a case's setup and removed by its teardown, the
 * paths of files in it, and one number read back from a store by SQL.
 * Each test program includes it once, after cmocka.h. */
#ifndef AMD_UNIT_STORE_DIR_H
#define AMD_UNIT_STORE_DIR_H

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char unit_dir[64];

/* Makes the directory /tmp/amdahl-test-NAME-XXXXXX. */
static inline void unit_dir_make(const char *name)
{
	snprintf(unit_dir, sizeof unit_dir, "/tmp/amdahl-test-%s-XXXXXX", name);
	assert_non_null(mkdtemp(unit_dir));
}

/* Removes it and all it holds. */
static inline void unit_dir_remove(void)
{
	char cmd[sizeof unit_dir + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", unit_dir);
	assert_int_equal(system(cmd), 0);
}

/* The path of name in the directory; the last four answers stay valid. */
static inline char *at(const char *name)
{
	static char buf[4][160];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", unit_dir, name);
	return buf[i];
}

/* One number from sql on the store. */
static inline long long one(const char *store, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(store, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	long long v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

#endif
