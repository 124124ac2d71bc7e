/* options.c — the one option parser of every command: cmd_getopt is
 * getopt_long without getopt's own messages; a wrong option (unknown,
 * ambiguous, without its value or with a value it does not take) is
 * noted here in words that name the closest right option, and main.c
 * prints the note with the command's usage lines (cmd_usage_lines). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static char bad_option[512]; /* the note of the last wrong option, "" when none */

const char *cmd_option_error(void)
{
	return bad_option[0] ? bad_option : NULL;
}

/* The long options whose names begin with name[0..len) ("--met" is
 * getopt's abbreviation of --metric); *exact set when one is name. */
static size_t long_matches(const struct option *lo, const char *name, size_t len,
			   const struct option **first, int *exact)
{
	size_t n = 0;
	*exact = 0;
	for (; lo && lo->name; lo++)
		if (strncmp(lo->name, name, len) == 0) {
			if (strlen(lo->name) == len) {
				*exact = 1;
				*first = lo;
				return 1;
			}
			if (!n++)
				*first = lo;
		}
	return n;
}

/* Appends "; closest: '--metric'" to bad_option: the long options whose
 * names (without the dashes, so '--zzz' is not near '--run') are nearest
 * to name[0..len). */
static void closest_options(const char *name, size_t len, const struct option *lo)
{
	const char *names[128];
	size_t count = 0, pick[3];
	char word[128];
	for (; lo && lo->name && count < sizeof names / sizeof *names; lo++)
		names[count++] = lo->name;
	snprintf(word, sizeof word, "%.*s", (int)len, name);
	size_t used = amd_names_nearest(word, names, count, pick, 3);
	for (size_t k = 0; k < used; k++) {
		size_t at = strlen(bad_option);
		snprintf(bad_option + at, sizeof bad_option - at, "%s'--%s'", k ? ", " : "; closest: ",
			 names[pick[k]]);
	}
}

/* "unknown option '--metrik'; closest: '--metric'" or the ambiguity. */
static void note_long(const char *arg, const struct option *lo)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *m = NULL;
	int exact;
	size_t n = long_matches(lo, name, len, &m, &exact);
	if (n >= 2) {
		int k = snprintf(bad_option, sizeof bad_option, "option '--%.*s' is ambiguous:",
				 (int)len, name);
		const char *sep = " ";
		for (const struct option *o = lo; o->name && k < (int)sizeof bad_option; o++)
			if (strncmp(o->name, name, len) == 0) {
				k += snprintf(bad_option + k, sizeof bad_option - (size_t)k, "%s--%s",
					      sep, o->name);
				sep = ", ";
			}
		return;
	}
	if (n == 1 && name[len] == '=' && m->has_arg == no_argument) {
		snprintf(bad_option, sizeof bad_option, "option '--%s' takes no value", m->name);
		return;
	}
	if (n == 1) { /* the option is known: its value is missing */
		snprintf(bad_option, sizeof bad_option, "option '--%s' needs a value", m->name);
		return;
	}
	snprintf(bad_option, sizeof bad_option, "unknown option '--%.*s'", (int)len, name);
	closest_options(name, len, lo);
}

/* A short option: unknown, or its value missing. */
static void note_short(int c, const char *shortopts, int missing)
{
	if (missing || (c && strchr(shortopts, c)))
		snprintf(bad_option, sizeof bad_option, "option '-%c' needs a value", c);
	else if (c > ' ' && c < 127)
		snprintf(bad_option, sizeof bad_option, "unknown option '-%c'", c);
	else
		snprintf(bad_option, sizeof bad_option, "unknown option");
}

int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	       int *longindex)
{
	/* ':' first (after getopt's own '+' or '-'): a missing value is ':'
	 * and nothing is printed */
	char quiet[64];
	size_t mode = shortopts[0] == '+' || shortopts[0] == '-';
	snprintf(quiet, sizeof quiet, "%.*s:%s", (int)mode, shortopts, shortopts + mode);
	int save = opterr;
	opterr = 0;
	int c = getopt_long(argc, argv, quiet, longopts, longindex);
	opterr = save;
	if (c != '?' && c != ':')
		return c;
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	/* a failed long option is the element getopt stepped past; a short
	 * one is optopt (the cluster's element may not be stepped past yet) */
	int is_long = strncmp(arg, "--", 2) == 0 && arg[2];
	if (is_long && optopt) { /* --x=... of a known option, or its value missing */
		const struct option *m = NULL;
		int exact;
		is_long = long_matches(longopts, arg + 2, strcspn(arg + 2, "="), &m, &exact) == 1 &&
			  m->val == optopt;
	}
	if (is_long)
		note_long(arg, longopts);
	else
		note_short(optopt, shortopts, c == ':');
	return '?';
}

/* The usage lines of the command's --help (each paragraph that begins
 * "usage:"; gate has two), which the command prints to stdout: its
 * output is caught in a temporary file. */
void cmd_usage_lines(const struct cmd *c, struct cmd_ctx *ctx, FILE *out)
{
	FILE *tmp = tmpfile();
	int saved = tmp ? dup(STDOUT_FILENO) : -1;
	fflush(stdout);
	if (saved >= 0 && dup2(fileno(tmp), STDOUT_FILENO) >= 0) {
		char *args[] = {(char *)c->name, "--help", NULL};
		optind = 0;
		c->run(2, args, ctx);
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
		rewind(tmp);
		char line[512];
		int in_usage = 0;
		while (fgets(line, sizeof line, tmp)) {
			if (strncmp(line, "usage:", 6) == 0)
				in_usage = 1;
			else if (line[0] == '\n')
				in_usage = 0;
			if (in_usage)
				fputs(line, out);
		}
	}
	if (saved >= 0)
		close(saved);
	if (tmp)
		fclose(tmp);
	fprintf(out, "see 'amdahl %s --help'\n", c->name);
}

int cmd_option_first(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] != '-' || !argv[1][1])
		return 0;
	snprintf(bad_option, sizeof bad_option, "'%.200s' comes before the subcommand; "
		 "options follow it", argv[1]);
	return 1;
}
