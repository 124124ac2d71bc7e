/* ch_load.h — opening a ClickHouse store for reading: its committed rows
 * loaded into an in-memory SQLite store, so every query of lib/store
 * answers the same on both backends. */
#ifndef AMD_CH_LOAD_H
#define AMD_CH_LOAD_H

#include <stddef.h>

#include "store.h"

/* names (n of them; 0: everything): what the read needs (ch_scope.h). */
int amd_ch_store_open(const char *url, const char *const *names, size_t n,
		      struct amd_store **out, struct amd_err *err);

/* The same, loading only the tables named (ntables of them; NULL: all;
 * source rows are always loaded): for one query that reads a few. */
int amd_ch_store_open_tables(const char *url, const char *const *names, size_t n,
			     const char *const *tables, size_t ntables,
			     struct amd_store **out, struct amd_err *err);

/* The SELECT (ClickHouse SQL) of the committed attempts' ids: per path
 * its latest commit, and of paths holding the same bytes the first. */
extern const char amd_ch_committed_sql[];

#endif
