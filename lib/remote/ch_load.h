/* ch_load.h — opening a ClickHouse store for reading: its committed rows
 * loaded into an in-memory store (table_load.h), so every query of
 * lib/store answers the same on both backends. */
#ifndef AMD_CH_LOAD_H
#define AMD_CH_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* names (n of them; 0: everything): what the read needs (ch_scope.h). */
int amd_ch_store_open(const char *url, const char *const *names, size_t n,
		      struct amd_store **out, struct amd_err *err);

/* The same, loading only the tables named (ntables of them; NULL: all;
 * source rows are always loaded): for one query that reads a few; and
 * of metric points only those of the keys named (nkeys; NULL: all), the
 * server selecting them: such a part is marked so (amd_store_set_whole). */
int amd_ch_store_open_tables(const char *url, const char *const *names, size_t n,
			     const char *const *tables, size_t ntables, const char *const *keys,
			     size_t nkeys, struct amd_store **out, struct amd_err *err);

/* The same; how (remote_ops.h's AMD_READ_*): AMD_READ_KEY_SETS, of
 * metric points only the first step's of each source, run and key,
 * chosen on the server (ch_reduce.h): for a reader that asks only which
 * keys a run logged and where from (`runs`); AMD_READ_WHOLE_SOURCES,
 * every row of the part's sources (pull), where a read takes of them
 * only the rows of its runs (ch_scope.h's amd_ch_scope_rows). */
int amd_ch_store_open_read(const char *url, const char *const *names, size_t n,
			   const char *const *tables, size_t ntables, const char *const *keys,
			   size_t nkeys, int how, struct amd_store **out, struct amd_err *err);

/* The SELECT (ClickHouse SQL) of the committed attempts' ids: per path
 * its latest commit, and of paths holding the same bytes the first; a
 * path whose latest commit is a forgotten one (ch_ship.h) has none. */
extern const char amd_ch_committed_sql[];

struct amd_ch;
struct cJSON;
/* The committed row of table meeting cond (ClickHouse SQL) that a load
 * keeps (the run's own source's, the latest, ...): the server's answer
 * (JSONCompact, names in "meta"; the caller cJSON_Deletes it), *row the
 * row or NULL when none; NULL with err filled on an error. String
 * columns arrive as hex, named "hex(NAME)" in "meta" (amd_ch_hex_cell). */
struct cJSON *amd_ch_kept_row(struct amd_ch *ch, const char *table, const char *cond,
			      const struct cJSON **row, struct amd_err *err);
/* The text cell of the bytes the hex text of a String column stands
 * for, decoded into *own (OPENSSL_free it after the cell's use); -1 out
 * of memory. */
struct amd_cell;
int amd_ch_hex_cell(struct amd_cell *c, const char *hex, unsigned char **own);
/* An integer of the server's JSON (Int64 arrives as a string). */
int64_t amd_ch_json_int(const struct cJSON *v);

#endif
