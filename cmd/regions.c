/* regions.c — `amdahl regions RUN|SWEEP|FILE`: where the time went, in
 * one shape for every profiler (lib/model/region.h): the top regions by
 * self time with their share, total time, calls and bytes; for a sweep,
 * per configuration. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"

static void help(FILE *out)
{
	fprintf(out, "usage: amdahl regions RUN|SWEEP|SELECTOR|FILE [--kind K] [--source S] [-n N] [--json]\n"
	       "       amdahl regions SWEEP --region NAME [--kind K] [--source S] [--json]\n"
	       "\n"
	       "Regions are the named places profilers measure — operators, kernels,\n"
	       "collectives, Python functions, NVTX ranges, CUDA API calls, memory copies —\n"
	       "from every profiler amdahl reads. RUN is a run's id or name (its child\n"
	       "workers included), SWEEP a sweep's name (rows per configuration: the mean\n"
	       "per run of the sum over ranks), SELECTOR runs chosen as below (rows per\n"
	       "configuration, as a sweep's), FILE an ingested file's path.\n"
	       "Rows are ordered by self time; share is of the self time of every region\n"
	       "of the same profiler, kind and rank (sweep: configuration).\n"
	       "  --kind K     op, kernel, memcpy, memset, collective, function, nvtx, cuda_api\n"
	       "  --source S   the profiler: torch, torch-averages, py-spy, cprofile, nsys\n"
	       "  -n N         the first N rows (per configuration for a sweep; default 20;\n"
	       "               0: all)\n"
	       "  --region NAME  (SWEEP) the region NAME in every run and rank of the sweep,\n"
	       "               with each run's strategy, n and repeat\n"
	       "  --json       {\"regions\": [{name, kind, source, rank, calls, self_ns, ...}]}\n"
	       "\n" AMD_SELECTOR_HELP);
}

static void add_opt(cJSON *o, const char *key, int64_t v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, (double)v);
}

static cJSON *row_json(const struct amd_region_row *r, int sweep)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", r->name);
	cJSON_AddStringToObject(o, "kind", r->kind);
	cJSON_AddStringToObject(o, "source", r->profiler);
	if (r->file)
		cJSON_AddStringToObject(o, "file", r->file);
	else
		cJSON_AddNullToObject(o, "file");
	add_opt(o, "line", r->line > 0 ? r->line : -1);
	if (sweep) {
		if (r->strategy)
			cJSON_AddStringToObject(o, "strategy", r->strategy);
		else
			cJSON_AddNullToObject(o, "strategy");
		add_opt(o, "n", r->n);
		cJSON_AddNumberToObject(o, "runs", r->runs);
	}
	add_opt(o, "rank", r->rank);
	add_opt(o, "device", r->device);
	add_opt(o, "calls", r->calls);
	add_opt(o, "prim_calls", r->prim_calls);
	add_opt(o, "self_ns", r->self_ns);
	add_opt(o, "total_ns", r->total_ns);
	add_opt(o, "bytes", r->bytes);
	if (isnan(r->share))
		cJSON_AddNullToObject(o, "share");
	else
		cJSON_AddNumberToObject(o, "share", r->share);
	return o;
}

static int print_json(const struct amd_region_sel *sel, const struct amd_region_list *l)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "selection", sel->label);
	cJSON_AddStringToObject(root, "of", sel->runs ? "selection" : sel->sweep_id > 0 ? "sweep" :
				sel->source_id > 0 ? "file" : "run");
	cJSON_AddNumberToObject(root, "rows", (double)l->n_all);
	cJSON *arr = cJSON_AddArrayToObject(root, "regions");
	for (size_t i = 0; i < l->n; i++)
		cJSON_AddItemToArray(arr, row_json(&l->v[i], amd_region_sel_per_config(sel)));
	return cmd_print_json("regions", root);
}

static int print_table(const struct amd_region_sel *sel, const struct amd_region_list *l)
{
	if (l->n_all == 0) {
		printf("no regions for %s\n", sel->label);
		return EXIT_OK;
	}
	printf("regions of %s %s\n", sel->runs ? "selection" : sel->sweep_id > 0 ? "sweep" :
	       sel->source_id > 0 ? "file" : "run", sel->label);
	struct amd_table *t = amd_region_table(l, amd_region_sel_per_config(sel));
	int rc = table_print_fit(t, stdout, cmd_columns());
	amd_table_free(t);
	if (rc < 0)
		return cmd_error("regions", "out of memory");
	if (l->n < l->n_all)
		printf("(%zu of %zu rows; -n 0 shows all)\n", l->n, l->n_all);
	return EXIT_OK;
}

static cJSON *point_json(const struct amd_region_point *p)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "run", p->run);
	if (p->strategy)
		cJSON_AddStringToObject(o, "strategy", p->strategy);
	else
		cJSON_AddNullToObject(o, "strategy");
	add_opt(o, "n", p->n);
	add_opt(o, "repeat", p->repeat);
	add_opt(o, "rank", p->rank);
	cJSON_AddStringToObject(o, "kind", p->kind);
	cJSON_AddStringToObject(o, "source", p->profiler);
	add_opt(o, "calls", p->calls);
	add_opt(o, "self_ns", p->self_ns);
	add_opt(o, "total_ns", p->total_ns);
	add_opt(o, "bytes", p->bytes);
	return o;
}

static void point_row(struct amd_table *t, const struct amd_region_point *p)
{
	char b[8][48];
	const char *cells[11] = {
		p->strategy ? p->strategy : AMD_CELL_NONE,
		amd_cell(b[0], 48, "%.0f", p->n < 0 ? NAN : p->n),
		amd_cell(b[1], 48, "%.0f", p->repeat < 0 ? NAN : p->repeat),
		amd_cell(b[2], 48, "%.0f", p->rank < 0 ? NAN : p->rank),
		amd_cell(b[3], 48, "%.3f", p->self_ns < 0 ? NAN : (double)p->self_ns / 1e6),
		amd_cell(b[4], 48, "%.3f", p->total_ns < 0 ? NAN : (double)p->total_ns / 1e6),
		amd_cell(b[5], 48, "%.0f", p->calls < 0 ? NAN : (double)p->calls),
		amd_cell(b[6], 48, "%.0f", p->bytes < 0 ? NAN : (double)p->bytes),
		p->kind, p->profiler, p->run,
	};
	amd_table_add(t, cells);
}

/* --region NAME: the region in every run and rank of the sweep. */
static int across(const struct amd_region_sel *sel, const char *name,
		  const struct amd_region_filter *f, int json, struct cmd_ctx *ctx)
{
	if (sel->sweep_id <= 0)
		return cmd_error("regions", "--region: %s is not a sweep", sel->label);
	struct amd_err err = {{0}};
	struct amd_region_point *p;
	size_t n;
	if (amd_region_across(ctx->store, sel->sweep_id, name, f->kind, f->profiler, &p, &n,
			      &err) < 0)
		return cmd_error("regions", "%s", err.msg);
	int rc = EXIT_OK;
	if (json) {
		cJSON *root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "sweep", sel->label);
		cJSON_AddStringToObject(root, "region", name);
		cJSON *arr = cJSON_AddArrayToObject(root, "points");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, point_json(&p[i]));
		rc = cmd_print_json("regions", root);
	} else if (n == 0) {
		printf("no region '%s' in sweep %s\n", name, sel->label);
	} else {
		const char *h[] = {"strategy", "n", "repeat", "rank", "self ms", "total ms",
				   "calls", "bytes", "kind", "profiler", "run"};
		struct amd_table *t = amd_table_new(11, h);
		for (size_t c = 1; c < 8; c++)
			amd_table_right(t, c);
		for (size_t i = 0; i < n; i++)
			point_row(t, &p[i]);
		printf("region %s across sweep %s\n", name, sel->label);
		if (table_print(t, stdout) < 0)
			rc = cmd_error("regions", "out of memory");
		amd_table_free(t);
	}
	amd_region_points_free(p, n);
	return rc;
}

