/* report.c — `report build` end to end: analyse the sweep, build the
 * charts, write them as PNG (150 dpi) and SVG, then the PDF, the
 * summaries, report.html and report.json into the output directory. */
#include "comparison.h"
#include "history_page.h"
#include "explain_page.h"
#include "report_html.h"
#include "report_pdf.h"
#include "report_summary.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collectives.h"
#include "file.h"
#include "outfile.h"
#include "regions.h"
#include "runs.h"
#include "selector.h"
#include "store_read.h"

#include <cairo.h>

static int make_dir(const char *path, struct amd_err *err)
{
	char *p = strdup(path);
	if (!p)
		return amd_fail(err, "out of memory");
	for (char *q = p + 1; *q; q++) /* mkdir -p */
		if (*q == '/') {
			*q = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST) {
				int rc = amd_fail(err, "%s: %s", p, strerror(errno));
				free(p);
				return rc;
			}
			*q = '/';
		}
	int rc = 0;
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		rc = amd_fail(err, "%s: %s", p, strerror(errno));
	else if (!amd_is_dir(p))
		rc = amd_fail(err, "%s: not a directory", p);
	free(p);
	return rc;
}

/* Charts a previous build into the same directory may have left: they
 * go, so that charts/ holds this report's charts only. */
static int remove_stale(const char *dir, const struct report_ctx *c, struct amd_err *err)
{
	static const char *const known[] = {
		"epoch_time", "speedup", "efficiency", "throughput", "energy_epoch",
		"energy_solution", "energy_sample", "gpu_util", "compute_vs_other",
		"phase_split", "comm_share", "variance", "step_breakdown", "pyspy_top",
		"pyspy_top_2", "pyspy_icicle", "pyspy_icicle_2", "comparison", "history"};
	const struct report_charts *rc = &c->charts;
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
		int current = 0;
		for (size_t i = 0; i < rc->n; i++)
			current |= strcmp(rc->v[i].name, known[k]) == 0;
		current |= c->cmp_chart.name && strcmp(c->cmp_chart.name, known[k]) == 0;
		current |= c->hist_chart.name && strcmp(c->hist_chart.name, known[k]) == 0;
		if (current)
			continue;
		static const char *const ext[] = {".png", ".svg"};
		for (int e = 0; e < 2; e++) {
			char name[64];
			snprintf(name, sizeof name, "charts/%s%s", known[k], ext[e]);
			if (amd_out_unlink(dir, name, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* Chart c as dir/charts/<name>.png (150 dpi) and .svg, h points high. */
static int write_chart(const char *dir, const char *name, struct chart *c, double h,
		       struct amd_err *err)
{
	char file[300];
	struct amd_out o;
	snprintf(file, sizeof file, "charts/%s.png", name);
	if (amd_out_open(&o, dir, file, err) < 0 ||
	    chart_out_png(c, &o, REPORT_CHART_W, h, 150, err) < 0)
		return -1;
	snprintf(file, sizeof file, "charts/%s.svg", name);
	if (amd_out_open(&o, dir, file, err) < 0)
		return -1;
	return chart_out_svg(c, &o, REPORT_CHART_W, h, err);
}

static int write_charts(struct report_ctx *c, struct amd_err *err)
{
	const char *dir = c->o->outdir;
	int rc = amd_out_mkdir(dir, "charts", err);
	/* what a SIGKILLed build left (no handler ran): outfile.h */
	if (rc == 0 && (amd_out_sweep_tmp(dir, "", err) < 0 ||
			amd_out_sweep_tmp(dir, "charts", err) < 0))
		rc = -1;
	if (rc == 0)
		rc = remove_stale(dir, c, err);
	for (size_t i = 0; rc == 0 && i < c->charts.n; i++)
		rc = write_chart(dir, c->charts.v[i].name, c->charts.v[i].chart, REPORT_CHART_H, err);
	if (rc == 0 && c->cmp_chart.chart)
		rc = write_chart(dir, "comparison", c->cmp_chart.chart, c->cmp_chart_h, err);
	if (rc == 0 && c->hist_chart.chart)
		rc = write_chart(dir, "history", c->hist_chart.chart, REPORT_CHART_H, err);
	return rc;
}

static void colls_free(struct report_ctx *c)
{
	if (c->colls)
		amd_coll_set_free(c->colls);
	free(c->colls);
	c->colls = NULL;
}

/* The collective set of the report's sweep (by name: the one asked, or
 * the only one), read once for the statistics' arrival spreads and
 * explain (each read it again before: 64,000 traces' calls twice in a
 * 1,000 x 64 sweep); NULL (each reads its own) for a selector, or when it
 * cannot be read here — explain then says why, as before. */
static struct amd_coll_set *read_colls(struct amd_store *st, const char *sweep)
{
	struct amd_sweep_view *v = NULL;
	size_t n = 0;
	struct amd_err e;
	if (sweep ? amd_selector_is(sweep) : (amd_sweeps_list(st, &v, &n, &e) < 0 || n != 1)) {
		amd_sweeps_free(v, n);
		return NULL;
	}
	struct amd_coll_set *s = calloc(1, sizeof *s);
	if (s && amd_store_coll_set(st, sweep ? sweep : v[0].name, s, &e) < 0) {
		free(s);
		s = NULL;
	}
	amd_sweeps_free(v, n);
	return s;
}

static void ctx_free(struct report_ctx *c)
{
	report_charts_free(&c->charts);
	report_text_free(&c->findings);
	report_text_free(&c->gaps);
	amd_source_rows_free(c->src, c->nsrc);
	amd_run_sources_free(c->run_src, c->nrun_src);
	free(c->run_files);
	amd_sweep_stats_free(c->s);
	if (c->cmp)
		amd_comparison_free(c->cmp);
	chart_free(c->cmp_chart.chart);
	free(c->cmp_chart.name);
	free(c->cmp_chart.title);
	free(c->cmp_chart.caption);
	report_history_free(c);
	report_explain_free(c);
	amd_region_share_free(c->share); /* prepare stopped before its sentences */
	colls_free(c);
}

/* The findings (with the charts' notes) and the data gaps (with the
 * charts that could not be drawn); the comparison puts its gate
 * sentence first, the history's sentences follow it. */
static int sentences(struct report_ctx *c, struct amd_err *err)
{
	report_findings(c->s, &c->findings);
	for (size_t i = 0; i < c->charts.nnotes; i++)
		report_text_add(&c->findings, "%s", c->charts.notes[i]);
	if (c->findings.failed)
		return amd_fail(err, "findings: out of memory");
	if (report_comparison(c, err) < 0 || report_history(c, err) < 0
	    || report_explain(c, err) < 0)
		return -1;
	report_gaps(c->s, &c->gaps);
	for (size_t i = 0; i < c->charts.nmissing; i++)
		report_text_add(&c->gaps, "%s", c->charts.missing[i]);
	if (c->findings.failed || c->gaps.failed)
		return amd_fail(err, "findings: out of memory");
	return 0;
}

static int prepare(struct report_ctx *c, struct amd_err *err)
{
	struct amd_analysis_opts ao = c->o->analysis;
	ao.colls = c->colls = read_colls(c->st, ao.sweep);
	if (amd_analyse(c->st, &ao, &c->s, err) < 0)
		return -1;
	/* the region chart, the limits and explain (in sentences) read the
	 * region table: one scan, kept until the sentences are made */
	if (c->s->scaling && c->s->has_traces && !(c->share = amd_region_share_new()))
		return amd_fail(err, "%s: out of memory", amd_store_path(c->st));
	if (report_charts_build(c->st, c->s, c->share, &c->charts, err) < 0)
		return -1;
	if (amd_store_sweep_sources(c->st, c->s->sweep, &c->src, &c->nsrc, err) < 0)
		return -1;
	if (c->nsrc > AMD_SOURCES_PER_FILE_MAX
	    && (amd_store_run_sources(c->st, c->s->sweep, &c->run_src, &c->nrun_src, err) < 0
		|| amd_run_files_sum(c->run_src, c->nrun_src, &c->run_files, &c->nrun_files,
				     err) < 0))
		return -1;
	int rc = sentences(c, err);
	amd_region_share_free(c->share);
	c->share = NULL;
	colls_free(c);
	if (rc < 0)
		return -1;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(c->generated, sizeof c->generated, "%Y-%m-%d %H:%M UTC", &tm);
	return 0;
}

/* report.json's text made on a thread of its own (report_json_text). */
struct json_job {
	struct report_ctx *c;
	struct amd_buf text;
	int rc;
};

static void *json_job(void *arg)
{
	struct json_job *j = arg;
	j->rc = report_json_text(j->c, &j->text);
	return NULL;
}

/* The charts, the PDF, the summaries and report.json, in that order (the
 * first failure stops the rest); report.json's text is made meanwhile
 * on a second thread (a third of these outputs' time on the 1,000 × 64
 * store: its 65,000 sources), here when that thread cannot start. */
static int write_outputs(struct report_ctx *c, struct report_result *res, struct amd_err *err)
{
	struct json_job j = { .c = c };
	pthread_t th;
	int threaded = pthread_create(&th, NULL, json_job, &j) == 0;
	int rc = write_charts(c, err);
	if (rc == 0)
		rc = report_write_pdf(c, "report.pdf", &res->pages, err);
	if (rc == 0)
		rc = report_write_summaries(c, err);
	if (rc == 0)
		rc = report_write_html(c, "report.html", err);
	if (threaded)
		pthread_join(th, NULL);
	else if (rc == 0)
		json_job(&j);
	if (rc == 0)
		rc = report_write_json_text(c, "report.json", j.rc == 0 ? &j.text : NULL, err);
	amd_buf_free(&j.text);
	return rc;
}

int report_build(struct amd_store *st, const struct report_opts *o, struct report_result *res,
		 struct amd_err *err)
{
	struct report_ctx c = {.st = st, .o = o};
	memset(res, 0, sizeof *res);
	int rc = make_dir(o->outdir, err);
	if (rc == 0)
		rc = amd_store_read_begin(st, err); /* one snapshot: store_read.h */
	if (rc == 0) {
		rc = prepare(&c, err);
		amd_store_read_end(st);
	}
	if (rc == 0)
		rc = write_outputs(&c, res, err);
	if (rc == 0) {
		res->charts = c.charts.n;
		res->missing = c.charts.nmissing;
		snprintf(res->sweep, sizeof res->sweep, "%s", c.s->sweep);
		if (c.cmp) {
			snprintf(res->gate, sizeof res->gate, "%s", c.gate.name);
			res->gate_json = amd_gate_result_json(c.gate.result);
		}
	}
	ctx_free(&c);
	return rc;
}

void report_release_fonts(void)
{
	chart_text_release();
}
