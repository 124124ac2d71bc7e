/* store_create.c — a new store made whole before it gets its name
 * (amd_store_create_new, sqlite_int.h).
 *
 * Made in place, a new store cost six fsyncs before the first row
 * (SQLite's rollback journal for the switch to WAL: journal, directory,
 * journal, database; then the first WAL commit of the schema: log and
 * directory), ~16 ms of an ingest of a 0.56 MB trace that takes ~100 ms
 * (issue 38). Here the schema goes into a file beside it, <path>.new-PID,
 * with no journal and no syncs (nobody else can see that file), is
 * switched to WAL and closed, synced once, and linked to path: one sync,
 * and the name never shows a half-made store (a crash leaves at most the
 * .new-PID file). The directory is synced by SQLite itself when the
 * first write transaction creates path's -wal, after the link, which
 * makes the new name as lasting as the rows written under it. link()
 * does not replace: when another process created the store meanwhile,
 * its store stays and ours is dropped. Any failure leaves nothing and
 * the caller opens path as before, with the errors it always gave.
 * The schema is schema_fresh.c's, made in one go, not the chain of 13
 * migrations; amd_store_open then migrates it further like any store
 * when schema.c has migrations after the fresh text's version. Only
 * SQLite is called here (no store handle). */
#include "sqlite_int.h"
#include "schema.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* schema_fresh.c's tables and the versions they stand for, in one
 * transaction; an SQLite code. */
int amd_store_fresh_schema(sqlite3 *db)
{
	int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, amd_schema_fresh, NULL, NULL, NULL);
	for (int v = 1; rc == SQLITE_OK && v <= amd_schema_fresh_version; v++) {
		char bump[128];
		snprintf(bump, sizeof bump,
			 "INSERT INTO schema_version VALUES(%d, strftime('%%s','now'))", v);
		rc = sqlite3_exec(db, bump, NULL, NULL, NULL);
	}
	return rc == SQLITE_OK ? sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) : rc;
}

/* The schema into the file at tmp, never through a symlink planted
 * there: no journal, no syncs, the fresh schema, then WAL. Migrations after the fresh text's version are
 * amd_store_open's, as for any store. */
static int build(const char *tmp)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
						   SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
				 NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", NULL, NULL,
				  NULL);
	if (rc == SQLITE_OK)
		rc = amd_store_fresh_schema(db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	/* the last connection checkpoints the log into the file and removes it */
	if (sqlite3_close(db) != SQLITE_OK)
		rc = SQLITE_ERROR;
	return rc == SQLITE_OK ? 0 : -1;
}

/* fdatasync of the file at path. */
static int sync_path(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	int rc = fdatasync(fd);
	close(fd);
	return rc;
}

/* The temporary, and its -wal/-shm when a build failed. */
static void drop(const char *tmp)
{
	char side[4096 + 8];
	unlink(tmp);
	snprintf(side, sizeof side, "%s-wal", tmp);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", tmp);
	unlink(side);
}

void amd_store_create_new(const char *path)
{
	struct stat sb;
	if (strcmp(path, ":memory:") == 0 || path[0] == '\0' || strlen(path) > 4000 ||
	    lstat(path, &sb) == 0 || errno != ENOENT)
		return; /* there (a symlink too), or not for us to decide: as before */
	char tmp[4096 + 32];
	snprintf(tmp, sizeof tmp, "%s.new-%ld", path, (long)getpid());
	drop(tmp); /* a crashed process of the same pid left it */
	if (build(tmp) == 0 && sync_path(tmp) == 0)
		(void)link(tmp, path); /* EEXIST: another process made it meanwhile */
	drop(tmp);
}
