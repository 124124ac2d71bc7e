/* report.c — `report build` end to end: analyse the sweep, build the
 * charts, write them as PNG (150 dpi) and SVG, then the PDF, the
 * summaries and report.json into the output directory. */
#include "report_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "util.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>

const char *report_axis_name(const struct amd_sweep_stats *s)
{
	return s->scaling || !s->axis ? "n" : s->axis;
}

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

static int write_charts(struct report_ctx *c, struct amd_err *err)
{
	char *dir = amd_path_join(c->o->outdir, "charts");
	int rc = make_dir(dir, err);
	for (size_t i = 0; rc == 0 && i < c->charts.n; i++) {
		const struct report_chart *rc_ = &c->charts.v[i];
		char name[300];
		snprintf(name, sizeof name, "%s.png", rc_->name);
		char *png = amd_path_join(dir, name);
		snprintf(name, sizeof name, "%s.svg", rc_->name);
		char *svg = amd_path_join(dir, name);
		rc = chart_write_png(rc_->chart, png, REPORT_CHART_W, REPORT_CHART_H, 150, err);
		if (rc == 0)
			rc = chart_write_svg(rc_->chart, svg, REPORT_CHART_W, REPORT_CHART_H, err);
		free(png);
		free(svg);
	}
	free(dir);
	return rc;
}

static void ctx_free(struct report_ctx *c)
{
	report_charts_free(&c->charts);
	report_text_free(&c->findings);
	report_text_free(&c->gaps);
	amd_source_rows_free(c->src, c->nsrc);
	amd_sweep_stats_free(c->s);
}

static int prepare(struct report_ctx *c, struct amd_err *err)
{
	if (amd_analyse(c->st, &c->o->analysis, &c->s, err) < 0)
		return -1;
	if (report_charts_build(c->st, c->s, &c->charts, err) < 0)
		return -1;
	if (amd_store_sweep_sources(c->st, c->s->sweep, &c->src, &c->nsrc, err) < 0)
		return -1;
	report_findings(c->s, &c->findings);
	for (size_t i = 0; i < c->charts.nnotes; i++)
		report_text_add(&c->findings, "%s", c->charts.notes[i]);
	report_gaps(c->s, &c->gaps);
	for (size_t i = 0; i < c->charts.nmissing; i++)
		report_text_add(&c->gaps, "%s", c->charts.missing[i]);
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(c->generated, sizeof c->generated, "%Y-%m-%d %H:%M UTC", &tm);
	return 0;
}

int report_build(struct amd_store *st, const struct report_opts *o, struct report_result *res,
		 struct amd_err *err)
{
	struct report_ctx c = {.st = st, .o = o};
	memset(res, 0, sizeof *res);
	int rc = make_dir(o->outdir, err);
	if (rc == 0)
		rc = prepare(&c, err);
	if (rc == 0)
		rc = write_charts(&c, err);
	char *pdf = amd_path_join(o->outdir, "report.pdf");
	char *json = amd_path_join(o->outdir, "report.json");
	if (rc == 0)
		rc = report_write_pdf(&c, pdf, &res->pages, err);
	if (rc == 0)
		rc = report_write_summaries(&c, err);
	if (rc == 0)
		rc = report_write_json(&c, json, err);
	if (rc == 0) {
		res->charts = c.charts.n;
		res->missing = c.charts.nmissing;
		snprintf(res->sweep, sizeof res->sweep, "%s", c.s->sweep);
	}
	free(pdf);
	free(json);
	ctx_free(&c);
	return rc;
}

void report_release_fonts(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}
