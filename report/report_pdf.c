/* report_pdf.c — the PDF report's pages: findings and data gaps first,
 * then the charts with captions, the method and the tables of every
 * configuration and fit, and an appendix of runs, excluded epochs, left-out runs and
 * sources with their sha256. The tables are built here as table models
 * (lib/core/table.h) and drawn by report/pdf.c. */
#include "report_pdf.h"
#include "sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "history_page.h"
#include "explain_page.h"
#include "num.h"
#include "pdf.h"
#include "run.h"
#include "statistic.h"
#include "scaling.h"
#include "table.h"

#define TFONT 7.0

/* Draws the table (an incomplete one marks the PDF failed) and frees it. */
static void draw(struct pdf *d, struct amd_table *t, double font_size)
{
	pdf_table_draw(d, t, font_size);
	amd_table_free(t);
}

/* A new table whose columns first..end-1 align right (numbers); NULL when
 * out of memory (a NULL table takes no rows and fails the drawing). */
static struct amd_table *table(size_t ncols, const char *const *h, size_t first, size_t end,
			       int elastic)
{
	struct amd_table *t = amd_table_new(ncols, h);
	for (size_t c = first; t && c < end; c++)
		amd_table_right(t, c);
	if (t)
		t->elastic = elastic;
	return t;
}

static size_t npoints(const struct amd_sweep_stats *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nstrategies; i++)
		n += s->strategies[i].npoints;
	return n;
}

static void first_page(struct pdf *d, struct report_ctx *c)
{
	const struct amd_sweep_stats *s = c->s;
	char buf[512];
	snprintf(buf, sizeof buf, "Scaling report: %s", s->sweep);
	pdf_heading(d, buf, 0);
	char rpp[32];
	report_runs_per_point(s, rpp, sizeof rpp);
	snprintf(buf, sizeof buf, "%s by %s · %zu runs (%s per configuration) · generated %s by amdahl %s",
		 s->metric, report_axis_words(s), s->nruns_total - s->nruns_excluded,
		 rpp, c->generated, c->o->version);
	pdf_paragraph(d, buf, 8.5, 0.35);
	pdf_heading(d, "Findings", 1);
	for (size_t i = 0; i < c->findings.n; i++)
		pdf_bullet(d, c->findings.v[i], 10);
	pdf_heading(d, "Data gaps", 1);
	if (c->gaps.n == 0)
		pdf_paragraph(d, "None: every chart of this report could be drawn.", 10, 0.1);
	for (size_t i = 0; i < c->gaps.n; i++)
		pdf_bullet(d, c->gaps.v[i], 9.5);
}

static void charts_pages(struct pdf *d, struct report_ctx *c)
{
	if (c->charts.n == 0)
		return;
	pdf_new_page(d);
	pdf_heading(d, "Charts", 1);
	double w = d->w - 2 * d->margin;
	for (size_t i = 0; i < c->charts.n; i++) {
		pdf_chart(d, c->charts.v[i].chart, w, REPORT_CHART_H, c->charts.v[i].caption);
		if (c->charts.v[i].table) {
			pdf_table_draw(d, c->charts.v[i].table, TFONT);
			pdf_space(d, 10);
		}
	}
}

/* The registry's statistics (lib/analysis/statistic.h) the report's
 * tables show, with their headings and cells from it. */
static const char *const spread_cols[] = {"sd", "cv", "min", "max"};
static const char *const resource_cols[] = {"energy_epoch_j", "energy_solution_j",
					    "energy_per_sample_j", "power_w", "util_pct"};

struct amd_table *report_config_table(const struct amd_sweep_stats *s)
{
	const char *ax = report_axis_name(s);
	const char *med_h = report_median_header(s);
	const char *h[13] = {"strategy", ax, "runs", med_h, "95% CI"};
	static const char *const tail[] = {"speedup", "efficiency", "throughput"};
	amd_statistic_columns(spread_cols, 4, 1, &h[5]);
	if (s->scaling) { /* speedup, its interval, efficiency, throughput */
		amd_statistic_columns(tail, 1, 1, &h[9]);
		h[10] = "95% CI";
		amd_statistic_columns(tail + 1, 2, 1, &h[11]);
	} else
		amd_statistic_columns(tail + 2, 1, 1, &h[9]);
	size_t nc = s->scaling ? 13 : 10;
	struct amd_table *t = table(nc, h, 1, nc, -1);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			char n[32], runs[16], med[32], ci[96], spci[96], b[7][32];
			const char *row[13] = {p->strategy, n, runs, med, ci};
			snprintf(n, sizeof n, "%g", p->n);
			snprintf(runs, sizeof runs, "%zu", p->nruns);
			amd_cell_sig(med, sizeof med, p->median);
			report_ci(&p->ci, 1, "", ci, sizeof ci);
			amd_statistic_cells(spread_cols, 4, 1, p, b, &row[5]);
			if (s->scaling) {
				amd_statistic_cells(tail, 1, 1, p, &b[4], &row[9]);
				report_ci(&p->ci_speedup, 1, "", spci, sizeof spci);
				row[10] = spci;
				amd_statistic_cells(tail + 1, 2, 1, p, &b[5], &row[11]);
			} else
				amd_statistic_cells(tail + 2, 1, 1, p, &b[4], &row[9]);
			amd_table_add(t, row);
		}
	return t;
}

