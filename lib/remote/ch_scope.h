/* ch_scope.h — the part of a ClickHouse store one read needs: the runs
 * a command names (a sweep, a run by id or name, a source file), their
 * parent and child runs, and the committed attempts that wrote any row
 * of them, resolved on the server so a read transfers only those
 * (docs/design.md, "The ClickHouse backend"). */
#ifndef AMD_CH_SCOPE_H
#define AMD_CH_SCOPE_H

#include <stddef.h>
#include <stdint.h>

#include "clickhouse.h"

/* The committed attempts to load for names (n >= 1) as a comma list in
 * *ids (malloc'd); "" when the names match nothing, and the reader then
 * loads everything (so "no such sweep" and its hints read as before).
 * The runs of the part (the named ones, their parents and children) as
 * a comma list in *run_ids (malloc'd), or NULL where the part is not
 * cut by run: the list is longer than AMD_CH_RUN_LIST_MAX (a query
 * must stay under the server's max_query_size, 256 KiB by default). */
#define AMD_CH_RUN_LIST_MAX (128 * 1024)
int amd_ch_scope_sources(struct amd_ch *ch, const char *const *names, size_t n, char **ids,
			 char **run_ids, struct amd_err *err);

/* The committed attempts the orphan check after an ingest of paths (n
 * of them) loads, as a comma list in *ids (malloc'd): those of the paths
 * (also in *facts, malloc'd: of them the load takes every table's rows),
 * and every one holding a row of a run that their rows of tables (the
 * orphan check's, ntables of them) name or whose start..end meets the
 * span of their GPU samples (of those it takes the run rows); *ids "0"
 * and *facts NULL when the paths hold none; both NULL (and 0 returned)
 * when a query would grow too long (the paths over AMD_CH_RUN_LIST_MAX,
 * their attempts' ids over 32 KiB, about 1,600 units): the whole store is
 * loaded. An orphan among the paths is then the same as in a load of
 * the whole store. */
int amd_ch_scope_orphans(struct amd_ch *ch, const char *const *paths, size_t n,
			 const char *const *tables, size_t ntables, char **ids, char **facts,
			 struct amd_err *err);

/* Appends to b the condition (ClickHouse SQL) that keeps, of table t's
 * rows in the attempts in, those of the runs in runs (a comma list) and
 * those of no run: t's run column, or for a table whose rows belong to
 * another's (a trace's steps, a region's detail) that row's run. An
 * attempt may hold many runs (one mlflow.db, a team's 500 sweeps): a
 * read of one sweep then loads its runs' rows, not the file's. Appends
 * nothing when t names no run or runs is NULL or "". -1: out of memory. */
struct ch_table;
int amd_ch_scope_rows(struct amd_buf *b, const struct ch_table *t, const char *in,
		      const char *runs);

/* Runs select (one column named x) and returns its values as a comma
 * list (malloc'd; "" for none), NULL with err set. */
char *amd_ch_id_list(struct amd_ch *ch, const char *select, struct amd_err *err);
/* The ids of list (a comma list of numbers, as amd_ch_id_list answers)
 * ascending in *ids (malloc'd, room for one at least), *n of them; -1
 * out of memory. */
int amd_ch_id_parse(const char *list, int64_t **ids, size_t *n);
/* Runs sql (one row, one TabSeparated column) and returns its first
 * line (malloc'd), NULL with err set. */
char *amd_ch_first_line(struct amd_ch *ch, const char *sql, struct amd_err *err);

#endif
