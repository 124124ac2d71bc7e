/* store_guard.c — what a file must be before amdahl uses it as a store:
 * a new or empty file, or one with amdahl's schema (someone else's
 * SQLite database, such as MLflow's mlflow.db, is refused unchanged and
 * described); and how a store on a read-only mount or directory is
 * read (SQLite's immutable mode when no write-ahead log is pending). */
#include "sqlite_int.h"
#include "stmt_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The number of tables in the file and whether it has the ones named;
 * the SQLite result code. */
static int tables(sqlite3 *db, int *n, int *version, int *mlflow)
{
	sqlite3_stmt *q = NULL;
	*n = *version = *mlflow = 0;
	int rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type='table'",
				    -1, &q, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		rc = SQLITE_OK;
		(*n)++;
		*version |= name && strcmp(name, "schema_version") == 0;
		*mlflow |= name && (strcmp(name, "alembic_version") == 0 ||
				    strcmp(name, "experiments") == 0);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int amd_store_check_foreign(struct amd_store *st, struct amd_err *err)
{
	int n, version, mlflow;
	int rc = tables(st->db, &n, &version, &mlflow);
	if (rc != SQLITE_OK)
		return amd_fail(err, "%s: %s", st->path,
				(rc & 0xff) == SQLITE_NOTADB
					? "file is not a database (not an SQLite file, so not a store)"
					: sqlite3_errmsg(st->db));
	if (n == 0 || version)
		return 0;
	if (mlflow)
		return amd_fail(err, "%s: an MLflow tracking database, not an amdahl store; "
				     "left unchanged (did you mean `amdahl ingest %s`?)",
				st->path, st->path);
	return amd_fail(err, "%s: an SQLite database without amdahl's schema (%d table%s); "
			     "left unchanged: a store is created only in a new or empty file",
			st->path, n, n == 1 ? "" : "s");
}

/* Why the file at path, not an amdahl store, is not replaced; err. */
static int refuse_replace(const char *path, sqlite3 *db, int rc, int mlflow, int n,
			  struct amd_err *err)
{
	if ((rc & 0xff) == SQLITE_NOTADB)
		return amd_fail(err, "%s: not an SQLite file, so not an amdahl store; not replaced "
				     "(name a new file, an empty one or a store)", path);
	if (rc != SQLITE_OK)
		return amd_fail(err, "%s: %s; not replaced", path, sqlite3_errmsg(db));
	if (mlflow)
		return amd_fail(err, "%s: an MLflow tracking database, not an amdahl store; "
				     "not replaced (name a new file, an empty one or a store)", path);
	return amd_fail(err, "%s: an SQLite database without amdahl's schema (%d table%s); not "
			     "replaced (name a new file, an empty one or a store)",
			path, n, n == 1 ? "" : "s");
}

int amd_store_check_replace(const char *path, struct amd_err *err)
{
	struct stat sb;
	if (lstat(path, &sb) != 0)
		return 0;
	if (!S_ISREG(sb.st_mode))
		return amd_fail(err, "%s: not a regular file; not replaced", path);
	if (sb.st_size == 0)
		return 0;
	sqlite3 *db = NULL;
	int n = 0, version = 0, mlflow = 0;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK)
		rc = tables(db, &n, &version, &mlflow);
	int out = rc == SQLITE_OK && version ? 0 : refuse_replace(path, db, rc, mlflow, n, err);
	sqlite3_close_v2(db);
	return out;
}

/* path as an SQLite URI with immutable=1 (sqlite3_free it). */
static char *immutable_uri(const char *path)
{
	size_t n = strlen(path);
	char *enc = malloc(3 * n + 1);
	if (!enc)
		return NULL;
	char *p = enc;
	for (const unsigned char *s = (const unsigned char *)path; *s; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("/._-~", *s))
			*p++ = (char)*s;
		else
			p += sprintf(p, "%%%02X", *s);
	*p = '\0';
	char *uri = sqlite3_mprintf("file:%s?immutable=1", enc);
	free(enc);
	return uri;
}

/* A write-ahead log with content beside the store. */
static int wal_pending(const char *path)
{
	char *wal = sqlite3_mprintf("%s-wal", path);
	struct stat sb;
	int pending = wal && stat(wal, &sb) == 0 && sb.st_size > 0;
	sqlite3_free(wal);
	return pending;
}

int amd_store_read_only_fallback(struct amd_store *st, int probe_rc, struct amd_err *err)
{
	int prim = probe_rc & 0xff;
	if (prim != SQLITE_CANTOPEN && prim != SQLITE_READONLY && prim != SQLITE_IOERR)
		return amd_fail(err, "%s: %s", st->path, sqlite3_errstr(probe_rc));
	if (wal_pending(st->path))
		return amd_fail(err, "%s: cannot read the store: its write-ahead log %s-wal "
				     "holds changes and the directory is not writable (%s); "
				     "copy the store with its -wal file to a writable place",
				st->path, st->path, sqlite3_errstr(probe_rc));
	char *uri = immutable_uri(st->path);
	if (!uri)
		return amd_fail(err, "%s: out of memory", st->path);
	amd_store_cache_free(st); /* statements of the closed handle */
	sqlite3_close_v2(st->db);
	st->db = NULL;
	int rc = sqlite3_open_v2(uri, &st->db,
				 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	sqlite3_free(uri);
	if (rc != SQLITE_OK)
		return amd_fail(err, "%s: %s", st->path,
				st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, 60000);
	if (amd_store_sql_register(st->db) != SQLITE_OK)
		return amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
	return 0;
}
