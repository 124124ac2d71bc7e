/* test_store_create.c — a new store made whole before it gets its name
 * (lib/store/db/store_create.c, schema_fresh.c): the file
 * amd_store_create_new makes has the same sqlite_master (its order too),
 * pragmas and versions as a store an open migrates in place, leaves no
 * temporary behind, and an existing file, a symlink (even a dangling
 * one) or a missing directory are left as they are; then amd_store_open
 * writes to it as to any store. An in-memory store starts from the same
 * fresh schema (amd_store_fresh_schema). A reader's connection keeps its
 * temporary B-trees in memory (temp_store 2), a writer's as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema.h"
#include "sqlite_int.h"

static char dir[] = "/tmp/amdahl-test-create-XXXXXX";

static char *at(const char *name)
{
	static char buf[2][128];
	static int i;
	i ^= 1;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

/* sql's rows on db, one per line, columns joined by '|', into out. */
static void db_rows(sqlite3 *db, const char *sql, char *out, size_t cap)
{
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	size_t n = 0;
	out[0] = '\0';
	while (sqlite3_step(q) == SQLITE_ROW)
		for (int c = 0; c < sqlite3_column_count(q); c++) {
			const char *t = (const char *)sqlite3_column_text(q, c);
			n += (size_t)snprintf(out + n, cap - n, "%s%c", t ? t : "NULL",
					      c + 1 < sqlite3_column_count(q) ? '|' : '\n');
			assert_true(n < cap);
		}
	sqlite3_finalize(q);
}

/* The same of the store file at path. */
static void rows(const char *path, const char *sql, char *out, size_t cap)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	db_rows(db, sql, out, cap);
	sqlite3_close(db);
}

/* Entries of dir whose names hold part (all when NULL). */
static int entries(const char *part)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.' && (!part || strstr(e->d_name, part));
	closedir(d);
	return n;
}

#define SCHEMA "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid"
#define PRAGMAS "SELECT * FROM pragma_journal_mode, pragma_page_size, pragma_user_version"

static void same_as_in_place(void **state)
{
	(void)state;
	static char want[1 << 16], got[1 << 16];
	struct amd_err err = {{0}};
	struct amd_store *st;
	/* in place: an empty file is there, so amd_store_open migrates it */
	close(open(at("old.db"), O_CREAT | O_WRONLY, 0644));
	assert_int_equal(amd_store_open(at("old.db"), AMD_STORE_WRITE, &st, &err), 0);
	amd_store_close(st);
	amd_store_create_new(at("new.db"));
	assert_int_equal(entries(NULL), 2); /* old.db, new.db: no .new-PID, -wal, -shm */
	/* as an ingest does: opened, so migrations after the fresh text run */
	assert_int_equal(amd_store_open(at("new.db"), AMD_STORE_WRITE, &st, &err), 0);
	amd_store_close(st);
	rows(at("old.db"), SCHEMA, want, sizeof want);
	rows(at("new.db"), SCHEMA, got, sizeof got);
	assert_string_equal(got, want);
	rows(at("old.db"), PRAGMAS, want, sizeof want);
	rows(at("new.db"), PRAGMAS, got, sizeof got);
	assert_string_equal(got, "wal|4096|0\n");
	assert_string_equal(got, want);
	rows(at("new.db"), "SELECT group_concat(version) FROM schema_version", got, sizeof got);
	char versions[1024] = "";
	for (int v = 1; v <= amd_migration_count; v++)
		snprintf(versions + strlen(versions), sizeof versions - strlen(versions), "%s%d",
			 v > 1 ? "," : "", v);
	strcat(versions, "\n");
	assert_string_equal(got, versions);
	/* and it is a store to write to */
	assert_int_equal(amd_store_open(at("new.db"), AMD_STORE_WRITE, &st, &err), 0);
	assert_true(amd_store_intern(st, "aten::mm", &err) > 0);
	amd_store_close(st);
}

static void leaves_what_is_there(void **state)
{
	(void)state;
	struct stat before, after;
	amd_store_create_new(at("new.db")); /* made by the test above */
	assert_int_equal(stat(at("new.db"), &before), 0);
	amd_store_create_new(at("new.db"));
	assert_int_equal(stat(at("new.db"), &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_int_equal(before.st_size, after.st_size);
	/* a dangling symlink: nothing is made through it */
	assert_int_equal(symlink(at("elsewhere.db"), at("link.db")), 0);
	amd_store_create_new(at("link.db"));
	assert_int_equal(access(at("elsewhere.db"), F_OK), -1);
	unlink(at("link.db"));
	/* a directory not there: nothing, and no error to give */
	amd_store_create_new(at("no/such/dir.db"));
	assert_int_equal(access(at("no"), F_OK), -1);
	assert_int_equal(entries(".new-"), 0);
}

/* An in-memory store (a ClickHouse unit's staging, a read's load) starts
 * from the fresh schema too: the same sqlite_master, in the same order,
 * and every version, as a store migrated in place. */
static void memory_same_as_in_place(void **state)
{
	(void)state;
	static char want[1 << 16], got[1 << 16];
	struct amd_err err = {{0}};
	struct amd_store *st;
	unlink(at("old2.db"));
	close(open(at("old2.db"), O_CREAT | O_WRONLY, 0644));
	assert_int_equal(amd_store_open(at("old2.db"), AMD_STORE_WRITE, &st, &err), 0);
	amd_store_close(st);
	rows(at("old2.db"), SCHEMA, want, sizeof want);
	assert_int_equal(amd_store_open(":memory:", AMD_STORE_WRITE, &st, &err), 0);
	db_rows(st->db, SCHEMA, got, sizeof got);
	assert_string_equal(got, want);
	rows(at("old2.db"), "SELECT group_concat(version) FROM schema_version", want, sizeof want);
	db_rows(st->db, "SELECT group_concat(version) FROM schema_version", got, sizeof got);
	assert_string_equal(got, want);
	assert_true(amd_store_intern(st, "aten::mm", &err) > 0);
	amd_store_close(st);
	unlink(at("old2.db"));
}

/* A reader keeps its temporary B-trees (a report's UNIONs and sorts of
 * 65,000 file rows) in memory: temp_store 2 on its connection, where
 * they were written to a temporary file and read back (12,000 pwrites
 * in the 1,000 x 64 sweep's report build); a writer's is left as it was. */
static void reader_sorts_in_memory(void **state)
{
	(void)state;
	struct amd_store *st;
	struct amd_err err;
	const char *modes[2] = { "read", "write" };
	for (int k = 0; k < 2; k++) {
		assert_int_equal(amd_store_open(at("new.db"), k ? AMD_STORE_WRITE : AMD_STORE_READ,
						&st, &err), 0);
		sqlite3_stmt *q;
		assert_int_equal(sqlite3_prepare_v2(st->db, "PRAGMA temp_store", -1, &q, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		if (sqlite3_column_int(q, 0) != (k ? 0 : 2))
			fail_msg("%s: temp_store %d", modes[k], sqlite3_column_int(q, 0));
		sqlite3_finalize(q);
		amd_store_close(st);
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
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
		cmocka_unit_test(same_as_in_place),
		cmocka_unit_test(leaves_what_is_there),
		cmocka_unit_test(reader_sorts_in_memory),
		cmocka_unit_test(memory_same_as_in_place),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
