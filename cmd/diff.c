/* diff.c — `amdahl diff A B`: the region diff between two sweeps or
 * configurations (lib/compare/region_diff.h): per region both per-rank
 * times per step, the ratio B/A with its interval, Mann–Whitney over the
 * runs where both sides have repeats, and the regions new or vanished. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd.h"

#define DIFF_LEVEL 0.95 /* the ratio interval's level */

static void help(void)
{
	printf("usage: amdahl diff A B [-n TOP] [--json]\n"
	       "\n"
	       "Compares the regions of the profiler traces (operators by self time,\n"
	       "collectives) of two sides, each SWEEP[:STRATEGY[:N]] or a SELECTOR (no N:\n"
	       "the side's largest n): per region the per-rank time per step on each side (median\n"
	       "over its traces), the ratio B/A with a 95%% bootstrap interval (ranks\n"
	       "and runs resampled), the Mann-Whitney U p over the runs (per-run means)\n"
	       "where both sides have 2 or more runs, Holm-corrected over the regions,\n"
	       "and the regions new in B or vanished from A. Rows by the size of the\n"
	       "change, largest first.\n"
	       "\n"
	       "options:\n"
	       "  -n TOP   rows shown (default 20, 0: all)\n"
	       "  --json   every row as JSON (seconds)\n"
	       "\n%s", AMD_SELECTOR_HELP);
}

/* "SWEEP[:STRATEGY[:N]]" or a selector (the runs it picks, at their
 * largest n unless it says n=) into w, pointing into buf. */
static int parse_side(char *buf, struct amd_rdiff_side *w)
{
	*w = (struct amd_rdiff_side){ buf, NULL, 0 };
	if (amd_selector_is(buf))
		return 0;
	char *c = strchr(buf, ':');
	if (!c)
		return *buf ? 0 : -1;
	*c++ = '\0';
	w->strategy = c;
	char *d = strchr(c, ':');
	if (d) {
		*d++ = '\0';
		int64_t n;
		if (amd_parse_int64(d, &n) < 0 || n < 1 || n > 1 << 24)
			return -1;
		w->n = (int)n;
	}
	return *buf && *w->strategy ? 0 : -1;
}

static const char *side_name(char *b, size_t n, const struct amd_rdiff_side *w, int at)
{
	snprintf(b, n, "%s%s%s n=%d", w->sweep, w->strategy ? ":" : "", w->strategy ? w->strategy : "", at);
	return b;
}

static cJSON *diff_json(const struct amd_rdiff *d, const char *a, const char *b)
{
	cJSON *doc = cJSON_CreateObject(), *rows;
	int ok = doc && cJSON_AddStringToObject(doc, "a", a) && cJSON_AddStringToObject(doc, "b", b)
		&& cJSON_AddNumberToObject(doc, "runs_a", (double)d->runs_a)
		&& cJSON_AddNumberToObject(doc, "runs_b", (double)d->runs_b)
		&& cJSON_AddNumberToObject(doc, "traces_a", (double)d->traces_a)
		&& cJSON_AddNumberToObject(doc, "traces_b", (double)d->traces_b)
		&& (rows = cJSON_AddArrayToObject(doc, "regions"));
	for (size_t i = 0; ok && i < d->nrows; i++) {
		const struct amd_rdiff_row *r = &d->rows[i];
		cJSON *o = cJSON_CreateObject();
		ok = o && cJSON_AddItemToArray(rows, o);
		if (!ok) {
			cJSON_Delete(o);
			break;
		}
		ok = cJSON_AddStringToObject(o, "name", r->name) && cJSON_AddStringToObject(o, "kind", r->kind)
			&& cJSON_AddStringToObject(o, "status", r->side > 0 ? "new" : r->side < 0 ? "vanished" : "both")
			&& amd_json_num(o, "a_s", r->a) && amd_json_num(o, "b_s", r->b)
			&& amd_json_num(o, "ratio", r->ratio)
			&& amd_json_interval(o, "ci", r->ci.valid, r->ci.lo, r->ci.hi, DIFF_LEVEL)
			&& amd_json_num(o, "p", r->p)
			&& amd_json_num(o, "p_holm", r->p_holm);
	}
	if (ok)
		return doc;
	cJSON_Delete(doc);
	return NULL;
}

