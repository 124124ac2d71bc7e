/* foreign_db.h — reading someone else's SQLite file (MLflow's mlflow.db,
 * an Nsight Systems export): opening it read-only and asking what tables
 * and columns it has, since their schemas change across versions. This
 * is SQL on a foreign database; amdahl's own SQL is in lib/store/. */
#ifndef AMD_FOREIGN_DB_H
#define AMD_FOREIGN_DB_H

#include <sqlite3.h>
#include <stddef.h>

/* The 16 bytes every SQLite database starts with. */
int amd_foreign_is_sqlite(const unsigned char *head, size_t n);

/* A read-only connection (busy timeout 5 s) for one thread (no mutexes),
 * NULL when it cannot open. */
sqlite3 *amd_foreign_open(const char *path);

/* 1 when db has the table, 0 when not, -1 when sqlite_master cannot be
 * read (a damaged or truncated database). */
int amd_foreign_has_table(sqlite3 *db, const char *name);

/* 1 when table has the column, 0 when not, -1 on a read error. */
int amd_foreign_has_column(sqlite3 *db, const char *table, const char *column);

/* 1 when column alone is table's primary key and declared INTEGER (so
 * SQLite's rowid: one row a value), 0 when not, -1 on a read error. */
int amd_foreign_is_integer_key(sqlite3 *db, const char *table, const char *column);

#endif
