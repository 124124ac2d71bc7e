/* compare_by.c — `amdahl compare --by KEY`: the selected runs split into
 * groups by KEY (selector.h, amd_select_groups), every group compared
 * with the baseline group (the first, or the one --baseline names), each
 * comparison printed as `compare` prints one, or all in one JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cmd.h"
#include "selector.h"

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

/* One comparison of group cand against group base, added to arr (JSON)
 * or printed. */
static int one(struct cmd_ctx *ctx, struct compare_args *a, const struct amd_run_group *base,
	       const struct amd_run_group *cand, cJSON *arr, int first)
{
	free(a->base_sweep);
	free(a->cand_sweep);
	free(a->base_strategy);
	free(a->cand_strategy);
	a->base_strategy = a->cand_strategy = NULL;
	a->base_sweep = strdup(base->selector);
	a->cand_sweep = strdup(cand->selector);
	if (!a->base_sweep || !a->cand_sweep)
		return cmd_error(a->name, "out of memory");
	struct amd_comparison *c = NULL;
	int rc = compare_run(ctx, a, &c);
	if (rc == 0 && arr) {
		cJSON *j = compare_json(c, a, ctx->store_path);
		if (!j || !cJSON_AddStringToObject(j, "group", cand->value) ||
		    !cJSON_AddItemToArray(arr, j)) {
			cJSON_Delete(j);
			rc = cmd_error(a->name, "out of memory");
		}
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
	cJSON *arr = NULL;
	if (a->json && rc == 0 &&
	    (!root || !cJSON_AddStringToObject(root, "by", a->by) ||
	     !cJSON_AddStringToObject(root, "baseline", g[b].value) ||
	     !(arr = cJSON_AddArrayToObject(root, "comparisons"))))
		rc = cmd_error(a->name, "out of memory");
	for (size_t i = 0, k = 0; rc == 0 && i < n; i++)
		if (i != b)
			rc = one(ctx, a, &g[b], &g[i], arr, k++ == 0);
	if (root && rc == 0)
		rc = cmd_print_json(a->name, root);
	else
		cJSON_Delete(root);
	amd_run_groups_free(g, n);
	return rc;
}
