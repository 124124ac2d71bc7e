/* sql.c — `amdahl sql QUERY`: a user's read-only SQL on the store, either
 * backend (lib/remote/remote.h's amd_location_sql: SQLite's
 * lib/store/include/user_sql.h or a remote backend's own), printed as
 * the backend answers it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl sql QUERY\n"
	       "\n"
	       "Runs QUERY, read-only, on the store and prints the answer as\n"
	       "tab-separated lines after a header of column names. On SQLite the\n"
	       "tables are those of docs/design.md, \"The store\"; on ClickHouse\n"
	       "every table also holds rows of ingests not (yet) committed: keep to\n"
	       "visible ones with WHERE src IN committed (see README.md, \"ClickHouse\").\n"
	       "Statements that would change the store are refused. A QUERY that\n"
	       "begins with '-' (an SQL comment) goes after '--'.\n");
}

int cmd_sql(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c = cmd_getopt(argc, argv, "+h", opts, NULL); /* options before QUERY */
	if (c == 'h') {
		help();
		return EXIT_OK;
	}
	if (c != -1)
		return EXIT_USAGE;
	if (argc - optind != 1)
		return cmd_error("sql", "expected one QUERY (quote it); see 'amdahl sql --help'");
	struct amd_buf out = {0};
	struct amd_err err = {{0}};
	if (amd_location_sql(ctx->store_path, argv[optind], &out, &err) < 0) {
		amd_buf_free(&out);
		return cmd_error("sql", "%s", err.msg);
	}
	int bad = (out.len && fwrite(out.data, 1, out.len, stdout) != out.len) || fflush(stdout) != 0;
	int e = errno;
	amd_buf_free(&out);
	return bad ? cmd_error("sql", "cannot write the answer: %s", strerror(e)) : EXIT_OK;
}
