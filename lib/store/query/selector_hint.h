/* selector_hint.h — private to lib/store: the closest names for a
 * selector's error messages (selector_hint.c) and the param and tag
 * names a store holds (selector.c). */
#ifndef AMD_SELECTOR_HINT_H
#define AMD_SELECTOR_HINT_H

#include <stddef.h>

#include "err.h"
#include "store.h"

/* ", closest: 'a', 'b'" — the candidates nearest to word by edit
 * distance (at most three, only those within a third of its length plus
 * two edits that keep some letter in place) — into buf, or "" when none
 * is near. */
void sel_closest(const char *word, const char *const *cand, size_t n, char *buf, size_t size);
/* The same candidates as indexes into cand, nearest first, at most max. */
size_t sel_nearest(const char *word, const char *const *cand, size_t n, size_t *pick, size_t max);

/* sel_closest among the names a one-column query of st yields ("" also
 * when the query fails: the hint is no reason to fail an error line). */
void sel_closest_in(struct amd_store *st, const char *sql, const char *word, char *buf,
		    size_t size);
/* The distinct param (tags 0) or tag (tags 1) names in the store, sorted. */
int sel_store_keys(struct amd_store *st, int tags, char ***out, size_t *n, struct amd_err *err);
/* The texts a one-column query yields (NULLs skipped by the query). */
int sel_store_strings(struct amd_store *st, const char *sql, char ***out, size_t *n,
		      struct amd_err *err);
void sel_strings_free(char **v, size_t n);

#endif
