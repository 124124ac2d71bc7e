/* ch_tables.h — the store's tables as the ClickHouse backend keeps them:
 * for each, its ClickHouse columns and sort key, and how its id columns
 * map to the store's (the writer computes ClickHouse's ids from the
 * identities the store's row stream gives, unit_rows.h; the loader maps
 * them back). ch_schema.c creates them,
 * ch_ship.c writes them, ch_load.c reads them. A table added to the
 * SQLite schema is ported by one row here (docs/design.md). */
#ifndef AMD_CH_TABLES_H
#define AMD_CH_TABLES_H

#include <stddef.h>

/* How the loader maps a column (one letter per column of cols):
 * 'p' plain; 's' a source id (the attempt, mapped to the source's row
 * in the loaded store; the writer puts the attempt where the store's
 * row has a source); 'c' an id local to its source (a trace, a stack
 * node), made unique by the row's source; 'r' a run, 'w' a sweep, 'd' a
 * dict string, 'f' a frame: ids ClickHouse computes from the thing's
 * identity, renumbered in the order the things first appear, as a
 * SQLite store numbers them. */
struct ch_table {
	int since;            /* the backend's schema version that adds it */
	const char *name;
	const char *columns;  /* ClickHouse column definitions, without src */
	const char *order_by;
	const char *cols;     /* column names, shared with the SQLite table */
	const char *kinds;    /* one letter per column of cols */
	/* what a NULL of the store becomes in a column that is not Nullable
	 * here, one letter per column: '0' 0, '-' -1, else refused; NULL:
	 * none (the sort key of trace_event has no Nullable on 18.16) */
	const char *null_as;
};

extern const struct ch_table amd_ch_tables[];
extern const size_t amd_ch_table_count;
/* At least amd_ch_table_count (ch_tables.c checks): a load's queries
 * (ch_load.c) are held in arrays of this size. */
#define AMD_CH_TABLES_MAX 32

/* A column added to a table after the version that made it: a new
 * table has it (its row above lists it), an older server's table gets
 * it by ALTER when the server migrates to since. */
struct ch_added_column {
	int since;
	const char *table;
	const char *name;
	const char *type; /* its ClickHouse type */
};

extern const struct ch_added_column amd_ch_added_columns[];
extern const size_t amd_ch_added_column_count;

/* 0 for a table left on the server, never loaded into the read store
 * (the event-level rows of ingest --events, which only `amdahl sql`
 * reads), else 1. */
int amd_ch_table_loaded(const struct ch_table *t);

#endif
