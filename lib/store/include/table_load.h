/* table_load.h — a store filled from another backend's rows (issue 37):
 * the inverse of unit_rows.h's amd_table_iter. The ClickHouse reader
 * (lib/remote/ch_load.c) and `pull` load a remote store's committed
 * rows, table by table, as rows of typed cells (struct amd_cell) into an
 * in-memory store every query of lib/store then runs on; lib/remote
 * never touches the store's tables itself. */
#ifndef AMD_TABLE_LOAD_H
#define AMD_TABLE_LOAD_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "store.h"
#include "unit_rows.h"

/* A new, empty in-memory store that its messages call name (a remote
 * store's URL), writable until amd_store_loaded. */
int amd_store_open_loading(const char *name, struct amd_store **out, struct amd_err *err);
/* The load is over: st answers reads only from now on. */
void amd_store_loaded(struct amd_store *st);

struct amd_table_load;

/* Starts loading rows of table (inside the caller's transaction) into
 * the columns cols (a comma list of the table's own column names; at
 * most AMD_TABLE_COLS_MAX). Where the table holds a row of the same key
 * already, the first row loaded is kept (a source's copy of a string,
 * a param written by several sources), except that a run's kept row
 * takes from a later one what it lacks (the columns a run row only
 * ever gains) and, when both rows are span parts (their sources are of
 * kind AMD_SPAN_PART_KIND, run.h), the earlier start and the later end:
 * a run written by several files that staged at once holds their whole
 * span, as a SQLite store that took them one after another does.
 * metric_point and gpu_sample rows keep the order they come in (a
 * series' repeated steps); they and py-spy's stack rows are packed into
 * their series when the load is closed. */
int amd_table_load_open(struct amd_store *st, const char *table, const char *cols,
			struct amd_table_load **out, struct amd_err *err);
/* One row: as many cells as cols named; TEXT cells may hold any bytes
 * (n of them). 0, or -1 with err set. */
int amd_table_load_row(struct amd_table_load *l, const struct amd_cell *cells,
		       struct amd_err *err);
/* Ends the load (ok 0: after a failure, only frees): packs what needs
 * packing. 0, or -1 with err set. */
int amd_table_load_close(struct amd_table_load *l, int ok, struct amd_err *err);

/* After runs were loaded: drops sweep id when no run is in it (a
 * placeholder run's sweep that the run's own row moved it out of, which
 * a SQLite writer deletes). */
int amd_store_drop_sweep_if_empty(struct amd_store *st, int64_t id, struct amd_err *err);
/* Rows written by an older remote schema get what the loaded store's
 * newer columns derive from them (a run's entry point and program; an
 * op's role is given as the ops are packed, metric_rows.h): schema.c's
 * migrations, applied to the loaded rows. */
int amd_store_load_older_rows(struct amd_store *st, struct amd_err *err);

/* ---- a loaded store written as a store file (`pull`) ---- */

/* The id of sweep name in st: 0 when none, -1 with err set. */
int64_t amd_store_sweep_id(struct amd_store *st, const char *name, struct amd_err *err);
/* How many sources st holds; -1 with err set. */
int64_t amd_store_source_count(struct amd_store *st, struct amd_err *err);
/* Dates the schema from the newest source (not the second of the load):
 * loading an unchanged store again gives the same bytes. */
int amd_store_date_from_sources(struct amd_store *st, struct amd_err *err);
/* Writes st's whole database image (a store file) to f, which is the
 * file at path (for the message). */
int amd_store_write_image(struct amd_store *st, FILE *f, const char *path,
			  struct amd_err *err);

#endif
