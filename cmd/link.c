/* link.c — inputs linked to no run: `amdahl link FILE RUN` links an
 * ingested trace, py-spy file, profile or GPU log to a run without
 * reading it again, and `amdahl runs --orphans` lists what no run owns
 * (lib/store/include/orphans.h; a remote store's through
 * lib/remote/remote.h's amd_location_link). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl link [--sweep NAME] FILE RUN\n"
	       "\n"
	       "Links FILE, a trace, py-spy file, profile or GPU log ingested without\n"
	       "a run, to RUN (a run id, or a run name: the newest run of that name,\n"
	       "in sweep NAME when given) without reading it again. A file linked to\n"
	       "another run moves to RUN. 'amdahl runs --orphans' lists the files no\n"
	       "run owns.\n");
}

int cmd_runs_orphans(struct cmd_ctx *ctx, int json)
{
	struct amd_err err = {{0}};
	struct amd_orphan *v;
	size_t n;
	if (amd_store_orphans(ctx->store, &v, &n, &err) < 0)
		return cmd_error("runs", "%s", err.msg);
	int rc = EXIT_OK;
	if (json) {
		cJSON *root = cJSON_CreateObject();
		cJSON *arr = cJSON_AddArrayToObject(root, "orphans");
		for (size_t i = 0; i < n; i++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "path", v[i].path);
			cJSON_AddStringToObject(o, "format", v[i].kind);
			cJSON_AddItemToArray(arr, o);
		}
		rc = cmd_print_json("runs", root);
	} else if (n == 0) {
		printf("every trace, py-spy file, profile and GPU log is linked to a run\n");
	} else {
		for (size_t i = 0; i < n; i++)
			printf("%-16s %s\n", v[i].kind, v[i].path);
		printf("%zu linked to no run; 'amdahl link FILE RUN' links one\n", n);
	}
	amd_orphans_free(v, n);
	return rc;
}

int cmd_link(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"sweep", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *sweep = NULL;
	int c;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': sweep = optarg; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return cmd_error("link", "give FILE and RUN; see 'amdahl link --help'");
	/* sources are stored by absolute path (the walker's realpath) */
	char real[PATH_MAX];
	const char *path = realpath(argv[optind], real) ? real : argv[optind];
	struct amd_err err = {{0}};
	int rc = amd_location_link(ctx->store_path, &ctx->config, path, argv[optind + 1], sweep,
				   &err);
	if (rc < 0)
		return cmd_error("link", "%s", err.msg);
	if (rc == AMD_LINK_NOTHING)
		return cmd_error("link", "%s: holds no trace, py-spy, profile or GPU facts"
			" a run could own", path);
	printf("%s: %s run '%s'\n", path, rc == AMD_LINK_ALREADY ? "already linked to"
		: "linked to", argv[optind + 1]);
	return EXIT_OK;
}
