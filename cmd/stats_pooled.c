/* stats_pooled.c — `stats`' note on a configuration that pools runs of
 * several configurations: runs of one strategy and world size but
 * different run names, which differ in a param that is constant within
 * each name and is not the run's repeat index (global_batch_size on a
 * batch-size sweep) — so its median,
 * CV and interval mix unlike runs. The note names the param and the two
 * ways to split it (--by param.X, --axis X). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "stats_pooled.h"

/* The runs of one configuration: indices into the sweep's run views. */
struct config_runs {
	const struct amd_run_view *rv;
	size_t *idx, n;
};

/* 1 when key's value is the same within every run name of c and differs
 * between two names; its distinct values into vals (a ", " list). */
static int splits(struct amd_store *st, const struct config_runs *c, const char *key,
		  struct amd_buf *vals)
{
	char **v = calloc(c->n, sizeof *v);
	int ok = v != NULL, across = 0;
	int repeat_index = 1; /* the param is each run's repeat (a repeat counter, not a setting) */
	for (size_t i = 0; ok && i < c->n; i++) {
		struct amd_err err = {{0}};
		char *end;
		ok = amd_run_param_find(st, c->rv[c->idx[i]].id, key, &v[i], &err) == 0 && v[i];
		repeat_index &= ok && strtol(v[i], &end, 10) == c->rv[c->idx[i]].repeat && !*end;
	}
	ok &= !repeat_index;
	for (size_t i = 0; ok && i < c->n; i++)
		for (size_t j = 0; ok && j < i; j++) {
			const char *ni = c->rv[c->idx[i]].name, *nj = c->rv[c->idx[j]].name;
			int same_name = ni && nj && strcmp(ni, nj) == 0, same = strcmp(v[i], v[j]) == 0;
			ok = !same_name || same;
			across |= !same_name && !same;
		}
	for (size_t i = 0; ok && across && i < c->n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(v[i], v[j]) == 0;
		if (!seen)
			amd_buf_printf(vals, "%s%s", vals->len ? ", " : "", v[i]);
	}
	for (size_t i = 0; v && i < c->n; i++)
		free(v[i]);
	free(v);
	return ok && across;
}

/* The note for one configuration when its runs have several names. */
static void note_config(struct amd_store *st, const struct config_runs *c,
			const struct amd_keys *k, FILE *out)
{
	size_t names = 0;
	for (size_t i = 0; i < c->n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(c->rv[c->idx[i]].name ? c->rv[c->idx[i]].name : "",
				      c->rv[c->idx[j]].name ? c->rv[c->idx[j]].name : "") == 0;
		names += !seen;
	}
	if (names < 2)
		return;
	const struct amd_run_view *r = &c->rv[c->idx[0]];
	for (size_t p = 0; p < k->n[AMD_KEY_PARAM]; p++) {
		const struct amd_key_info *e = &k->keys[AMD_KEY_PARAM][p];
		struct amd_buf vals = {0};
		if (e->distinct > 1 && splits(st, c, e->name, &vals))
			fprintf(out, "note: strategy %s n=%d pools %zu runs of %zu configurations that "
				     "differ in param %s (%s); its numbers mix them: split them with "
				     "--by param.%s, or scale over them with --axis %s\n",
				r->strategy && *r->strategy ? cmd_shown(r->strategy) : "(none logged)", r->n,
				c->n, names, cmd_shown(e->name), cmd_shown(vals.data), cmd_shown(e->name),
				cmd_shown(e->name));
		amd_buf_free(&vals);
	}
}

int stats_pooled_notes(struct amd_store *st, const char *sweep, FILE *out)
{
	struct amd_run_view *rv = NULL;
	size_t n = 0;
	struct amd_keys k;
	struct amd_err err = {{0}};
	if (amd_runs_list(st, sweep, &rv, &n, &err) < 0)
		return -1;
	if (amd_keys_list(st, sweep, &k, &err) < 0) {
		amd_runs_free(rv, n);
		return -1;
	}
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	int *done = calloc(n ? n : 1, sizeof *done);
	for (size_t i = 0; idx && done && i < n; i++) {
		if (done[i] || amd_run_left_out(&rv[i]))
			continue;
		struct config_runs c = {.rv = rv, .idx = idx};
		for (size_t j = i; j < n; j++)
			if (!done[j] && !amd_run_left_out(&rv[j]) && rv[j].n == rv[i].n &&
			    strcmp(rv[j].strategy ? rv[j].strategy : "",
				   rv[i].strategy ? rv[i].strategy : "") == 0) {
				done[j] = 1;
				idx[c.n++] = j;
			}
		note_config(st, &c, &k, out);
	}
	int rc = idx && done ? 0 : -1;
	free(idx);
	free(done);
	amd_keys_free(&k);
	amd_runs_free(rv, n);
	return rc;
}
