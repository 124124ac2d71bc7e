/* main.c — amdahl's entry: global options, the command table and what
 * each command needs set up before it runs, and the hand-over of the
 * commands that draw to amdahl-report (git-style: see run_helper). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd.h"

/* The commands that draw (cairo, fontconfig: report/) are linked into
 * amdahl-report only, so that amdahl itself, the binary every ingest and
 * every `stats` starts, maps none of those libraries (issue 38). Their
 * entry points are weak here: NULL in amdahl, which runs amdahl-report
 * in its place with the same arguments (run_helper). */
#pragma weak cmd_report
#pragma weak cmd_history
#define HELPER "amdahl-report"

static const struct cmd commands[] = {
	{"ingest", cmd_ingest, NEEDS_STORE_WRITE | NEEDS_CONFIG,
	 "load MLflow runs, traces, py-spy and GPU logs into the store"},
	{"runs", cmd_runs, NEEDS_STORE_NAMED | NEEDS_CONFIG, "list sweeps and their runs"},
	{"stats", cmd_stats, NEEDS_STORE_NAMED | NEEDS_CONFIG,
	 "speedup, efficiency, spread and fits across repeated runs"},
	{"trace", cmd_trace, NEEDS_STORE_NAMED, "a run's profiler traces: phases, steps, top ops"},
	{"pyspy", cmd_pyspy, NEEDS_STORE_NAMED, "where Python time goes: top functions from py-spy"},
	{"report", cmd_report, NEEDS_STORE_NAMED | NEEDS_CONFIG,
	 "'report build': the PDF report, charts and summaries of a sweep"},
	{"compare", cmd_compare, NEEDS_STORE_NAMED | NEEDS_CONFIG,
	 "compare a candidate sweep with a baseline, per metric and configuration"},
	{"gate", cmd_gate, NEEDS_STORE_NAMED | NEEDS_CONFIG,
	 "fail CI on a significant regression against a baseline sweep"},
	{"mail", cmd_mail, NEEDS_CONFIG, "email a report: findings in the body, the PDF attached"},
	{"regions", cmd_regions, NEEDS_STORE_NAMED,
	 "where the time went, every profiler: top regions of a run, file or sweep"},
	{"scaling", cmd_scaling, NEEDS_STORE_NAMED,
	 "why it stops scaling: a model per region, extrapolation, what to measure next"},
	{"diff", cmd_diff, NEEDS_STORE_NAMED, "the regions of two sweeps or configurations side by side"},
	{"history", cmd_history, NEEDS_STORE_NAMED | NEEDS_CONFIG,
	 "a metric over groups of runs (commits) in order, with its change points"},
	{"push", cmd_push, NEEDS_NOTHING, "copy the local store into a shared ClickHouse store"},
	{"pull", cmd_pull, NEEDS_NOTHING, "copy a shared ClickHouse store (or a sweep) into a SQLite file"},
	{"sql", cmd_sql, NEEDS_NOTHING, "read-only SQL on the store (SQLite or ClickHouse)"},
	{"link", cmd_link, NEEDS_STORE_WRITE | NEEDS_CONFIG,
	 "link an ingested trace, py-spy file or GPU log to a run"},
	{"keys", cmd_keys, NEEDS_STORE_NAMED, "the metrics, params and tags of a sweep's runs"},
	{"explain", cmd_explain, NEEDS_STORE_NAMED,
	 "where the efficiency went: communication, waiting, imbalance, growth, idle"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
	fprintf(out,
		"usage: amdahl [--store PATH] [--config FILE] COMMAND [options]\n"
		"\n"
		"Turns what a distributed-training sweep leaves behind (MLflow runs,\n"
		"PyTorch profiler traces, py-spy output, GPU logs) into scaling\n"
		"numbers with their uncertainty, reports and a CI gate.\n"
		"\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\noptions:\n"
		"  --store PATH   the store (default $AMDAHL_STORE, else ./amdahl.db)\n"
		"  --config FILE  settings (default ./amdahl.yaml when present)\n"
		"  --version      print the version\n"
		"  -h, --help     this help; 'amdahl COMMAND --help' for a command,\n"
		"                 'amdahl help COMMAND' for its manual page\n");
}

/* The message as one visible line: a path or name carrying terminal
 * escape sequences or newlines is printed escaped (text_safe.h). */
int cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	struct amd_buf line = {0};
	int ok = n >= 0 && amd_visible_line(&line, msg) == 0;
	fprintf(stderr, "amdahl%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "",
		ok ? line.data : "out of memory (while writing an error message)");
	if (n >= 0)
		free(msg);
	amd_buf_free(&line);
	return EXIT_USAGE;
}

