/* compare_by.c — `amdahl compare --by KEY`: the selected runs split into
 * groups by KEY (selector.h, amd_select_groups), every group compared
 * with the baseline group (the first, or the one --baseline names), each
 * comparison printed as `compare` prints one, or all in one JSON, or all
 * in one CSV (one header, each row led by its two groups). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cmd.h"

/* The index of the baseline group: the one named value, else 0. */
static int base_index(const struct compare_args *a, const struct amd_run_group *g, size_t n,
		      size_t *out)
{
	*out = 0;
	if (!a->base_value)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(g[i].value, a->base_value) == 0) {
			*out = i;
			return 0;
		}
	char list[512] = "";
	for (size_t i = 0, k = 0; i < n && k + 1 < sizeof list; i++)
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", g[i].value);
	return cmd_error(a->name, "--baseline: no group %s=%s (groups: %s)", a->by, a->base_value,
			 list);
}

/* Where the comparisons go: one JSON array, one CSV table, or stdout. */
struct by_out {
	cJSON *arr;
	struct amd_table *csv; /* --format csv: every comparison's rows */
	int want_csv;
};

/* c's CSV rows appended to out->csv (made with c's headers after
 * baseline_group and group), each led by the two groups' values. */
static int add_csv(struct by_out *out, const struct amd_comparison *c, const char *base,
		   const char *cand)
{
	struct amd_table *t = amd_cmp_table_csv(c);
	if (!t)
		return -1;
	size_t nc = t->ncols + 2;
	const char **cells = malloc(nc * sizeof *cells);
	if (cells && !out->csv) {
		cells[0] = "baseline_group";
		cells[1] = "group";
		for (size_t k = 0; k < t->ncols; k++)
			cells[k + 2] = t->head[k];
		out->csv = amd_table_new(nc, cells);
	}
	cells = out->csv ? cells : (free(cells), NULL);
	for (size_t r = 0; cells && r < t->nrows; r++) {
		cells[0] = base;
		cells[1] = cand;
		for (size_t k = 0; k < t->ncols; k++)
			cells[k + 2] = amd_table_cell(t, r, k);
		amd_table_add(out->csv, cells);
	}
	int rc = cells && amd_table_ok(t) && amd_table_ok(out->csv) ? 0 : -1;
	free(cells);
	amd_table_free(t);
	return rc;
}

/* One comparison of group cand against group base, added to the JSON or
 * the CSV, or printed. */
static int one(struct cmd_ctx *ctx, struct compare_args *a, const struct amd_run_group *base,
	       const struct amd_run_group *cand, struct by_out *out, int first)
{
	compare_sides_free(&a->o); /* the previous pair's */
	a->o.base_sweep = strdup(base->selector);
	a->o.cand_sweep = strdup(cand->selector);
	if (!a->o.base_sweep || !a->o.cand_sweep)
		return cmd_error(a->name, "out of memory");
	struct amd_comparison *c = NULL;
	int rc = compare_run(ctx, a, &c);
	if (rc == 0 && out->arr) {
		cJSON *j = compare_json(c, a, ctx->store_path);
		if (!j || !cJSON_AddStringToObject(j, "group", cand->value) ||
		    !cJSON_AddItemToArray(out->arr, j)) {
			cJSON_Delete(j);
			rc = cmd_error(a->name, "out of memory");
		}
	} else if (rc == 0 && out->want_csv) {
		if (add_csv(out, c, base->value, cand->value) < 0)
			rc = cmd_error(a->name, "out of memory");
	} else if (rc == 0) {
		printf("%s== %s=%s against %s=%s ==\n\n", first ? "" : "\n\n", a->by, cand->value,
		       a->by, base->value);
		if (compare_print_format(c, a, stdout) < 0)
			rc = cmd_error(a->name, "out of memory");
	}
	amd_comparison_free(c);
	return rc;
}

int compare_by(struct cmd_ctx *ctx, struct compare_args *a)
{
	struct amd_err err = {{0}};
	struct amd_run_group *g;
	size_t n, skipped, b;
	if (amd_select_groups(ctx->store, a->select, a->by, &g, &n, &skipped, &err) < 0)
		return cmd_error(a->name, "%s", err.msg);
	int rc = base_index(a, g, n, &b);
	if (rc == 0 && n < 2)
		rc = cmd_error(a->name, "--by %s: one group (%s) only, nothing to compare it with",
			       a->by, g[0].value);
	cJSON *root = a->json && rc == 0 ? cJSON_CreateObject() : NULL;
	struct by_out out = {.want_csv = a->format && strcmp(a->format, "csv") == 0};
	if (a->json && rc == 0 &&
	    (!root || !cJSON_AddStringToObject(root, "by", a->by) ||
	     !cJSON_AddStringToObject(root, "baseline", g[b].value) ||
	     !(out.arr = cJSON_AddArrayToObject(root, "comparisons"))))
		rc = cmd_error(a->name, "out of memory");
	for (size_t i = 0, k = 0; rc == 0 && i < n; i++)
		if (i != b)
			rc = one(ctx, a, &g[b], &g[i], &out, k++ == 0);
	if (root && rc == 0)
		rc = cmd_print_json(a->name, root);
	else
		cJSON_Delete(root);
	if (out.csv && rc == 0 && table_csv(out.csv, stdout) < 0)
		rc = cmd_error(a->name, "out of memory");
	amd_table_free(out.csv);
	amd_run_groups_free(g, n);
	return rc;
}
