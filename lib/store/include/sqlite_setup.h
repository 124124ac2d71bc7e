/* sqlite_setup.h — SQLite's process-wide settings. SQLite takes them
 * only before its first use, so a process applies them at set-up, before
 * anything opens a database: a command that writes the store does
 * (amd_location_prepare_write in lib/remote/remote.h, called by
 * cmd/main.c), before
 * a reader of another tool's SQLite file (lib/ingest/foreign_db.c, which
 * cannot see the store) opens one; amd_store_open applies them too, for
 * every other command and library user. */
#ifndef AMD_SQLITE_SETUP_H
#define AMD_SQLITE_SETUP_H

enum amd_sqlite_use {
	AMD_SQLITE_ANY,    /* a reader, or whoever comes first */
	AMD_SQLITE_INGEST, /* a process that writes a store file: its page cache
			    * in memory of its own (sqlite_setup.c) */
};

/* Applies the settings once per process; later calls do nothing. The
 * first call decides `use`: the ingest command makes it before anything
 * opens SQLite, on the one thread that runs then. */
void amd_sqlite_setup(enum amd_sqlite_use use);

#endif