static void fits_table(struct pdf *d, const struct amd_sweep_stats *s)
{
	const char *h[] = {"strategy", "b", "T(b) (s)", "A (s)", "B (s)", "serial fraction",
			   "95% CI", "R²", "USL α", "USL β", "peak n*"};
	struct amd_table *t = table(11, h, 1, 11, -1);
	for (size_t i = 0; i < s->nstrategies; i++) {
		const struct amd_strategy_stats *st = &s->strategies[i];
		char b[32], tb[32], a[32], bb[32], sf[32], ci[96], r2[32], al[32], be[32], pk[32];
		snprintf(b, sizeof b, "%g", st->base_n);
		amd_cell_sig(tb, sizeof tb, st->base_value);
		const struct amd_fit *f = &st->amdahl;
		amd_cell_sig(a, sizeof a, f->ok ? f->a : NAN);
		amd_cell_sig(bb, sizeof bb, f->ok ? f->b : NAN);
		amd_cell_pct(sf, sizeof sf, "%.1f%%", f->ok ? f->serial_fraction : NAN);
		if (f->ok)
			report_ci(&f->ci_serial, 100, "%", ci, sizeof ci);
		else
			snprintf(ci, sizeof ci, "–");
		snprintf(r2, sizeof r2, f->ok && isfinite(f->r2) ? "%.3f" : "–", f->r2);
		const struct amd_fit *u = &st->usl;
		snprintf(al, sizeof al, u->ok ? "%.4f" : "–", u->alpha);
		snprintf(be, sizeof be, u->ok ? "%.4f" : "–", u->beta);
		snprintf(pk, sizeof pk, u->ok && amd_num_ok(u->n_peak) ? "%.1f" : "–", u->n_peak);
		const char *row[] = {st->strategy, b, tb, a, bb, sf, ci, r2, al, be, pk};
		amd_table_add(t, row);
		if (!f->ok && f->why[0])
			amd_table_note(t, "%s, Amdahl: %s.", st->strategy, f->why);
		if (!u->ok && u->why[0])
			amd_table_note(t, "%s, USL: %s.", st->strategy, u->why);
	}
	draw(d, t, TFONT); /* the notes: why a fit was refused */
}

static int has_resources(const struct amd_sweep_stats *s)
{
	return s->has_energy || s->has_util || s->has_traces;
}

static void resource_table(struct pdf *d, const struct amd_sweep_stats *s)
{
	const char *h[] = {"strategy", report_axis_name(s), NULL, NULL, NULL, NULL, NULL,
			   "comp. fraction", "comm. share", "straggler (ms)"};
	amd_statistic_columns(resource_cols, 5, 1, &h[2]);
	size_t ncols = s->has_traces ? 10 : 7; /* trace columns only with traces */
	struct amd_table *t = table(ncols, h, 1, ncols, -1);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			char n[32], b[5][32], cf[32], cs[32], sg[32];
			snprintf(n, sizeof n, "%g", p->n);
			amd_cell_pct(cf, sizeof cf, "%.1f%%", p->comp_fraction);
			amd_cell_pct(cs, sizeof cs, "%.1f%%", p->has_trace ? p->comm_share : NAN);
			amd_cell_sig(sg, sizeof sg, p->straggler_ns / 1e6);
			const char *row[] = {p->strategy, n, NULL, NULL, NULL, NULL, NULL, cf, cs, sg};
			amd_statistic_cells(resource_cols, 5, 1, p, b, &row[2]);
			amd_table_add(t, row);
		}
	draw(d, t, TFONT);
}

/* How the numbers were made: the exclusion rules and the formulas. It
 * opens the tables, so that the first page holds findings and data gaps
 * only, whatever their number. */