const char *cmd_shown(const char *s)
{
	static struct amd_buf ring[8];
	static unsigned next;
	struct amd_buf *b = &ring[next++ % 8];
	b->len = 0;
	if (!s || amd_visible_line(b, s) < 0 || !b->data)
		return "";
	return b->data;
}

void cmd_print_lines(FILE *out, const char *text)
{
	struct amd_buf line = {0};
	for (const char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		line.len = 0;
		if (amd_buf_append(&line, p, nl ? (size_t)(nl - p) : strlen(p)) == 0)
			fprintf(out, "%s%s", cmd_shown(line.data), nl ? "\n" : "");
	}
	amd_buf_free(&line);
}

/* Prints doc (then deletes it) as valid UTF-8: a name with invalid bytes
 * gets U+FFFD in their place, so every JSON reader loads the output. */
int cmd_print_json(const char *cmd, cJSON *doc)
{
	char *raw = doc && amd_json_versioned(doc) == 0 ? cJSON_Print(doc) : NULL;
	cJSON_Delete(doc);
	char *s = raw ? amd_utf8_valid_dup(raw) : NULL;
	free(raw);
	if (!s)
		return cmd_error(cmd, "out of memory");
	puts(s);
	free(s);
	return EXIT_OK;
}

static const struct cmd *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* A wrong command name: the error names the closest commands. */
static int not_a_command(const char *name)
{
	const char *names[NCOMMANDS];
	char near[256];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	amd_names_closest(name, names, NCOMMANDS, near, sizeof near);
	return cmd_error(NULL, "'%s' is not a command%s; see 'amdahl --help'", name, near);
}

/* A command this binary does not hold: exec amdahl-report with the
 * same argv, found beside this binary (the build tree) or in
 * ../libexec/amdahl/ (make install, the Debian package). Returns only
 * when neither runs. */
static int run_helper(const char *name, char **argv)
{
	char exe[PATH_MAX], path[2][PATH_MAX + 64];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[len > 0 ? len : 0] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(path[0], sizeof path[0], "%s/" HELPER, exe);
	snprintf(path[1], sizeof path[1], "%s/../libexec/amdahl/" HELPER, exe);
	fflush(stdout);
	for (int i = 0; i < 2; i++)
		if (access(path[i], X_OK) == 0) {
			argv[0] = path[i];
			execv(path[i], argv);
			return cmd_error(name, "%s: cannot run it: %s", path[i], strerror(errno));
		}
	return cmd_error(name, "needs %s, which is neither beside amdahl (%s/) nor in "
			 "%s/../libexec/amdahl/", HELPER, exe, exe);
}

/* `amdahl help CMD`: the command's manual page installed beside the
 * binary (PREFIX/share/man/man1/amdahl-CMD.1, or .1.gz as the Debian
 * package has it, through man), else its --help. */
static int help_command(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	const struct cmd *c = find(argv[1]);
	if (!c)
		return not_a_command(argv[1]);
	char exe[PATH_MAX], page[PATH_MAX + 64];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[len > 0 ? len : 0] = '\0';
	char *slash = strrchr(exe, '/');
	/* the page as make install leaves it, or compressed as a package does */
	for (int gz = 0; slash && gz < 2; gz++) {
		*slash = '\0';
		snprintf(page, sizeof page, "%s/../share/man/man1/amdahl-%s.1%s", exe, c->name,
			 gz ? ".gz" : "");
		if (access(page, R_OK) == 0) {
			fflush(stdout);
			execlp("man", "man", "-l", page, (char *)NULL);
		}
	}
	char *args[] = {argv[1], "--help", NULL};
	if (!c->run) {
		char *helper_args[] = {NULL, argv[1], "--help", NULL};
		return run_helper(c->name, helper_args);
	}
	optind = 0;
	ctx->needs = c->needs;
	return c->run(2, args, ctx);
}

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	return 0;
}

/* A key of amdahl.yaml that amdahl does not read: a warning naming the
 * closest key known in its place (a typo such as gate.treshold). */
