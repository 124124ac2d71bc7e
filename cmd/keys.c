/* keys.c — `amdahl keys [SWEEP]`: the names a sweep's runs have, so a
 * user finds the right --metric, --axis and --by: metrics with their
 * point counts, params and tags with the runs that have them and their
 * distinct values (sweep_keys.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl keys [SWEEP] [--json]\n"
	       "\n"
	       "Lists the names the runs of SWEEP (default: every run of the store) have:\n"
	       "metrics with their point counts (for --metric), params with the runs\n"
	       "that have them and their distinct values (for --axis and --by param.NAME),\n"
	       "and tags likewise (for --by tag.NAME). A param with several values in a\n"
	       "sweep that is not its axis is one that splits its configurations.\n");
}

static void print_kind(const struct amd_keys *k, enum amd_key_kind kind)
{
	printf("%ss%s:\n", amd_key_kind_name(kind),
	       kind == AMD_KEY_METRIC ? " (points)" : " (runs, distinct values)");
	if (!k->n[kind])
		printf("  (none)\n");
	for (size_t i = 0; i < k->n[kind]; i++) {
		const struct amd_key_info *e = &k->keys[kind][i];
		struct amd_buf name = {0};
		if (amd_visible_line(&name, e->name) < 0)
			continue;
		if (kind == AMD_KEY_METRIC) {
			printf("  %-32s %lld\n", name.data, e->count);
			amd_buf_free(&name);
			continue;
		}
		printf("  %-32s %lld run%s, %lld value%s: ", name.data, e->count,
		       e->count == 1 ? "" : "s", e->distinct, e->distinct == 1 ? "" : "s");
		for (size_t v = 0; v < e->nvalues; v++) {
			struct amd_buf val = {0};
			if (amd_visible_line(&val, e->values[v]) == 0)
				printf("%s%s", v ? ", " : "", val.data);
			amd_buf_free(&val);
		}
		printf("%s\n", (long long)e->nvalues < e->distinct ? ", ..." : "");
		amd_buf_free(&name);
	}
}

static cJSON *kind_json(const struct amd_keys *k, enum amd_key_kind kind)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < k->n[kind]; i++) {
		const struct amd_key_info *e = &k->keys[kind][i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", e->name);
		cJSON_AddNumberToObject(o, kind == AMD_KEY_METRIC ? "points" : "runs", (double)e->count);
		if (kind == AMD_KEY_METRIC)
			continue;
		cJSON_AddNumberToObject(o, "distinct", (double)e->distinct);
		cJSON *vals = cJSON_AddArrayToObject(o, "values");
		for (size_t v = 0; vals && v < e->nvalues; v++)
			cJSON_AddItemToArray(vals, cJSON_CreateString(e->values[v] ? e->values[v] : ""));
	}
	return arr;
}

static int print_json(const char *sweep, const struct amd_keys *k)
{
	cJSON *j = cJSON_CreateObject();
	if (j) {
		if (sweep)
			cJSON_AddStringToObject(j, "sweep", sweep);
		else
			cJSON_AddNullToObject(j, "sweep");
		cJSON_AddItemToObject(j, "metrics", kind_json(k, AMD_KEY_METRIC));
		cJSON_AddItemToObject(j, "params", kind_json(k, AMD_KEY_PARAM));
		cJSON_AddItemToObject(j, "tags", kind_json(k, AMD_KEY_TAG));
	}
	return cmd_print_json("keys", j);
}

/* A named sweep the store does not have: the error lists the store's. */
static int check_sweep(struct amd_store *st, const char *sweep)
{
	struct amd_sweep_view *sw = NULL;
	size_t n = 0;
	struct amd_err err = {{0}};
	if (amd_sweeps_list(st, &sw, &n, &err) < 0)
		return cmd_error("keys", "%s", err.msg);
	struct amd_buf names = {0};
	int found = 0, list;
	char near[512] = "";
	for (size_t i = 0; i < n; i++)
		found |= strcmp(sw[i].name, sweep) == 0;
	list = !found && amd_sweeps_closest(sw, n, sweep, near, sizeof near);
	for (size_t i = 0; list && i < n; i++)
		amd_buf_printf(&names, "%s'%s'", i ? ", " : "; its sweeps: ", sw[i].name);
	if (!found && !list)
		amd_buf_printf(&names, " (%zu sweeps)", n);
	amd_sweeps_free(sw, n);
	int rc = found ? 0 : cmd_error("keys", "no sweep '%s' in the store%s%s", sweep,
				       names.data ? names.data : "; its sweeps: (none)", near);
	amd_buf_free(&names);
	return rc;
}

int cmd_keys(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int json = 0, c;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (argc - optind > 1)
		return cmd_error("keys", "unexpected argument '%s'", argv[optind + 1]);
	const char *sweep = optind < argc ? argv[optind] : NULL;
	int rc = cmd_store_open(ctx, "keys", &sweep, 1);
	if (rc || (sweep && (rc = check_sweep(ctx->store, sweep))))
		return rc;
	struct amd_keys k;
	struct amd_err err = {{0}};
	if (amd_keys_list(ctx->store, sweep, &k, &err) < 0)
		return cmd_error("keys", "%s", err.msg);
	if (json)
		rc = print_json(sweep, &k);
	else {
		if (sweep)
			printf("sweep %s\n", sweep);
		for (int kind = 0; kind < AMD_KEY_KINDS; kind++)
			print_kind(&k, kind);
	}
	amd_keys_free(&k);
	return rc;
}
