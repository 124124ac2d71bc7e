/* pull.c — `amdahl pull --to FILE [--from URL] [--sweep S]`: a shared
 * ClickHouse store (or one sweep of it) copied into a local SQLite store
 * file (lib/remote/remote.h); the counterpart of push. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl pull --to FILE [--from clickhouse://[user@]host:port/database]\n"
	       "                  [--sweep S]\n"
	       "\n"
	       "Copies what the ClickHouse store (--from, else --store) holds, or only\n"
	       "the sources holding sweep S's runs, into the SQLite store FILE, which\n"
	       "every command then reads with the same answers. FILE is written whole\n"
	       "and renamed into place (replacing an earlier copy; a symbolic link is\n"
	       "refused), so pulling again gives the same file. The event-level rows\n"
	       "of 'ingest --events' stay on the server. The ClickHouse store is only\n"
	       "read. The password comes from AMDAHL_CLICKHOUSE_PASSWORD or ~/.netrc.\n");
}

int cmd_pull(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"to", required_argument, NULL, 't'},
		{"from", required_argument, NULL, 'f'},
		{"sweep", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{0, 0, 0, 0},
	};
	const char *to = NULL, *from = ctx->store_path, *sweep = NULL;
	int c;
	optind = 1;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't': to = optarg; break;
		case 'f': from = optarg; break;
		case 's': sweep = optarg; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (!to || !*to || optind != argc)
		return cmd_error("pull", "expected --to FILE; see 'amdahl pull --help'");
	size_t n = 0;
	struct amd_err err = {{0}};
	if (amd_remote_pull(from, sweep, to, &n, &err) < 0)
		return cmd_error("pull", "%s", err.msg);
	printf("%zu source%s pulled into %s\n", n, n == 1 ? "" : "s", to);
	return EXIT_OK;
}
