/* pyspy.c — `amdahl pyspy`: where Python time goes in a run's py-spy
 * samples. `top` ranks functions by self or total time (per thread, or
 * with a library's frame under each leaf); `trie` prints the merged call
 * trie the report's icicle chart draws; `export --format speedscope`
 * writes that trie as speedscope's JSON file format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <glib.h>

#include "analysis_json.h"
#include "cmd.h"

static void help(FILE *out)
{
	fprintf(out, "usage: amdahl pyspy top RUN [--self|--total] [--library NAME] [-n N]\n"
	       "                           [--per-thread] [--json]\n"
	       "       amdahl pyspy trie RUN [--json]\n"
	       "       amdahl pyspy export --format speedscope RUN > FILE.speedscope.json\n"
	       "\n"
	       "RUN is a run's name or id, or the path of an ingested py-spy file.\n"
	       "\n"
	       "top: functions (name and file; lines of one function add up) ranked by\n"
	       "self time (samples where the function is the leaf) or total time\n"
	       "(samples whose stack holds it, once per stack even when it recurses),\n"
	       "in samples and thread-seconds (samples / sampling rate), merged over\n"
	       "the run's files and threads unless --per-thread. Percentages are of\n"
	       "all samples of RUN.\n"
	       "  --self           rank by self time (default)\n"
	       "  --total          rank by total time\n"
	       "  --library NAME   rows are (leaf, deepest frame whose file path contains\n"
	       "                   NAME), by self time, as itwinai's py-spy report does\n"
	       "  -n N             show the first N rows (default 20; 0: all)\n"
	       "  --per-thread     one row per process, thread and function\n"
	       "  --json           print the rows as JSON\n"
	       "\n"
	       "trie: the call trie of every stack merged by path from the root, a node\n"
	       "per line indented by depth, with total and self samples.\n"
	       "\n"
	       "export: the merged stacks in speedscope's file format (one sampled\n"
	       "profile, weights in seconds), for https://www.speedscope.app or a local\n"
	       "speedscope: open the file there.\n");
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

static char *location(const char *file, int line)
{
	struct amd_buf b = {0};
	if (!file)
		amd_buf_printf(&b, "-");
	else if (line > 0)
		amd_buf_printf(&b, "%s:%d", file, line);
	else
		amd_buf_printf(&b, "%s", file);
	return b.data;
}

static cJSON *fn_json(const struct amd_pyspy_fn *f, const struct amd_pyspy_top *t, int library)
{
	cJSON *o = cJSON_CreateObject();
	amd_json_str(o, "process", f->process);
	amd_json_str(o, "thread", f->thread);
	cJSON_AddStringToObject(o, "function", f->name);
	if (f->file)
		cJSON_AddStringToObject(o, "file", f->file);
	else
		cJSON_AddNullToObject(o, "file");
	cJSON_AddNumberToObject(o, "self_samples", (double)f->self_samples);
	cJSON_AddNumberToObject(o, "self_seconds", f->self_seconds);
	cJSON_AddNumberToObject(o, "self_percent", pct(f->self_samples, t->samples));
	if (!library) {
		cJSON_AddNumberToObject(o, "total_samples", (double)f->total_samples);
		cJSON_AddNumberToObject(o, "total_seconds", f->total_seconds);
		cJSON_AddNumberToObject(o, "total_percent", pct(f->total_samples, t->samples));
	} else if (f->lib_name) {
		cJSON *l = cJSON_AddObjectToObject(o, "library_frame");
		cJSON_AddStringToObject(l, "function", f->lib_name);
		amd_json_str(l, "file", f->lib_file);
		cJSON_AddNumberToObject(l, "line", f->lib_line);
	} else {
		cJSON_AddNullToObject(o, "library_frame");
	}
	return o;
}

static int print_json(const char *label, const struct amd_pyspy_top *t,
		       const struct amd_pyspy_top_opts *o)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "selection", label);
	cJSON_AddStringToObject(root, "order", o->order == AMD_PYSPY_TOTAL ? "total" : "self");
	amd_json_str(root, "library", o->library);
	cJSON_AddNumberToObject(root, "samples", (double)t->samples);
	cJSON_AddNumberToObject(root, "seconds", t->seconds);
	cJSON_AddNumberToObject(root, "threads", (double)t->threads);
	cJSON_AddNumberToObject(root, "files", (double)t->sources);
	cJSON_AddNumberToObject(root, "rows", (double)t->n_all);
	cJSON *arr = cJSON_AddArrayToObject(root, "functions");
	for (size_t i = 0; i < t->n; i++)
		cJSON_AddItemToArray(arr, fn_json(&t->v[i], t, o->library != NULL));
	return cmd_print_json("pyspy top", root);
}

/* The table's columns: [process, thread,] self (and total) samples,
 * seconds and share, function, file[, library frame]. NULL: out of memory. */