int cmd_regions(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{"kind", required_argument, NULL, 'k'}, {"source", required_argument, NULL, 's'},
		{"json", no_argument, NULL, 'J'},       {"help", no_argument, NULL, 'h'},
		{"region", required_argument, NULL, 'r'}, {0},
	};
	struct amd_region_filter f = {.limit = 20};
	const char *region = NULL;
	int json = 0, c;
	int64_t n;
	optind = 0; /* GNU: re-initialise, so options may follow RUN */
	while ((c = cmd_getopt(argc, argv, "hn:", opts, NULL)) != -1) {
		switch (c) {
		case 'k': f.kind = optarg; break;
		case 's': f.profiler = optarg; break;
		case 'J': json = 1; break;
		case 'r': region = optarg; break;
		case 'n':
			if (amd_parse_int64(optarg, &n) < 0 || n < 0)
				return cmd_error("regions", "-n %s: not a count", optarg);
			f.limit = (size_t)n;
			break;
		case 'h': help(stdout); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		help(stderr);
		return EXIT_USAGE;
	}
	const char *what = argv[optind];
	/* of metric series only the sources of the runs picked (run_sources.h);
	 * only the tables regions.h reads; region rows summed per run on a
	 * remote store's server for a sweep */
	int rc = cmd_store_open_regions(ctx, "regions", &what, 1, amd_regions_tables,
					amd_regions_table_count);
	if (rc != 0)
		return rc;
	struct amd_err err = {{0}};
	struct amd_region_sel sel;
	struct amd_region_list l;
	if (amd_region_resolve_select(ctx->store, argv[optind], &sel, &err) < 0) {
		amd_region_sel_free(&sel);
		return cmd_error("regions", "%s", err.msg);
	}
	if (region)
		rc = across(&sel, region, &f, json, ctx);
	else if (amd_regions_top(ctx->store, &sel, &f, &l, &err) < 0)
		rc = cmd_error("regions", "%s", err.msg);
	else {
		rc = json ? print_json(&sel, &l) : print_table(&sel, &l);
		amd_region_list_free(&l);
	}
	amd_region_sel_free(&sel);
	return rc;
}