static void method_section(struct pdf *d, const struct amd_sweep_stats *s)
{
	pdf_heading(d, "Method", 1);
	pdf_paragraph(d, s->rules, 8.5, 0.25);
	pdf_paragraph(d, "Speedup S(n) = T(b)/T(n) with b the smallest n of each strategy; "
			 "efficiency E(n) = S(n)·b/n; Karp–Flatt e(n) = (1/S − 1/n)/(1 − 1/n). "
			 "Throughput aggregates as total samples over total time. Energy is per GPU "
			 "and per run, never summed over repeats.",
		      8.5, 0.25);
	if (s->has_traces)
		pdf_paragraph(d, "Region models (What limits scaling): one observation per rank trace; "
				 "when some n has more than " AMD_SCALING_RANK_OBS_TEXT " rank traces and "
				 "every n two runs or more, one observation per run (the mean over its "
				 "ranks). The ranks of one run share its noise: the prediction intervals "
				 "are t intervals of the runs' relative noise with the leverage of n.",
			      8.5, 0.25);
}

static void tables_pages(struct pdf *d, struct report_ctx *c)
{
	const struct amd_sweep_stats *s = c->s;
	pdf_need(d, 200);
	method_section(d, s);
	pdf_heading(d, "Configurations", 1);
	char intro[512], cap[200];
	plot_ci_caption(s, AMD_PV_MEDIAN, amd_aggregate_label(s->aggregate), cap, sizeof cap);
	snprintf(intro, sizeof intro, "Per configuration: %s with %s, "
		 "spread (sd, coefficient of variation, min, max) and aggregated throughput.",
		 s->aggregate == AMD_AGG_MLPERF
			 ? "the MLPerf mean of its runs' values (without the fastest and the slowest)"
			 : "the median of its runs' values", cap);
	pdf_paragraph(d, intro, 8.5, 0.3);
	if (npoints(s))
		draw(d, report_config_table(s), TFONT);
	else
		pdf_paragraph(d, "No configuration has a usable value of the metric; see the runs left "
				 "out below.", 9, 0.2);
	if (s->scaling && npoints(s)) {
		pdf_heading(d, "Scaling fits", 1);
		pdf_paragraph(d, "Amdahl: T(n) = A + B/n by least squares, serial fraction A/(A+B); "
				 "USL: X(n) = γn/(1 + α(n−1) + βn(n−1)), peak at n* = √((1−α)/β).",
			      8.5, 0.3);
		fits_table(d, s);
	}
	if (has_resources(s)) {
		pdf_heading(d, "Energy, utilisation and traces", 1);
		resource_table(d, s);
	}
}

/* A run's lists of epochs in a table: the first EPOCHS_SHOWN of them
 * (amd_epochs_shown; a run of 140,000 epochs, a third of them outliers,
 * made a cell of 2.7 MB). */
#define EPOCHS_SHOWN 20
static char *epochs_shown(const char *list)
{
	return amd_epochs_shown(list, EPOCHS_SHOWN);
}

struct amd_table *report_runs_table(const struct amd_sweep_stats *s)
{
	const char *h[] = {"run", "strategy", report_axis_name(s), "rep.", "value", "epochs kept",
			   "excluded epochs", "flagged"};
	struct amd_table *t = table(8, h, 2, 6, 6);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			for (size_t r = 0; r < p->nruns; r++) {
				const struct amd_run_value *v = &p->runs[r];
				char n[32], rep[16], val[32], ep[32];
				snprintf(n, sizeof n, "%g", p->n);
				snprintf(rep, sizeof rep, "%d", v->repeat);
				amd_cell_sig(val, sizeof val, v->value);
				snprintf(ep, sizeof ep, "%d of %d", v->epochs_kept, v->epochs_total);
				char *ex = epochs_shown(v->excluded && *v->excluded ? v->excluded : "none");
				char *fl = epochs_shown(v->flagged ? v->flagged : "");
				const char *row[] = {v->name ? v->name : v->ext_id, p->strategy, n, rep, val,
						     ep, ex, fl};
				if (ex && fl)
					amd_table_add(t, row);
				else if (t)
					t->failed = 1; /* out of memory: the report fails */
				free(ex);
				free(fl);
			}
		}
	return t;
}

static void excluded_table(struct pdf *d, const struct amd_sweep_stats *s)
{
	const char *h[] = {"run", "strategy", report_axis_name(s), "rep.", "status", "why", "id"};
	struct amd_table *t = table(7, h, 2, 4, 5);
	for (size_t i = 0; i < s->nexcluded; i++) {
		const struct amd_run_value *v = &s->excluded[i];
		char n[32], rep[16];
		amd_cell_or(n, sizeof n, "%g", v->n, "?");
		snprintf(rep, sizeof rep, "%d", v->repeat);
		char *why = epochs_shown(v->excluded ? v->excluded : "");
		const char *row[] = {v->name ? v->name : "", v->strategy ? v->strategy : "", n, rep,
				     amd_status_name(v->status), why, v->ext_id ? v->ext_id : ""};
		if (why)
			amd_table_add(t, row);
		else if (t)
			t->failed = 1; /* out of memory: the report fails */
		free(why);
	}
	draw(d, t, TFONT);
}