static struct amd_table *top_table(const struct amd_pyspy_top_opts *o)
{
	const char *h[12];
	int nc = 0, lib = o->library != NULL;
	if (o->per_thread) {
		h[nc++] = "process";
		h[nc++] = "thread";
	}
	int first_num = nc;
	h[nc++] = "self";
	h[nc++] = "self s";
	h[nc++] = "self %";
	if (!lib) {
		h[nc++] = "total";
		h[nc++] = "total s";
		h[nc++] = "total %";
	}
	int last_num = nc;
	h[nc++] = "function";
	h[nc++] = "file";
	if (lib)
		h[nc++] = "library frame";
	struct amd_table *tb = amd_table_new((size_t)nc, h);
	for (int c = first_num; c < last_num; c++)
		amd_table_right(tb, (size_t)c);
	return tb;
}

static void top_row(struct amd_table *tb, const struct amd_pyspy_fn *f,
		    const struct amd_pyspy_top *t, const struct amd_pyspy_top_opts *o)
{
	char num[6][32];
	const char *cells[12];
	int k = 0, lib = o->library != NULL;
	if (o->per_thread) {
		cells[k++] = f->process ? f->process : "-";
		cells[k++] = f->thread ? f->thread : "-";
	}
	snprintf(num[0], 32, "%lld", (long long)f->self_samples);
	snprintf(num[1], 32, "%.2f", f->self_seconds);
	snprintf(num[2], 32, "%.1f", pct(f->self_samples, t->samples));
	snprintf(num[3], 32, "%lld", (long long)f->total_samples);
	snprintf(num[4], 32, "%.2f", f->total_seconds);
	snprintf(num[5], 32, "%.1f", pct(f->total_samples, t->samples));
	for (int j = 0; j < (lib ? 3 : 6); j++)
		cells[k++] = num[j];
	cells[k++] = f->name;
	cells[k++] = f->file ? f->file : "-";
	char *where = NULL;
	if (lib) {
		where = f->lib_name ? location(f->lib_file, f->lib_line) : NULL;
		struct amd_buf b = {0};
		if (where && amd_buf_printf(&b, "%s (%s)", f->lib_name, where) == 0) {
			free(where);
			where = b.data;
		} else if (f->lib_name && tb) { /* out of memory: never "(none)" instead */
			tb->failed = 1;
		}
		cells[k++] = where ? where : "(none)";
	}
	amd_table_add(tb, cells);
	free(where);
}

static int print_table(const char *label, const struct amd_pyspy_top *t,
		       const struct amd_pyspy_top_opts *o)
{
	if (t->sources && t->snapshots == t->sources) /* a dump is one look at each thread */
		printf("py-spy %s: %s (py-spy dump): 1 sample per thread, %zu thread%s\n", label,
		       t->sources == 1 ? "one snapshot" : "snapshots", t->threads,
		       t->threads == 1 ? "" : "s");
	else
		printf("py-spy %s: %lld sample%s, %.2f thread-seconds, %zu thread%s in %zu file%s\n",
		       label, (long long)t->samples, t->samples == 1 ? "" : "s", t->seconds,
		       t->threads, t->threads == 1 ? "" : "s", t->sources, t->sources == 1 ? "" : "s");
	struct amd_table *tb = top_table(o);
	for (size_t i = 0; i < t->n; i++)
		top_row(tb, &t->v[i], t, o);
	int rc = table_print(tb, stdout);
	amd_table_free(tb);
	if (rc < 0)
		return cmd_error("pyspy top", "out of memory");
	if (t->n < t->n_all)
		printf("(%zu of %zu rows; -n 0 shows all)\n", t->n, t->n_all);
	return EXIT_OK;
}

