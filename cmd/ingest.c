/* ingest.c — `amdahl ingest PATH…`: walk, detect, load; one line per
 * failed unit, a summary, exit 2 when anything failed. */
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd.h"

static void help(void)
{
	printf("usage: amdahl ingest [options] PATH...\n"
	       "\n"
	       "Loads every input found under PATH into the store, detecting each\n"
	       "format by content: MLflow file-store runs (mlruns/, mllogs/mlflow/),\n"
	       "and the other formats listed by --formats. Each file (or MLflow run\n"
	       "directory) is one transaction: on an error the store keeps none of\n"
	       "it. A file is its place and its bytes: one held with the same bytes\n"
	       "at the same place, or in a copy of the same run's folder, is skipped.\n"
	       "\n"
	       "options:\n"
	       "  --sweep NAME   put runs in sweep NAME instead of their experiment's\n"
	       "  --run NAME     attach traces / py-spy / GPU logs to this run (name or id)\n"
	       "  --rank R       rank of a trace that does not say\n"
	       "  --rate HZ      py-spy sampling rate when the file does not say\n"
	       "  --interval S   seconds between samples of an nvidia-smi log without\n"
	       "                 a timestamp column (times then count from 0)\n"
	       "  --query LIST   the --query-gpu list of an nvidia-smi log written with\n"
	       "                 --format=csv,noheader\n"
	       "  --events       also keep every GPU kernel, memcpy, memset and collective\n"
	       "                 of each PyTorch trace (table trace_event, for amdahl sql)\n"
	       "  --format NAME  read files as NAME instead of detecting\n"
	       "  --formats      list the formats amdahl reads\n"
	       "  -j N           ingest N files at once (default 1)\n"
	       "  --json         print the outcome of every unit as JSON\n"
	       "  -q, --quiet    no summary line\n");
}

static const char *result_name(enum amd_unit_result r)
{
	switch (r) {
	case AMD_UNIT_ADDED: return "added";
	case AMD_UNIT_REPLACED: return "replaced";
	case AMD_UNIT_UNCHANGED: return "unchanged";
	case AMD_UNIT_LINKED: return "linked";
	case AMD_UNIT_SKIPPED: return "skipped";
	case AMD_UNIT_REFUSED: return "refused";
	default: return "failed";
	}
}

struct progress {
	int on;
};

