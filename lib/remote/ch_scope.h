/* ch_scope.h — the part of a ClickHouse store one read needs: the runs
 * a command names (a sweep, a run by id or name, a source file), their
 * parent and child runs, and the committed attempts that wrote any row
 * of them, resolved on the server so a read transfers only those
 * (docs/design.md, "The ClickHouse backend"). */
#ifndef AMD_CH_SCOPE_H
#define AMD_CH_SCOPE_H

#include <stddef.h>

#include "clickhouse.h"

/* The committed attempts to load for names (n >= 1) as a comma list in
 * *ids (malloc'd); "" when the names match nothing, and the reader then
 * loads everything (so "no such sweep" and its hints read as before). */
int amd_ch_scope_sources(struct amd_ch *ch, const char *const *names, size_t n, char **ids,
			 struct amd_err *err);

/* Runs select (one column named x) and returns its values as a comma
 * list (malloc'd; "" for none), NULL with err set. */
char *amd_ch_id_list(struct amd_ch *ch, const char *select, struct amd_err *err);

#endif