/* Usage error for a missing RUN, naming the runs that have samples. */
static int no_run(const char *cmd, struct cmd_ctx *ctx)
{
	struct amd_pyspy_sel sel[8];
	struct amd_err err = {{0}};
	int n = amd_pyspy_runs(ctx->store, sel, 8, &err);
	struct amd_buf b = {0};
	for (int i = 0; i < n && i < 8; i++)
		amd_buf_printf(&b, "%s%s", i ? ", " : "", sel[i].label);
	if (n > 8)
		amd_buf_printf(&b, ", … (%d in all)", n);
	cmd_error(cmd, "name one RUN (a run name or id, or a py-spy file)%s%s", n > 0 ?
		  "; runs with py-spy samples: " : "", n > 0 ? b.data : "");
	amd_buf_free(&b);
	return EXIT_USAGE;
}

static int top(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"self", no_argument, NULL, 's'},       {"total", no_argument, NULL, 't'},
		{"library", required_argument, NULL, 'l'}, {"per-thread", no_argument, NULL, 'p'},
		{"json", no_argument, NULL, 'J'},       {"help", no_argument, NULL, 'h'},
		{0},
	};
	struct amd_pyspy_top_opts o = {.order = AMD_PYSPY_SELF, .limit = 20};
	int json = 0, c, total = 0;
	int64_t n;
	optind = 0; /* GNU: re-initialise, so options may follow RUN */
	while ((c = cmd_getopt(argc, argv, "hn:", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.order = AMD_PYSPY_SELF; break;
		case 't': o.order = AMD_PYSPY_TOTAL; total = 1; break;
		case 'l': o.library = optarg; break;
		case 'p': o.per_thread = 1; break;
		case 'J': json = 1; break;
		case 'n':
			if (amd_parse_int64(optarg, &n) < 0 || n < 0)
				return cmd_error("pyspy top", "-n %s: not a count", optarg);
			o.limit = (size_t)n;
			break;
		case 'h': help(stdout); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	const char *run = optind + 1 == argc ? argv[optind] : NULL;
	if ((c = cmd_store_open(ctx, "pyspy top", &run, 1)) != 0)
		return c;
	if (optind + 1 != argc)
		return no_run("pyspy top", ctx);
	if (o.library && total)
		return cmd_error("pyspy top", "--library ranks leaves by self time; drop --total");
	if (o.library && !*o.library)
		return cmd_error("pyspy top", "--library: empty name");
	struct amd_err err = {{0}};
	struct amd_pyspy_sel sel;
	struct amd_pyspy_top t;
	if (amd_pyspy_resolve(ctx->store, argv[optind], &sel, &err) < 0 ||
	    amd_pyspy_top_query(ctx->store, &sel, &o, &t, &err) < 0)
		return cmd_error("pyspy top", "%s", err.msg);
	int rc = EXIT_OK;
	if (json)
		rc = print_json(sel.label, &t, &o);
	else if (t.samples == 0)
		printf("no py-spy samples for %s; 'amdahl ingest --run RUN FILE' links a py-spy"
		       " file to a run\n", sel.label);
	else
		rc = print_table(sel.label, &t, &o);
	amd_pyspy_top_free(&t);
	return rc;
}

static int print_trie(const struct amd_pyspy_trie *t, int json)
{
	if (!json) {
		for (size_t i = 0; i < t->n; i++) {
			const struct amd_pyspy_node *nd = &t->v[i];
			char *where = location(nd->file, nd->line);
			printf("%*s%s (%s)  total %lld  self %lld\n", 2 * nd->depth, "", nd->name,
			       where, (long long)nd->total_samples, (long long)nd->self_samples);
			free(where);
		}
		return EXIT_OK;
	}
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "samples", (double)t->samples);
	cJSON_AddNumberToObject(root, "seconds", t->seconds);
	cJSON *arr = cJSON_AddArrayToObject(root, "nodes");
	for (size_t i = 0; i < t->n; i++) {
		const struct amd_pyspy_node *nd = &t->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "parent", (double)nd->parent);
		cJSON_AddStringToObject(o, "name", nd->name ? nd->name : "");
		amd_json_str(o, "file", nd->file);
		cJSON_AddNumberToObject(o, "line", nd->line);
		cJSON_AddNumberToObject(o, "total_samples", (double)nd->total_samples);
		cJSON_AddNumberToObject(o, "self_samples", (double)nd->self_samples);
		cJSON_AddNumberToObject(o, "total_seconds", nd->total_seconds);
		cJSON_AddNumberToObject(o, "self_seconds", nd->self_seconds);
		cJSON_AddItemToArray(arr, o);
	}
	return cmd_print_json("pyspy trie", root);
}

