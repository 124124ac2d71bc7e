/* runs_sources.c — `amdahl runs --sources`: every source file of the
 * chosen runs (run, path, kind, bytes, sha256), the orphans after them
 * when no sweep is named (lib/store/include/run_sources.h). */
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "analysis_json.h"
#include "cmd.h"

static cJSON *source_json(const struct amd_run_source *r)
{
	cJSON *o = cJSON_CreateObject();
	if (r->run)
		cJSON_AddStringToObject(o, "run", r->run);
	else
		cJSON_AddNullToObject(o, "run");
	amd_json_str(o, "name", r->name);
	cJSON_AddStringToObject(o, "path", r->path);
	cJSON_AddStringToObject(o, "kind", r->kind);
	cJSON_AddNumberToObject(o, "bytes", (double)r->size);
	cJSON_AddStringToObject(o, "sha256", r->sha256);
	return o;
}

static int print_table(const struct amd_run_source *v, size_t n)
{
	static const char *const h[] = {"run", "name", "kind", "bytes", "sha256", "path"};
	struct amd_table *t = amd_table_new(6, h);
	if (!t)
		return cmd_error("runs", "out of memory");
	amd_table_right(t, 3);
	for (size_t i = 0; i < n; i++) {
		char bytes[32];
		snprintf(bytes, sizeof bytes, "%lld", (long long)v[i].size);
		const char *row[] = {v[i].run ? v[i].run : "(no run)", v[i].name ? v[i].name : "",
				     v[i].kind, bytes, v[i].sha256, v[i].path};
		amd_table_add(t, row);
	}
	int rc = table_print(t, stdout);
	amd_table_free(t);
	if (rc < 0)
		return cmd_error("runs", "out of memory");
	return EXIT_OK;
}

int cmd_runs_sources(struct cmd_ctx *ctx, const char *sweep, int json)
{
	struct amd_err err = {{0}};
	struct amd_run_source *v;
	size_t n;
	if (amd_store_run_sources(ctx->store, sweep, &v, &n, &err) < 0)
		return cmd_error("runs", "%s", err.msg);
	int rc = EXIT_OK;
	if (json) {
		cJSON *root = cJSON_CreateObject();
		cJSON *arr = cJSON_AddArrayToObject(root, "sources");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, source_json(&v[i]));
		rc = cmd_print_json("runs", root);
	} else if (n == 0 && sweep) {
		rc = cmd_error("runs", "no source files for '%s' in %s", sweep, ctx->store_path);
	} else if (n == 0) {
		printf("no source files in %s yet; 'amdahl ingest PATH' loads some\n",
		       ctx->store_path);
	} else {
		rc = print_table(v, n);
	}
	amd_run_sources_free(v, n);
	return rc;
}