static int print_diff(const struct amd_rdiff *d, const char *a, const char *b, size_t top)
{
	printf("A = %s (runs: %zu, traces: %zu), B = %s (runs: %zu, traces: %zu)\n", a, d->runs_a,
	       d->traces_a, b, d->runs_b, d->traces_b);
	static const char *const h[] = { "region", "kind", "A ms", "B ms", "B/A [95% CI]", "p (Holm)" };
	struct amd_table *t = amd_table_new(6, h);
	for (size_t c = 2; c < 6; c++)
		amd_table_right(t, c);
	size_t k = top && top < d->nrows ? top : d->nrows, nnew = 0, gone = 0;
	for (size_t i = 0; i < d->nrows; i++)
		nnew += d->rows[i].side > 0, gone += d->rows[i].side < 0;
	for (size_t i = 0; i < k; i++) {
		const struct amd_rdiff_row *r = &d->rows[i];
		char am[32], bm[32], ra[80], p[32];
		if (r->side)
			snprintf(ra, sizeof ra, "%s", r->side > 0 ? "new" : "vanished");
		else if (r->ci.valid)
			snprintf(ra, sizeof ra, "%.3g [%.3g, %.3g]", r->ratio, r->ci.lo, r->ci.hi);
		else
			amd_cell(ra, sizeof ra, "%.3g", r->ratio);
		const char *row[] = { r->name, r->kind, amd_cell_sig(am, sizeof am, r->a * 1e3),
				      amd_cell_sig(bm, sizeof bm, r->b * 1e3), ra,
				      amd_cell(p, sizeof p, "%.3g", r->p_holm) };
		amd_table_add(t, row);
	}
	amd_table_note(t, "%zu regions new in B, %zu vanished from A; p: Mann-Whitney over the runs"
		       " (both sides need 2 or more), Holm over the regions", nnew, gone);
	int rc = table_print(t, stdout);
	amd_table_free(t);
	return rc;
}

int cmd_diff(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{"json", no_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	int json = 0, c;
	int64_t top = 20;
	optind = 0; /* full getopt reset: options may follow the sides */
	while ((c = cmd_getopt(argc, argv, "n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (amd_parse_int64(optarg, &top) < 0 || top < 0)
				return cmd_error("diff", "-n: not a count: %s", optarg);
			break;
		case 'j': json = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return cmd_error("diff", "two sides wanted: amdahl diff A B (SWEEP[:STRATEGY[:N]])");
	char ba[512], bb[512];
	struct amd_rdiff_side a, b;
	snprintf(ba, sizeof ba, "%s", argv[optind]);
	snprintf(bb, sizeof bb, "%s", argv[optind + 1]);
	int bad_a = parse_side(ba, &a) < 0, bad_b = parse_side(bb, &b) < 0;
	if (bad_a || bad_b)
		return cmd_error("diff", "not SWEEP[:STRATEGY[:N]]: %s", argv[optind + (bad_a ? 0 : 1)]);
	const char *sides[] = {argv[optind], argv[optind + 1]};
	if ((c = cmd_store_open(ctx, "diff", sides, 2)) != 0)
		return c;
	struct amd_rdiff *d;
	struct amd_err err;
	if (amd_region_diff(ctx->store, &a, &b, 4000, 20260101UL, DIFF_LEVEL, &d, &err) < 0)
		return cmd_error("diff", "%s", err.msg);
	char na[600], nb[600];
	side_name(na, sizeof na, &a, d->n_a);
	side_name(nb, sizeof nb, &b, d->n_b);
	int rc = json ? cmd_print_json("diff", diff_json(d, na, nb))
		: print_diff(d, na, nb, (size_t)top) < 0 ? cmd_error("diff", "out of memory") : EXIT_OK;
	amd_region_diff_free(d);
	return rc;
}