static int trie(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'J'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int json = 0, c;
	optind = 0;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'h': help(stdout); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	const char *run = optind + 1 == argc ? argv[optind] : NULL;
	if ((c = cmd_store_open(ctx, "pyspy trie", &run, 1)) != 0)
		return c;
	if (optind + 1 != argc)
		return no_run("pyspy trie", ctx);
	struct amd_err err = {{0}};
	struct amd_pyspy_sel sel;
	struct amd_pyspy_trie t;
	if (amd_pyspy_resolve(ctx->store, argv[optind], &sel, &err) < 0 ||
	    amd_pyspy_trie_query(ctx->store, &sel, &t, &err) < 0)
		return cmd_error("pyspy trie", "%s", err.msg);
	int rc = print_trie(&t, json);
	amd_pyspy_trie_free(&t);
	return rc;
}

/* ---- export: speedscope's file format ---- */

/* speedscope's frames as the export adds them: the JSON array and an
 * index from a trie node (by its name, file and line) to its frame's
 * number — a scan of the array per node took time in the square of a
 * profile's frames (20,000 stacks: 48 s). */
struct frame_table {
	const struct amd_pyspy_trie *t;
	cJSON *frames;
	int n;
	GHashTable *index; /* const struct amd_pyspy_node * -> frame number + 1 */
};

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static guint frame_hash(gconstpointer p)
{
	const struct amd_pyspy_node *nd = p;
	return g_str_hash(or_empty(nd->name)) * 31u + g_str_hash(or_empty(nd->file)) * 7u +
	       (guint)nd->line;
}

static gboolean same_frame(gconstpointer a, gconstpointer b)
{
	const struct amd_pyspy_node *x = a, *y = b;
	return strcmp(or_empty(x->name), or_empty(y->name)) == 0 &&
	       strcmp(or_empty(x->file), or_empty(y->file)) == 0 && x->line == y->line;
}

/* The number of node i's frame (name, file, line) in ft->frames, added
 * when new. */
static int frame_of(struct frame_table *ft, size_t i)
{
	const struct amd_pyspy_node *nd = &ft->t->v[i];
	gpointer at = g_hash_table_lookup(ft->index, nd);
	if (at)
		return GPOINTER_TO_INT(at) - 1;
	g_hash_table_insert(ft->index, (gpointer)nd, GINT_TO_POINTER(ft->n + 1));
	cJSON *f = cJSON_CreateObject();
	cJSON_AddItemToArray(ft->frames, f);
	cJSON_AddStringToObject(f, "name", nd->name ? nd->name : "?");
	if (nd->file)
		cJSON_AddStringToObject(f, "file", nd->file);
	if (nd->line > 0)
		cJSON_AddNumberToObject(f, "line", nd->line);
	return ft->n++;
}

/* One sample per trie node with self time: its stack from the root (frame
 * indices) and, as its weight, its self seconds (samples when the rate is
 * unknown). The weights' sum into *end. */
static void speedscope_samples(struct frame_table *ft, cJSON *samples, cJSON *weights, int *stack,
			       double *end)
{
	const struct amd_pyspy_trie *t = ft->t;
	int seconds = t->seconds > 0;
	*end = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].self_samples <= 0)
			continue;
		int depth = 0;
		for (int64_t k = (int64_t)i; k >= 0 && depth <= t->v[i].depth; k = t->v[k].parent)
			stack[depth++] = frame_of(ft, (size_t)k);
		cJSON *s = cJSON_CreateArray();
		for (int d = depth - 1; d >= 0; d--)
			cJSON_AddItemToArray(s, cJSON_CreateNumber(stack[d]));
		cJSON_AddItemToArray(samples, s);
		double w = seconds ? t->v[i].self_seconds : (double)t->v[i].self_samples;
		cJSON_AddItemToArray(weights, cJSON_CreateNumber(w));
		*end += w;
	}
}