static void progress(void *ctx, size_t done, size_t total, const struct amd_unit *u)
{
	struct progress *p = ctx;
	if (p->on && (u->result == AMD_UNIT_FAILED || u->result == AMD_UNIT_REFUSED ||
		      u->warnings.n))
		fputs("\r\033[K", stderr);
	if (u->result == AMD_UNIT_FAILED)
		cmd_error("ingest", "%s", amd_unit_error(u));
	else if (u->result == AMD_UNIT_REFUSED)
		cmd_error("ingest", "warning: %s; not read", amd_unit_error(u));
	else /* the parse's own warnings: a unit written (or held) */
		for (size_t i = 0; i < u->warnings.n; i++)
			cmd_error("ingest", "warning: %s", u->warnings.v[i]);
	if (!p->on)
		return;
	int width = 30, fill = total ? (int)(width * done / total) : width;
	fprintf(stderr, "\r[%.*s%*s] %zu/%zu %s", fill,
		"##############################", width - fill, "", done, total,
		amd_basename(u->path));
	fputs("\033[K", stderr);
	if (done == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The store at store_path opened for the orphan check of the units not
 * failed: a remote store loads only what that check needs (remote.h's
 * amd_location_open_orphans_of), not the orphan tables of every source. */
static int open_for_orphans(const char *store_path, const struct amd_unit_list *units,
			    struct amd_store **st, struct amd_err *err)
{
	size_t n = 0;
	const char **paths = malloc((units->n ? units->n : 1) * sizeof *paths);
	if (!paths)
		return amd_fail(err, "out of memory");
	for (size_t i = 0; i < units->n; i++)
		if (units->v[i].result != AMD_UNIT_FAILED)
			paths[n++] = units->v[i].path;
	int rc = amd_location_open_orphans_of(store_path, paths, n, amd_orphan_tables,
					      amd_orphan_table_count, st, err);
	free(paths);
	return rc;
}

/* Units of this ingest that no run owns (orphans.h); orphaned[i] set for
 * units->v[i]. The orphans' paths sorted, each unit looked up by
 * bsearch: O((units + orphans) log orphans) (it compared every unit
 * with every orphan: 200,000 small files took 3.6x the time of 100,000).
 * Returns their number, or -1 (err says why). */
static int find_orphans(const char *store_path, const struct amd_unit_list *units,
			char *orphaned, struct amd_err *err)
{
	struct amd_store *st = NULL;
	struct amd_orphan *v = NULL;
	size_t n = 0;
	if (open_for_orphans(store_path, units, &st, err) < 0)
		return -1;
	int rc = amd_store_orphans(st, &v, &n, err);
	amd_store_close(st);
	if (rc < 0)
		return -1;
	const char **paths = malloc((n ? n : 1) * sizeof *paths);
	if (!paths) {
		amd_orphans_free(v, n);
		return amd_fail(err, "out of memory");
	}
	for (size_t j = 0; j < n; j++)
		paths[j] = v[j].path;
	qsort(paths, n, sizeof *paths, path_cmp);
	int found = 0;
	for (size_t i = 0; i < units->n; i++) {
		const char *key = units->v[i].path;
		if (units->v[i].result != AMD_UNIT_FAILED &&
		    bsearch(&key, paths, n, sizeof *paths, path_cmp)) {
			orphaned[i] = 1;
			found++;
		}
	}
	free(paths);
	amd_orphans_free(v, n);
	return found;
}

/* The units committed whose clean-up failed, and those left unread
 * when the store failed: one line each (after the units' own lines). */
static void report_left(const struct amd_unit_list *units, size_t held)
{
	if (units->uncleaned) /* committed, so counted as written (ingest.h) */
		cmd_error("ingest", "%s; committed and kept: %zu unit(s), which readers see; the"
			  " older versions they replace stay in the store, seen by no reader,"
			  " until the next ingest into it removes them",
			  units->uncleaned_error, units->uncleaned);
	if (units->not_written)
		cmd_error("ingest", "stopped at the store's failure above: %zu of %zu units not read;"
			  " the %zu written before are kept (ingest again once the store is writable)",
			  units->not_written, units->n, held);
}

#define ORPHAN_LINES 10

/* One warning per orphaned unit (the first ORPHAN_LINES of them). */
static void warn_orphans(const struct amd_unit_list *units, const char *orphaned, int n)
{
	int shown = 0;
	for (size_t i = 0; i < units->n && shown < ORPHAN_LINES; i++)
		if (orphaned[i] && ++shown)
			cmd_error("ingest", "warning: %s: linked to no run; link it with"
				  " 'amdahl link FILE RUN' or ingest it with --run RUN",
				  units->v[i].path);
	if (n > shown)
		cmd_error("ingest", "warning: %d more files linked to no run;"
			  " 'amdahl runs --orphans' lists them all", n - shown);
}

/* One note per unit that held nothing to add (the first ORPHAN_LINES). */
static void note_nothing(const struct amd_unit_list *units, size_t n)
{
	size_t shown = 0;
	for (size_t i = 0; i < units->n && shown < ORPHAN_LINES; i++)
		if (units->v[i].result == AMD_UNIT_SKIPPED && ++shown)
			cmd_error("ingest", "note: %s: nothing to add: %s", units->v[i].path,
				  amd_unit_error(&units->v[i]));
	if (n > shown)
		cmd_error("ingest", "note: %zu more units with nothing to add ('--json' lists them)",
			  n - shown);
}

static int print_json(const struct amd_unit_list *units, const char *orphaned)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "units");
	for (size_t i = 0; i < units->n; i++) {
		const struct amd_unit *u = &units->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "path", u->path);
		cJSON_AddStringToObject(o, "format", u->fmt->name);
		cJSON_AddStringToObject(o, "result", result_name(u->result));
		int failed = u->result == AMD_UNIT_FAILED, skipped = u->result == AMD_UNIT_SKIPPED;
		amd_json_str(o, "error", failed ? amd_unit_error(u) : NULL);
		amd_json_str(o, "nothing_to_add", skipped ? amd_unit_error(u) : NULL);
		amd_json_str(o, "refused", u->result == AMD_UNIT_REFUSED ? amd_unit_error(u) : NULL);
		cJSON *warnings = cJSON_AddArrayToObject(o, "warnings");
		for (size_t w = 0; w < u->warnings.n && u->result != AMD_UNIT_FAILED; w++)
			cJSON_AddItemToArray(warnings, cJSON_CreateString(u->warnings.v[w]));
		if (failed || skipped || u->result == AMD_UNIT_REFUSED)
			cJSON_AddNullToObject(o, "linked_to_run");
		else
			cJSON_AddBoolToObject(o, "linked_to_run", !orphaned[i]);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(root, "skipped", (double)units->skipped);
	return cmd_print_json("ingest", root);
}