static void warn_unknown_keys(const char *cmd, const struct amd_config *cfg)
{
	for (size_t i = 0; i < cfg->nunknown; i++) {
		const struct amd_cfg_unknown *u = &cfg->unknown[i];
		char near[256];
		amd_names_closest(u->key, u->known, u->nknown, near, sizeof near);
		struct amd_buf line = {0};
		if (amd_buf_printf(&line, "%s: unknown key '%s%s%s' (ignored)%s", cfg->path, u->parent,
				   *u->parent ? "." : "", u->key, near) == 0)
			fprintf(stderr, "amdahl %s: warning: %s\n", cmd, line.data);
		amd_buf_free(&line);
	}
}

/* Each flag of the command's row, set up (nothing after --help). */
static int setup(const struct cmd *c, struct cmd_ctx *ctx, int help)
{
	struct amd_err err = {{0}};
	ctx->needs = c->needs;
	if (help)
		return 0;
	if (c->needs & NEEDS_STORE_WRITE)
		amd_location_prepare_write(ctx->store_path);
	if (c->needs & NEEDS_CONFIG) {
		const char *path = ctx->config_path ? ctx->config_path : "amdahl.yaml";
		if (amd_config_load(path, ctx->config_path != NULL, &ctx->config, &err) < 0)
			return cmd_error(c->name, "%s", err.msg);
		warn_unknown_keys(c->name, &ctx->config);
	}
	return 0;
}

static void cleanup(struct cmd_ctx *ctx)
{
	amd_store_close(ctx->store);
	amd_config_free(&ctx->config);
}

/* SIGINT, SIGTERM or SIGHUP: the temporary files of outputs being
 * written go (outfile.h), then the signal does what it would have. */
static void on_stop(int sig)
{
	amd_out_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remove_temporaries_on_stop(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction old;
		/* a signal ignored by whoever started amdahl stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* What the command printed on standard output must all have been
 * written: a full disk or /dev/full behind a redirection is an error
 * and exit 2 (also for a gate's 1 or 3: its verdict was not all
 * written), not a silent truncation. A command that stopped on an error
 * (exit 2) has said so in its own line. */
static int check_stdout(const char *cmd, int rc)
{
	if (rc == EXIT_USAGE)
		return rc;
	errno = 0;
	int flushed = fflush(stdout) == 0;
	int e = errno;
	if (flushed && !ferror(stdout))
		return rc;
	cmd_error(cmd, "cannot write to standard output: %s",
		  !flushed && e ? strerror(e) : "a write failed");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = {0};
	static const struct option opts[] = {
		{"store", required_argument, NULL, 's'},
		{"config", required_argument, NULL, 'c'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	ctx.store_path = getenv("AMDAHL_STORE");
	if (!ctx.store_path || !*ctx.store_path)
		ctx.store_path = "amdahl.db";
	int o;
	while ((o = getopt_long(argc, argv, "+hs:c:", opts, NULL)) != -1) {
		switch (o) {
		case 's': ctx.store_path = optarg; break;
		case 'c': ctx.config_path = optarg; break;
		case 'V': printf("amdahl %s\n", AMDAHL_VERSION); return EXIT_OK;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[optind], "help") == 0)
		return help_command(argc - optind, argv + optind, &ctx);
	const struct cmd *c = find(argv[optind]);
	if (!c)
		return not_a_command(argv[optind]);
	if (!c->run)
		return run_helper(c->name, argv);
	ctx.tty_err = isatty(STDERR_FILENO);
	int sub_argc = argc - optind;
	char **sub_argv = argv + optind;
	remove_temporaries_on_stop();
	int rc = setup(c, &ctx, wants_help(sub_argc, sub_argv));
	if (rc == 0) {
		optind = 0; /* each command runs its own getopt_long, options anywhere */
		rc = c->run(sub_argc, sub_argv, &ctx);
		if (rc == EXIT_USAGE && cmd_option_error()) {
			cmd_error(c->name, "%s", cmd_option_error());
			cmd_usage_lines(c, &ctx, stderr);
		}
	}
	rc = check_stdout(c->name, rc);
	cleanup(&ctx);
	struct amd_err err = {{0}};
	if ((c->needs & NEEDS_STORE_WRITE) && !wants_help(sub_argc, sub_argv) &&
	    amd_location_settle(ctx.store_path, &err) < 0)
		cmd_error(c->name, "warning: %s", err.msg);
	return rc;
}