/* The trie as a speedscope file: one sampled profile, named name. */
static cJSON *speedscope(const struct amd_pyspy_trie *t, const char *name, const char *version)
{
	int maxd = 0;
	for (size_t i = 0; i < t->n; i++)
		maxd = t->v[i].depth > maxd ? t->v[i].depth : maxd;
	struct frame_table ft = {t, NULL, 0, g_hash_table_new(frame_hash, same_frame)};
	int *stack = malloc((size_t)(maxd + 2) * sizeof *stack);
	cJSON *root = stack ? cJSON_CreateObject() : NULL;
	if (root) {
		cJSON_AddStringToObject(root, "$schema", "https://www.speedscope.app/file-format-schema.json");
		ft.frames = cJSON_AddArrayToObject(cJSON_AddObjectToObject(root, "shared"), "frames");
		cJSON *p = cJSON_CreateObject();
		cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "profiles"), p);
		cJSON_AddStringToObject(p, "type", "sampled");
		cJSON_AddStringToObject(p, "name", name);
		cJSON_AddStringToObject(p, "unit", t->seconds > 0 ? "seconds" : "none");
		cJSON_AddNumberToObject(p, "startValue", 0);
		cJSON *samples = cJSON_AddArrayToObject(p, "samples");
		cJSON *weights = cJSON_AddArrayToObject(p, "weights");
		double end;
		speedscope_samples(&ft, samples, weights, stack, &end);
		cJSON_AddNumberToObject(p, "endValue", end);
		cJSON_AddStringToObject(root, "name", name);
		cJSON_AddNumberToObject(root, "activeProfileIndex", 0);
		cJSON_AddStringToObject(root, "exporter", version);
	}
	g_hash_table_destroy(ft.index);
	free(stack);
	return root;
}

static int export_profile(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	const char *format = NULL;
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'F': format = optarg; break;
		case 'h': help(stdout); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (!format || strcmp(format, "speedscope") != 0)
		return cmd_error("pyspy export", "--format %s: the format is speedscope",
				 format ? format : "missing");
	const char *run = optind + 1 == argc ? argv[optind] : NULL;
	if ((c = cmd_store_open(ctx, "pyspy export", &run, 1)) != 0)
		return c;
	if (optind + 1 != argc)
		return no_run("pyspy export", ctx);
	struct amd_err err = {{0}};
	struct amd_pyspy_sel sel;
	struct amd_pyspy_trie t;
	if (amd_pyspy_resolve(ctx->store, argv[optind], &sel, &err) < 0 ||
	    amd_pyspy_trie_query(ctx->store, &sel, &t, &err) < 0)
		return cmd_error("pyspy export", "%s", err.msg);
	char exporter[64];
	snprintf(exporter, sizeof exporter, "amdahl %s", AMDAHL_VERSION);
	cJSON *doc = speedscope(&t, argv[optind], exporter);
	char *text = doc ? cJSON_PrintUnformatted(doc) : NULL;
	cJSON_Delete(doc);
	amd_pyspy_trie_free(&t);
	if (!text)
		return cmd_error("pyspy export", "out of memory");
	int rc = puts(text) < 0 ? cmd_error("pyspy export", "cannot write the output") : EXIT_OK;
	cJSON_free(text);
	return rc;
}

int cmd_pyspy(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		help(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (cmd_option_first(argc, argv))
		return EXIT_USAGE;
	if (strcmp(argv[1], "top") == 0)
		return top(argc - 1, argv + 1, ctx);
	if (strcmp(argv[1], "trie") == 0)
		return trie(argc - 1, argv + 1, ctx);
	if (strcmp(argv[1], "export") == 0)
		return export_profile(argc - 1, argv + 1, ctx);
	return cmd_error("pyspy", "'%s' is not a pyspy command (top, trie, export)", argv[1]);
}