/* Length of the directory prefix all paths share. */
static size_t common_dir(const struct amd_source_row *src, size_t n)
{
	if (n == 0)
		return 0;
	size_t len = strlen(src[0].path);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < len && src[i].path[k] == src[0].path[k])
			k++;
		len = k;
	}
	while (len > 0 && src[0].path[len - 1] != '/')
		len--;
	return len;
}

static void sources_table(struct pdf *d, struct report_ctx *c)
{
	size_t pre = common_dir(c->src, c->nsrc);
	if (pre) {
		char buf[1200];
		snprintf(buf, sizeof buf, "Paths below are relative to %.*s", (int)pre, c->src[0].path);
		pdf_paragraph(d, buf, 8, 0.3);
	}
	const char *h[] = {"path", "kind", "bytes", "sha256"};
	struct amd_table *t = table(4, h, 2, 3, 0);
	for (size_t i = 0; i < c->nsrc; i++) {
		char size[32];
		snprintf(size, sizeof size, "%lld", (long long)c->src[i].size);
		const char *row[] = {c->src[i].path + pre, c->src[i].kind, size, c->src[i].sha256};
		amd_table_add(t, row);
	}
	draw(d, t, 6.2);
}

/* More than AMD_SOURCES_PER_FILE_MAX sources: one row per run. */
static void run_sources_table(struct pdf *d, struct report_ctx *c)
{
	char buf[1200];
	snprintf(buf, sizeof buf, "This sweep's runs read %zu source files, more than %d, so the"
		 " table lists one row per run: its files (a worker's count as its parent run's;"
		 " a file of several runs counts in each), their bytes and kinds, and a SHA-256"
		 " over the files' SHA-256 digests: the hex digests in path order, each followed"
		 " by a newline (as sha256sum reads such a list). 'amdahl runs --sources --sweep"
		 " %s' lists every file with its path, bytes and SHA-256.", c->nsrc,
		 AMD_SOURCES_PER_FILE_MAX, c->s->sweep);
	pdf_paragraph(d, buf, 8, 0.3);
	const char *h[] = {"run", "n", "repeat", "files", "bytes", "kinds",
			   "sha256 of the files' sha256"};
	struct amd_table *t = table(7, h, 1, 5, 5);
	for (size_t i = 0; i < c->nrun_files; i++) {
		const struct amd_run_files *f = &c->run_files[i];
		const struct amd_run_source *r = f->first;
		char n[16], rep[16], files[32], bytes[32];
		snprintf(n, sizeof n, "%d", r->n);
		snprintf(rep, sizeof rep, "%d", r->repeat);
		snprintf(files, sizeof files, "%zu", f->files);
		snprintf(bytes, sizeof bytes, "%lld", (long long)f->bytes);
		const char *row[] = {r->name ? r->name : r->run ? r->run : "", n, rep, files, bytes,
				     f->kinds, f->digest};
		amd_table_add(t, row);
	}
	draw(d, t, 6.2);
}

static void appendix(struct pdf *d, struct report_ctx *c)
{
	const struct amd_sweep_stats *s = c->s;
	pdf_need(d, 260);
	pdf_heading(d, "Appendix A: runs in the statistics", 1);
	pdf_paragraph(d, "Each run's value is the median of its kept epochs; excluded epochs and "
			 "the rule that excluded them are listed; flagged epochs are outliers kept "
			 "in the median.",
		      8.5, 0.3);
	if (npoints(s))
		draw(d, report_runs_table(s), TFONT);
	else
		pdf_paragraph(d, "None.", 9, 0.2);
	pdf_heading(d, "Appendix B: runs left out", 1);
	if (s->nexcluded == 0)
		pdf_paragraph(d, "None: every run finished and has the metric.", 9, 0.2);
	else
		excluded_table(d, s);
	pdf_heading(d, "Appendix C: sources", 1);
	if (c->nsrc == 0)
		pdf_paragraph(d, "No source files are recorded for this sweep.", 9, 0.2);
	else if (c->run_files)
		run_sources_table(d, c);
	else
		sources_table(d, c);
}

int report_write_pdf(struct report_ctx *c, const char *name, int *pages, struct amd_err *err)
{
	struct pdf d;
	char title[300], foot[300];
	snprintf(title, sizeof title, "Scaling report: %s", c->s->sweep);
	snprintf(foot, sizeof foot, "amdahl %s · %s · %s", c->o->version, c->s->sweep, c->generated);
	if (pdf_open(&d, c->o->outdir, name, title, foot, err) < 0)
		return -1;
	first_page(&d, c);
	report_comparison_page(&d, c);
	report_history_page(&d, c);
	charts_pages(&d, c);
	report_explain_page(&d, c);
	tables_pages(&d, c);
	appendix(&d, c);
	*pages = d.page;
	return pdf_close(&d, err);
}
