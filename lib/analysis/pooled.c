/* pooled.c — a point of a sweep's statistics that pools runs of several
 * configurations: runs of one strategy and axis value but different run
 * names, which differ in a param that is constant within each name and
 * is not the run's repeat index (global_batch_size on a batch-size
 * sweep). `stats` notes it, naming the param and the two ways to split
 * it; the report says so among its data gaps and draws no finding from
 * it (highlights.c). See pooled.h. */
#include "pooled.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "runs.h"
#include "selector.h"
#include "sweep_keys.h"

static int value_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);
	return lx != ly ? (lx > ly) - (lx < ly) : strcmp(x, y);
}

/* 1 when key's value is the same within every run name of p and differs
 * between two names; its distinct values into vals (a ", " list); -1 on
 * a store error. */
static int splits(struct amd_store *st, const struct amd_point_stats *p, const char *key,
		  struct amd_buf *vals, struct amd_err *err)
{
	char **v = calloc(p->nruns ? p->nruns : 1, sizeof *v);
	if (!v)
		return amd_fail(err, "out of memory");
	int ok = 1, across = 0, rc = 0;
	int repeat_index = 1; /* the param is each run's repeat (a repeat counter, not a setting) */
	for (size_t i = 0; ok && i < p->nruns; i++) {
		char *end;
		if (amd_run_param_find(st, p->runs[i].run_id, key, &v[i], err) < 0) {
			rc = -1;
			break;
		}
		ok = v[i] != NULL;
		repeat_index &= ok && strtol(v[i], &end, 10) == p->runs[i].repeat && !*end;
	}
	ok &= rc == 0 && !repeat_index;
	for (size_t i = 0; ok && i < p->nruns; i++)
		for (size_t j = 0; ok && j < i; j++) {
			const char *ni = p->runs[i].name, *nj = p->runs[j].name;
			int same_name = ni && nj && strcmp(ni, nj) == 0, same = strcmp(v[i], v[j]) == 0;
			ok = !same_name || same;
			across |= !same_name && !same;
		}
	if (ok && across) /* the values listed shortest first, then in text order: 8, 16, 32 */
		qsort(v, p->nruns, sizeof *v, value_cmp);
	for (size_t i = 0; ok && across && i < p->nruns; i++)
		if ((i == 0 || strcmp(v[i], v[i - 1]) != 0) &&
		    amd_buf_printf(vals, "%s%s", vals->len ? ", " : "", v[i]) < 0)
			rc = amd_fail(err, "out of memory");
	for (size_t i = 0; i < p->nruns; i++)
		free(v[i]);
	free(v);
	return rc < 0 ? -1 : ok && across;
}

/* The number of distinct run names among p's runs. */
static size_t run_names(const struct amd_point_stats *p)
{
	size_t names = 0;
	for (size_t i = 0; i < p->nruns; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(p->runs[i].name ? p->runs[i].name : "",
				      p->runs[j].name ? p->runs[j].name : "") == 0;
		names += !seen;
	}
	return names;
}

/* Marks p with the first param (by name) of k that splits it. */
static int mark_point(struct amd_store *st, const struct amd_keys *k, struct amd_point_stats *p,
		      struct amd_err *err)
{
	size_t names = run_names(p);
	if (names < 2)
		return 0;
	for (size_t i = 0; i < k->n[AMD_KEY_PARAM] && !p->pooled_param[0]; i++) {
		const struct amd_key_info *e = &k->keys[AMD_KEY_PARAM][i];
		struct amd_buf vals = {0};
		int got = e->distinct > 1 ? splits(st, p, e->name, &vals, err) : 0;
		if (got > 0) {
			snprintf(p->pooled_param, sizeof p->pooled_param, "%s", e->name);
			snprintf(p->pooled_values, sizeof p->pooled_values, "%s", vals.data);
			p->pooled_names = names;
		}
		amd_buf_free(&vals);
		if (got < 0)
			return -1;
	}
	return 0;
}

/* 1 when some point of s holds runs of two names or more (only such a
 * point can be pooled). */
static int has_named_mix(const struct amd_sweep_stats *s)
{
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t j = 0; j < s->strategies[i].npoints; j++)
			if (run_names(&s->strategies[i].points[j]) >= 2)
				return 1;
	return 0;
}

int amd_sweep_mark_pooled(struct amd_store *st, struct amd_sweep_stats *s, struct amd_err *err)
{
	/* the keys are listed over the sweep, or for a selector over the whole
	 * store: history analyses a selector per group, and listing them for
	 * each made it quadratic in the store's runs (1,000 commits: 46 s) */
	if (!has_named_mix(s))
		return 0;
	struct amd_keys k;
	const char *sweep = s->sweep && !amd_store_selector_is(st, s->sweep) ? s->sweep : NULL;
	if (amd_keys_list(st, sweep, &k, err) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->nstrategies; i++)
		for (size_t j = 0; rc == 0 && j < s->strategies[i].npoints; j++)
			rc = mark_point(st, &k, &s->strategies[i].points[j], err);
	amd_keys_free(&k);
	return rc;
}
