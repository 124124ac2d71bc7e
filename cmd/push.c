/* push.c — `amdahl push --to URL [--sweep S]`: hands what the local
 * store holds over to a shared ClickHouse store (lib/remote/remote.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl push --to clickhouse://[user@]host:port/database [--sweep S]\n"
	       "\n"
	       "Copies the sources of the local store (--store, a SQLite file), or\n"
	       "only those of sweep S, into the ClickHouse store: each source whole,\n"
	       "visible at once; sources it already holds with the same bytes are\n"
	       "left alone and changed ones replaced, so pushing again adds nothing.\n"
	       "The password comes from AMDAHL_CLICKHOUSE_PASSWORD or ~/.netrc.\n");
}

int cmd_push(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"to", required_argument, NULL, 't'},
		{"sweep", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{0, 0, 0, 0},
	};
	const char *to = NULL, *sweep = NULL;
	int c;
	optind = 1;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't': to = optarg; break;
		case 's': sweep = optarg; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (!to || optind != argc)
		return cmd_error("push", "expected --to clickhouse://…; see 'amdahl push --help'");
	struct amd_push_counts n;
	struct amd_err err = {{0}};
	if (amd_remote_push(ctx->store_path, to, sweep, &n, &err) < 0)
		return cmd_error("push", "%s", err.msg);
	printf("%zu pushed, %zu replaced, %zu unchanged\n", n.pushed, n.replaced, n.unchanged);
	if (n.uncleaned) /* committed, so counted as pushed (remote.h) */
		return cmd_error("push", "%s; committed and kept: %zu source(s), which readers"
				 " see; the older versions they replace stay in the store, seen by"
				 " no reader, until the next push or ingest into it removes them",
				 n.uncleaned_error, n.uncleaned);
	return EXIT_OK;
}
