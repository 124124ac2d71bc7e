/* sweep_keys.h — the names a sweep's runs have (`amdahl keys`): metrics
 * with their point counts, params and tags with the runs that have them
 * and their distinct values; and the one check behind every --metric and
 * --axis: a name the runs do not have is an error naming the closest
 * ones, instead of empty output. */
#ifndef AMD_SWEEP_KEYS_H
#define AMD_SWEEP_KEYS_H

#include <stddef.h>

#include "err.h"
#include "store.h"

enum amd_key_kind { AMD_KEY_METRIC, AMD_KEY_PARAM, AMD_KEY_TAG, AMD_KEY_KINDS };

/* The distinct values listed per param or tag (the first, by length then text). */
#define AMD_KEY_VALUES 12

struct amd_key_info {
	char *name;
	long long count;    /* a metric: its points; a param or tag: the runs that have it */
	long long distinct; /* a param or tag: its distinct values (0 for a metric) */
	char **values;      /* a param or tag: at most AMD_KEY_VALUES of them */
	size_t nvalues;
};

struct amd_keys {
	struct amd_key_info *keys[AMD_KEY_KINDS]; /* by name, per kind */
	size_t n[AMD_KEY_KINDS];
};

/* "metric", "param" or "tag". */
const char *amd_key_kind_name(enum amd_key_kind kind);

/* The names of sweep's runs and their child workers' (sweep NULL: every
 * run of the store). */
int amd_keys_list(struct amd_store *st, const char *sweep, struct amd_keys *out,
		  struct amd_err *err);
void amd_keys_free(struct amd_keys *k);

/* 0 when some run of sweep (NULL: of the store) has the kind's name,
 * else -1 with "metric 'x' is in no run of sweep S (closest: 'y');
 * 'amdahl keys' lists them" (also -1 on a store error). */
int amd_keys_require(struct amd_store *st, const char *sweep, enum amd_key_kind kind,
		     const char *name, struct amd_err *err);

/* "; closest: 'a', 'b'" — the candidates nearest word by edit distance
 * (at most three, within a third of its length plus two) — into buf, or
 * "" when none is near: the closest-name rule of every error that names
 * a wrong name (commands, keys, selector terms). */
void amd_names_closest(const char *word, const char *const *cand, size_t n, char *buf,
		       size_t size);
/* amd_names_closest among the store's run names, and its sweep names
 * too when sweeps is set: the hint of "no run 'x'" errors ("" also
 * when the store cannot be read; the error line is the point). */
void amd_run_names_closest(struct amd_store *st, const char *word, int sweeps, char *buf,
			   size_t size);
/* The same candidates as indexes into cand, nearest first, at most max
 * (for a caller that writes them its own way, as --options with dashes). */
size_t amd_names_nearest(const char *word, const char *const *cand, size_t n, size_t *pick,
			 size_t max);

#endif
