/* test_row_batch.c — the held rows and multi-row INSERTs of
 * lib/store/writer/row_batch.c: for a narrow table (a full batch of
 * ROW_BATCH_ROWS rows) and a wide one (a full batch bounded by
 * ROW_BATCH_PARAMS), and row counts around the batch size (none, one, a
 * batch less one, a batch, a batch and one, several batches and some),
 * every row arrives, in the order held (rowids 1…n), with its NULLs,
 * integers and reals as given; checked by reading the table back with
 * SQLite. A failing row names the unit's input and SQLite's reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "row_batch.h"
#include "store.h"

static char dir[] = "/tmp/amdahl-test-rowbatch-XXXXXX";
static char path[64];

#define WIDE 20

static struct row_table narrow = ROW_TABLE("t(a, b, c)", 3);
static struct row_table wide = ROW_TABLE(
	"t(a, b, c, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14, d15, d16, d17, d18, d19, d20)",
	WIDE);

/* Row i: (i, NULL when i is a multiple of 3 else -i, i / 4.0, then
 * i + k in column k for the wide table's other columns). */
static void row_of(int i, struct row_cell *row, int cols)
{
	row[0] = row_int(i);
	row[1] = row_int_or_null(i % 3 ? -(int64_t)i : 0);
	row[2] = row_real(i / 4.0);
	for (int k = 3; k < cols; k++)
		row[k] = row_int(i + k);
}

/* Reads t back: n rows, each row_of its rowid (the wide columns summed). */
static void check_rows(struct amd_store *st, int n, int cols)
{
	sqlite3_stmt *q = NULL;
	const char *sql = cols > 3 ? "SELECT rowid, a, b, c, typeof(b), d4 + d5 + d6 + d7 + d8 + d9"
				     " + d10 + d11 + d12 + d13 + d14 + d15 + d16 + d17 + d18 + d19"
				     " + d20 FROM t ORDER BY rowid"
				   : "SELECT rowid, a, b, c, typeof(b), 0 FROM t ORDER BY rowid";
	assert_int_equal(sqlite3_prepare_v2(st->db, sql, -1, &q, NULL), SQLITE_OK);
	int i = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		i++;
		int64_t others = 0; /* row_of's columns 3… summed */
		for (int k = 3; k < cols; k++)
			others += i + k;
		assert_int_equal(sqlite3_column_int64(q, 5), others);
		assert_int_equal(sqlite3_column_int64(q, 0), i);
		assert_int_equal(sqlite3_column_int64(q, 1), i);
		if (i % 3)
			assert_int_equal(sqlite3_column_int64(q, 2), -i);
		else
			assert_string_equal((const char *)sqlite3_column_text(q, 4), "null");
		assert_true(sqlite3_column_double(q, 3) == i / 4.0);
	}
	sqlite3_finalize(q);
	assert_int_equal(i, n);
}

/* Holds and flushes each count of rows of table t, reading them back. */
static void counts_around(struct row_table *t, const char *create)
{
	int full = row_table_rows(t);
	const int counts[] = {0, 1, full - 1, full, full + 1, 3 * full + 17};
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
		assert_int_equal(amd_store_begin(st, &err), 0);
		assert_int_equal(amd_store_exec(st, create, &err), 0);
		struct row_batch b = {.table = t};
		struct row_cell row[WIDE];
		for (int i = 1; i <= counts[k]; i++) {
			row_of(i, row, t->cols);
			assert_int_equal(row_batch_add(st, &b, row, &err), 0);
		}
		assert_int_equal(row_batch_flush(st, &b, &err), 0);
		assert_int_equal(row_batch_flush(st, &b, &err), 0); /* nothing left: no rows */
		row_batch_free(&b);
		check_rows(st, counts[k], t->cols);
		amd_store_rollback(st);
	}
	amd_store_close(st);
}

static void a_narrow_table(void **state)
{
	(void)state;
	assert_int_equal(row_table_rows(&narrow), ROW_BATCH_ROWS);
	counts_around(&narrow, "CREATE TABLE t(a INTEGER, b INTEGER, c REAL)");
}

/* 20 columns: 49 rows (980 parameters) to a full batch. */
static void a_wide_table(void **state)
{
	(void)state;
	assert_int_equal(row_table_rows(&wide), ROW_BATCH_PARAMS / WIDE);
	counts_around(&wide, "CREATE TABLE t(a INTEGER, b INTEGER, c REAL, d4, d5, d6, d7, d8, d9,"
			     " d10, d11, d12, d13, d14, d15, d16, d17, d18, d19, d20)");
}

/* A failing row (NOT NULL) fails the statement with SQLite's message. */
static void a_failing_batch_says_why(void **state)
{
	(void)state;
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	assert_int_equal(amd_store_begin(st, &err), 0);
	assert_int_equal(amd_store_exec(st, "CREATE TABLE u(a INTEGER NOT NULL)", &err), 0);
	static struct row_table u = ROW_TABLE("u(a)", 1);
	struct row_batch b = {.table = &u, .path = "input.prof"};
	struct row_cell row[1] = {row_int_or_null(0)};
	assert_int_equal(row_batch_add(st, &b, row, &err), 0);
	assert_int_equal(row_batch_flush(st, &b, &err), -1);
	assert_non_null(strstr(err.msg, "NOT NULL"));
	assert_int_equal(strncmp(err.msg, "input.prof: store: ", 19), 0);
	row_batch_free(&b);
	amd_store_rollback(st);
	amd_store_close(st);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/s.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_narrow_table),
		cmocka_unit_test(a_wide_table),
		cmocka_unit_test(a_failing_batch_says_why),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