static void list_formats(void)
{
	for (size_t i = 0; amd_formats[i]; i++)
		printf("%-20s %s%s\n", amd_formats[i]->name,
		       amd_formats[i]->variants ? amd_formats[i]->variants : "",
		       amd_formats[i]->is_dir ? " (directory)" : "");
}

static void print_summary(const size_t *count, int norphans, const struct amd_unit_list *u)
{
	printf("%zu added, %zu replaced, %zu unchanged, %zu failed", count[AMD_UNIT_ADDED],
	       count[AMD_UNIT_REPLACED], count[AMD_UNIT_UNCHANGED],
	       count[AMD_UNIT_FAILED] - u->not_written);
	if (u->not_written)
		printf(", %zu not read (the store failed)", u->not_written);
	if (count[AMD_UNIT_LINKED])
		printf(", %zu linked to a run", count[AMD_UNIT_LINKED]);
	if (count[AMD_UNIT_SKIPPED])
		printf(", %zu with nothing to add", count[AMD_UNIT_SKIPPED]);
	if (count[AMD_UNIT_REFUSED])
		printf(", %zu refused", count[AMD_UNIT_REFUSED]);
	if (norphans)
		printf("; %d linked to no run", norphans);
	printf("; %zu other file%s skipped\n", u->skipped, u->skipped == 1 ? "" : "s");
}

/* A store this command created and never wrote to is removed again, so
 * a failed first ingest leaves no file behind (on ClickHouse, no tables
 * made since the command started; a failure to drop them is not one of
 * the ingest's: the error stays the ingest's own). */
static void drop_if_new_and_empty(const char *path, int existed, size_t committed,
				  int64_t since)
{
	struct amd_err err = {{0}};
	if (committed || amd_location_drop_if_new(path, since, &err) < 0 || existed)
		return;
	static const char *const suffix[] = {"", "-wal", "-shm"};
	for (int i = 0; i < 3; i++) {
		char p[4096];
		snprintf(p, sizeof p, "%s%s", path, suffix[i]);
		unlink(p);
	}
}

