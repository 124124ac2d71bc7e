/* selector_group.c — splitting a selection into labelled groups by a key
 * (amd_select_groups, selector.h): the distinct values of param.NAME,
 * tag.NAME or a plain key among the selected runs, each with the
 * selector that picks its runs, ordered by their earliest start. */
#include "selector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* A copy of r appended to group x's runs. */
static int take_run(struct amd_run_group *x, const struct amd_run_view *r)
{
	if (amd_grow(&x->runs, x->nruns, &x->runs_cap, sizeof *x->runs, 4) < 0 ||
	    amd_run_view_copy(&x->runs[x->nruns], r) < 0)
		return -1;
	x->nruns++;
	if (r->start_ms && (!x->first_ms || r->start_ms < x->first_ms))
		x->first_ms = r->start_ms;
	return 0;
}

static int group_add(struct amd_run_group **g, size_t *n, size_t *cap, char *value,
		     const struct amd_run_view *r)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*g)[i].value, value) == 0) {
			free(value);
			return take_run(&(*g)[i], r);
		}
	if (amd_grow(g, *n, cap, sizeof **g, 8) < 0) {
		free(value);
		return -1;
	}
	struct amd_run_group *x = &(*g)[(*n)++];
	memset(x, 0, sizeof *x);
	x->value = value;
	return take_run(x, r);
}

/* Earliest start first; groups whose start is unknown keep their order
 * of appearance after the others (an insertion sort: stable). */
static int starts_before(const struct amd_run_group *x, const struct amd_run_group *y)
{
	return x->first_ms && (!y->first_ms || x->first_ms < y->first_ms);
}

static void sort_by_start(struct amd_run_group *g, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct amd_run_group x = g[i];
		size_t j = i;
		for (; j > 0 && starts_before(&x, &g[j - 1]); j--)
			g[j] = g[j - 1];
		g[j] = x;
	}
}

static int group_selectors(struct amd_run_group *g, size_t n, const char *text,
			   const char *by, struct amd_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (strchr(g[i].value, ','))
			return amd_fail(err, "--by %s: the value '%s' has a comma, which a selector"
					" cannot say", by, g[i].value);
		struct amd_buf b = {0};
		if (amd_buf_printf(&b, "%s%s%s=%s", text ? text : "", text ? "," : "", by,
				   g[i].value) < 0) {
			amd_buf_free(&b);
			return amd_fail(err, "out of memory");
		}
		g[i].selector = b.data;
	}
	return 0;
}

/* The runs text picks; every run for NULL. */
static int base_runs(struct amd_store *st, const char *text, struct amd_run_view **v,
		     size_t *n, struct amd_err *err)
{
	return text ? amd_select_runs(st, text, v, n, err) : amd_runs_list(st, NULL, v, n, err);
}

int amd_select_groups(struct amd_store *st, const char *text, const char *by,
		      struct amd_run_group **out, size_t *n, size_t *skipped,
		      struct amd_err *err)
{
	*out = NULL;
	*n = *skipped = 0;
	if (text && !*text)
		text = NULL;
	char *named = NULL; /* a sweep's name stands for sweep=NAME */
	if (text && !amd_selector_is(text)) {
		if (asprintf(&named, "sweep=%s", text) < 0)
			return amd_fail(err, "out of memory");
		text = named;
	}
	/* BY~* is the term "has a value for BY": parsing it checks the key */
	struct amd_selector *has = NULL;
	char spec[512];
	int rc = snprintf(spec, sizeof spec, "%s~*", by) >= (int)sizeof spec
		? amd_fail(err, "--by: a key of %zu bytes is too long", strlen(by))
		: amd_selector_parse(spec, &has, err) < 0 ? amd_fail_prefix(err, "--by '%s'", by) : 0;
	if (rc < 0) {
		free(named);
		return -1;
	}
	struct amd_run_view *v = NULL;
	size_t nv = 0, cap = 0;
	rc = base_runs(st, text, &v, &nv, err);
	for (size_t i = 0; rc == 0 && i < nv; i++) {
		char *val = NULL;
		rc = amd_sel_value(st, &has->terms[0], &v[i], &val, err);
		if (rc == 0 && !val)
			++*skipped;
		else if (rc == 0 && group_add(out, n, &cap, val, &v[i]) < 0)
			rc = amd_fail(err, "out of memory");
	}
	if (rc == 0 && *n == 0)
		rc = amd_selector_explain(st, has, v, nv, err);
	if (rc == 0) {
		sort_by_start(*out, *n);
		rc = group_selectors(*out, *n, text, by, err);
	}
	if (rc < 0) {
		amd_run_groups_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	amd_runs_free(v, nv);
	amd_selector_free(has);
	free(named);
	return rc;
}

void amd_run_groups_free(struct amd_run_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].value);
		free(g[i].selector);
		amd_runs_free(g[i].runs, g[i].nruns);
	}
	free(g);
}
