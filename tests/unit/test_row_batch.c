/* test_row_batch.c — the queued multi-row INSERTs of lib/store/row_batch.c:
 * for row counts around the batch size (none, one, a batch less one, a
 * batch, a batch and one, several batches and some), every row arrives,
 * in the order queued (rowids 1…n), with its NULLs, integers and reals
 * as given; checked by reading the table back with SQLite. */
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

/* Row i: (i, NULL when i is a multiple of 3 else -i, i / 4.0). */
static void row_of(int i, struct row_cell *row)
{
	row[0] = row_int(i);
	row[1] = row_int_or_null(i % 3 ? -(int64_t)i : 0);
	row[2] = row_real(i / 4.0);
}

/* Reads t back: n rows, each row_of its rowid. */
static void check_rows(struct amd_store *st, int n)
{
	sqlite3_stmt *q = NULL;
	assert_int_equal(sqlite3_prepare_v2(st->db, "SELECT rowid, a, b, c, typeof(b) FROM t"
				" ORDER BY rowid", -1, &q, NULL), SQLITE_OK);
	int i = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		i++;
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

static void counts_around_the_batch(void **state)
{
	(void)state;
	const int counts[] = {0, 1, ROW_BATCH - 1, ROW_BATCH, ROW_BATCH + 1, 3 * ROW_BATCH + 17};
	struct amd_store *st;
	struct amd_err err = {{0}};
	assert_int_equal(amd_store_open(path, AMD_STORE_WRITE, &st, &err), 0);
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
		assert_int_equal(amd_store_begin(st, &err), 0);
		assert_int_equal(amd_store_exec(st, "CREATE TABLE t(a INTEGER, b INTEGER, c REAL)",
						&err), 0);
		struct row_batch b = {.into = "t(a, b, c)", .cols = 3};
		struct row_cell row[3];
		for (int i = 1; i <= counts[k]; i++) {
			row_of(i, row);
			assert_int_equal(row_batch_add(st, &b, row, &err), 0);
		}
		assert_int_equal(row_batch_flush(st, &b, &err), 0);
		assert_int_equal(row_batch_flush(st, &b, &err), 0); /* nothing left: no rows */
		row_batch_free(&b);
		check_rows(st, counts[k]);
		amd_store_rollback(st);
	}
	amd_store_close(st);
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
	struct row_batch b = {.into = "u(a)", .cols = 1};
	struct row_cell row[1] = {row_int_or_null(0)};
	assert_int_equal(row_batch_add(st, &b, row, &err), 0);
	assert_int_equal(row_batch_flush(st, &b, &err), -1);
	assert_non_null(strstr(err.msg, "NOT NULL"));
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
		cmocka_unit_test(counts_around_the_batch),
		cmocka_unit_test(a_failing_batch_says_why),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