/* Whole number in lo..hi from an option's text, or -1. */
static int option_int(const char *text, int lo, int hi, int *out)
{
	int64_t v;
	if (amd_parse_int64(text, &v) < 0 || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/* Parses the options into o; returns CMD_RUN to go on, else the exit code
 * (--help, --formats, a usage error). */
static int parse_options(int argc, char **argv, struct amd_ingest_opts *o, int *json,
			 int *quiet)
{
	static const struct option opts[] = {
		{"sweep", required_argument, NULL, 'S'}, {"run", required_argument, NULL, 'R'},
		{"rank", required_argument, NULL, 'k'},  {"rate", required_argument, NULL, 'r'},
		{"format", required_argument, NULL, 'f'}, {"formats", no_argument, NULL, 'F'},
		{"json", no_argument, NULL, 'J'},        {"quiet", no_argument, NULL, 'q'},
		{"interval", required_argument, NULL, 'I'}, {"query", required_argument, NULL, 'Q'},
		{"events", no_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},        {0},
	};
	int c;
	while ((c = cmd_getopt(argc, argv, "hj:q", opts, NULL)) != -1) {
		switch (c) {
		case 'S': o->sweep = optarg; break;
		case 'R': o->run = optarg; break;
		case 'k':
			if (option_int(optarg, 0, INT_MAX, &o->rank) < 0)
				return cmd_error("ingest", "--rank %s: not a rank (0 or more)", optarg);
			break;
		case 'r':
			if (amd_parse_double(optarg, &o->sample_rate) < 0 || o->sample_rate <= 0)
				return cmd_error("ingest", "--rate %s: not a positive number", optarg);
			break;
		case 'I':
			if (amd_parse_double(optarg, &o->sample_interval) < 0 ||
			    !(o->sample_interval > 0 && o->sample_interval <= 86400))
				return cmd_error("ingest", "--interval %s: give seconds, above 0", optarg);
			break;
		case 'Q': o->gpu_query = optarg; break;
		case 'f': o->format = optarg; break;
		case 'F': list_formats(); return EXIT_OK;
		case 'j':
			if (option_int(optarg, 1, 256, &o->jobs) < 0)
				return cmd_error("ingest", "-j %s: give 1 to 256", optarg);
			break;
		case 'E': o->events = 1; break;
		case 'J': *json = 1; break;
		case 'q': *quiet = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return cmd_error("ingest", "no PATH given; see 'amdahl ingest --help'");
	return CMD_RUN;
}

/* `--run NAME` without --sweep must name a run the store holds: a typo
 * would otherwise create a placeholder run (issue 20 item 12). */
static int check_run(const char *store_path, const struct amd_ingest_opts *o,
		     struct amd_err *err)
{
	if (!o->run || o->sweep)
		return 0;
	static const char *const run_tables[] = {"run", "sweep"};
	char near[512] = "";
	int64_t id = 0;
	int held = amd_location_exists(store_path, err);
	if (held < 0)
		return -1;
	if (held) {
		struct amd_store *st = NULL;
		if (amd_location_open_tables(store_path, run_tables, 2, &st, err) < 0)
			return -1;
		id = amd_store_run_find(st, o->run, NULL, near, sizeof near, err);
		amd_store_close(st);
	}
	if (id > 0)
		return 0;
	if (id == 0)
		amd_fail(err, "--run %s: no run of that name or id in %s%s; '--sweep S --run %s'"
			 " creates it in sweep S", o->run, store_path, near, o->run);
	return -1;
}

/* glibc maps each block over 128 KB (a trace's inflated text, its
 * parse buffers) with mmap and unmaps it at free, so every small file
 * paid page faults and munmaps for the same sizes again: 1.84 -> 1.11
 * CPU-s for 192 rank traces of 0.6 MB. Blocks up to 32 MB now come
 * from the heap and stay there for the next file. */
static void keep_freed_blocks(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int cmd_ingest(int argc, char **argv, struct cmd_ctx *ctx)
{
	keep_freed_blocks(); /* SQLite's writer settings: main.c, NEEDS_STORE_WRITE */
	struct amd_ingest_opts o = {.rank = -1, .jobs = 1, .config = &ctx->config};
	int json = 0, quiet = 0;
	int rc = parse_options(argc, argv, &o, &json, &quiet);
	if (rc != CMD_RUN)
		return rc;
	struct amd_err err = {{0}};
	struct amd_unit_list units = {0};
	if (amd_walk((const char *const *)argv + optind, (size_t)(argc - optind), &o, &units,
		     &err) < 0) {
		amd_unit_list_free(&units);
		return cmd_error("ingest", "%s", err.msg);
	}
	if (check_run(ctx->store_path, &o, &err) < 0) {
		amd_unit_list_free(&units);
		return cmd_error("ingest", "%s", err.msg);
	}
	struct progress p = {.on = ctx->tty_err && !json};
	o.progress = progress;
	o.progress_ctx = &p;
	int existed = access(ctx->store_path, F_OK) == 0;
	int64_t since = (int64_t)time(NULL);
	struct amd_ingest_target target = amd_location_target(ctx->store_path);
	int failed = amd_ingest_units(&target, &units, &o, &err);
	if (failed < 0) {
		amd_unit_list_free(&units);
		drop_if_new_and_empty(ctx->store_path, existed, 0, since);
		return cmd_error("ingest", "%s", err.msg);
	}
	size_t count[AMD_UNIT_REFUSED + 1] = {0};
	for (size_t i = 0; i < units.n; i++)
		count[units.v[i].result]++;
	size_t held = units.n - count[AMD_UNIT_FAILED] - count[AMD_UNIT_SKIPPED] -
		      count[AMD_UNIT_REFUSED];
	drop_if_new_and_empty(ctx->store_path, existed, held, since);
	char *orphaned = calloc(units.n + 1, 1);
	int norphans = !orphaned ? amd_fail(&err, "out of memory")
		     : held ? find_orphans(ctx->store_path, &units, orphaned, &err) : 0;
	/* what the units left first: when the store stopped answering in a
	 * batch's clean-up, the orphan check's failure only says so again */
	report_left(&units, held);
	if (norphans < 0) {
		free(orphaned);
		amd_unit_list_free(&units);
		return cmd_error("ingest", "%s", err.msg);
	}
	warn_orphans(&units, orphaned, norphans);
	if (!json)
		note_nothing(&units, count[AMD_UNIT_SKIPPED]);
	rc = EXIT_OK;
	if (json)
		rc = print_json(&units, orphaned);
	else if (!quiet)
		print_summary(count, norphans, &units);
	free(orphaned);
	amd_unit_list_free(&units);
	return failed ? EXIT_USAGE : rc;
}
