/* cmd.h — what every subcommand gets from main.c, and the shared
 * front-end helpers (table renderers, usage errors). Only cmd/ prints. */
#ifndef AMD_CMD_H
#define AMD_CMD_H

#include <stdio.h>

#include "amdahl.h" /* the library's one face (include/amdahl.h) */

/* What a command needs set up before it runs (git's RUN_SETUP): main.c
 * does each flag's setup and undoes it after the command. */
enum cmd_needs {
	NEEDS_NOTHING = 0,
	NEEDS_CONFIG = 1,      /* amdahl.yaml read into ctx->config (when present) */
	NEEDS_STORE_WRITE = 2, /* the process writes the store: its SQLite settings
				* applied before anything opens SQLite
				* (amd_location_prepare_write); the command opens the
				* store for writing itself, a transaction per unit */
	NEEDS_STORE_NAMED = 4, /* the command reads ctx->store: opened read-only by
				* cmd_store_open once its arguments say what it
				* reads, closed by main.c after it */
};

/* Exit codes shared by every command. */
enum { EXIT_OK = 0, EXIT_FINDING = 1, EXIT_USAGE = 2, EXIT_INSUFFICIENT = 3 };

/* An option parser's answer when the command goes on to run; any other
 * answer is the exit code to stop with (EXIT_OK once --help is printed,
 * EXIT_USAGE after a usage error). */
enum { CMD_RUN = -1 };

struct cmd_ctx {
	const char *store_path;
	unsigned needs;          /* the command's row's flags */
	struct amd_store *store; /* NEEDS_STORE_NAMED, once cmd_store_open opened it */
	struct amd_config config; /* NEEDS_CONFIG: amdahl.yaml, typed (config.h) */
	const char *config_path;
	int tty_err; /* stderr is a terminal: progress bars allowed */
};

struct cmd {
	const char *name;
	int (*run)(int argc, char **argv, struct cmd_ctx *ctx);
	unsigned needs;
	const char *summary;
};

/* getopt_long for every command (options.c): the same answers, but a
 * wrong option prints nothing and returns '?' after noting what was
 * wrong, in words naming the closest option; the command returns
 * EXIT_USAGE and main.c prints the note and the command's usage lines. */
struct option;
int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	       int *longindex);
/* The note of the wrong option cmd_getopt met, or NULL. */
const char *cmd_option_error(void);
/* 1, with the note, when argv[1] is an option where a command with
 * subcommands (report, pyspy) wants the subcommand: the command returns
 * EXIT_USAGE and its usage lines follow the note. */
int cmd_option_first(int argc, char **argv);
/* The usage lines of c's --help (its paragraphs that begin "usage:")
 * and where the rest is, on out. */
void cmd_usage_lines(const struct cmd *c, struct cmd_ctx *ctx, FILE *out);

/* Prints doc as JSON on stdout and deletes it; EXIT_OK, or the error
 * (EXIT_USAGE) when doc is NULL or cannot be printed for want of memory. */
struct cJSON;
int cmd_print_json(const char *cmd, struct cJSON *doc);

/* Prints "amdahl CMD: message" on stderr; returns EXIT_USAGE. */
int cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A name from the store (run, sweep, strategy, path) as it goes into a
 * line of text output: escaped as the error lines are (text_safe.h
 * amd_visible_line), so a terminal escape sequence or a newline in a
 * name shows as \xNN instead of acting. The text lives in one of 8
 * buffers used in turn: up to 8 may appear in one printf. "" when out
 * of memory. */
const char *cmd_shown(const char *s);
/* Prints text (lines ending in '\n') with each line escaped as
 * cmd_shown does: a sentence naming runs or strategies. */
void cmd_print_lines(FILE *out, const char *text);

/* Renderers of a table (lib/core/table.h), cmd/table.c: text for the
 * terminal, and a Markdown pipe table. -1 when t is NULL or incomplete
 * (out of memory while it was built): the caller reports it. */
int table_print(const struct amd_table *t, FILE *out);
/* The same fitted to columns (0: as wide as its cells) by shortening its
 * elastic column: its head and tail around "…"; --json keeps the whole names. */
int table_print_fit(const struct amd_table *t, FILE *out, int columns);
/* The width tables fit on stdout: COLUMNS when set (a number above 0),
 * else the terminal's (TIOCGWINSZ; 80 if it says none), else — a pipe
 * or a file — a fixed 100, so the lines do not depend on who ran it. */
int cmd_columns(void);
int table_markdown(const struct amd_table *t, FILE *out);
/* RFC 4180 CSV (CRLF line ends, fields quoted when needed). */
int table_csv(const struct amd_table *t, FILE *out);

/* Opens ctx->store, the store main.c was given, read-only for what a
 * NEEDS_STORE_NAMED command reads: nsel selections (sweep names,
 * SWEEP:STRATEGY sides, selectors, runs, files); a ClickHouse store then
 * loads only their rows, and all of it when a selection is NULL
 * (everything) or can pick any run (open_store.c). 0, or the exit code
 * with the message printed. */
int cmd_store_open(struct cmd_ctx *ctx, const char *cmd, const char *const *sel, size_t nsel);
/* The same, with of the metric points only those of the nkeys keys
 * named (remote.h's amd_location_open_metrics): `stats`. */
int cmd_store_open_metrics(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			   size_t nsel, const char *const *keys, size_t nkeys);
/* The same for a sweep's statistics (keys[0] the metric): a remote
 * store's server computes each run's value (remote.h's
 * amd_location_open_run_values). */
int cmd_store_open_run_values(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			      size_t nsel, const char *const *keys, size_t nkeys);
/* The same for a command that reads of metric points only which keys
 * each run logged, from which source: one point per series, and only
 * the tables named (NULL: all) (remote.h's amd_location_open_key_sets):
 * `runs` (amd_runs_tables), `regions`. */
int cmd_store_open_key_sets(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			    size_t nsel, const char *const *tables, size_t ntables);
/* cmd_store_open_key_sets for `regions`: a remote store's region rows
 * stay on the server, which sums them per run for a sweep's list
 * (remote.h's amd_location_open_region_sums). */
int cmd_store_open_regions(struct cmd_ctx *ctx, const char *cmd, const char *const *sel,
			   size_t nsel, const char *const *tables, size_t ntables);
/* The same for another store (--baseline-store) into *out, which the
 * caller closes. */
int cmd_open_named(const char *path, const char *cmd, const char *const *sel, size_t nsel,
		   struct amd_store **out);

/* Each command's entry point. */
int cmd_ingest(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_runs(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_keys(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_stats(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_history(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_trace(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_pyspy(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_report(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_compare(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_push(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_pull(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_sql(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_gate(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_mail(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_regions(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_scaling(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_diff(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_link(int argc, char **argv, struct cmd_ctx *ctx);
int cmd_explain(int argc, char **argv, struct cmd_ctx *ctx);
/* `runs --orphans` (link.c): the inputs no run owns. */
int cmd_runs_orphans(struct cmd_ctx *ctx, int json);
int cmd_runs_sources(struct cmd_ctx *ctx, const char *sweep, int json);

#endif
