/* charts_pyspy.c — py-spy's top functions as horizontal bars and its
 * call tree as an icicle (see charts_pyspy.h). The samples come from
 * amd_pyspy_top_query and amd_pyspy_trie_query, the runs and libraries
 * from lib/analysis (pyspy_sweep.h). */
#include "charts_pyspy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "pyspy_sweep.h"

#define PYSPY_CHARTED 2 /* runs whose py-spy charts the report shows */
#define ICICLE_MIN_SHARE 0.005 /* frames under 0.5% of all samples are left out */
#define ICICLE_MAX_DEPTH 24

static struct chart *top_chart(const struct amd_pyspy_top *top, const char *label)
{
	struct chart *c = chart_new(CHART_HBARS, "Python time: top functions", NULL,
				    "thread-seconds (s)");
	double *self = calloc(2 * (top->n + 1), sizeof *self), *total = NULL;
	if (self)
		total = self + top->n + 1;
	else
		chart_fail(c);
	for (size_t i = 0; self && i < top->n; i++) {
		const struct amd_pyspy_fn *f = &top->v[i];
		char row[512];
		if (f->file)
			snprintf(row, sizeof row, "%s (%s)", f->name, amd_basename(f->file));
		else
			snprintf(row, sizeof row, "%s", f->name);
		chart_group(c, row, NULL);
		self[i] = f->self_seconds;
		total[i] = f->total_seconds;
	}
	chart_bars(c, "self (in the function)", 0, 0, self, NULL, NULL);
	chart_bars(c, "total (with callees)", 4, 0, total, NULL, NULL);
	chart_value_labels(c, "%.1f");
	chart_subtitle(c, "py-spy, %s: %.1f thread-seconds in %lld samples, %zu thread%s", label,
		       top->seconds, (long long)top->samples, top->threads,
		       top->threads == 1 ? "" : "s");
	free(self);
	return c;
}

/* Icicle colours: one per library (lib/analysis names it) in order of
 * first appearance, cycling through the palette; grey without a file. */
struct lib_colors {
	char names[64][128];
	size_t n;
};

static int library_color(struct lib_colors *lc, const char *file)
{
	if (!file)
		return CHART_GREY;
	char lib[128];
	amd_pyspy_library(file, lib, sizeof lib);
	for (size_t i = 0; i < lc->n; i++)
		if (strcmp(lc->names[i], lib) == 0)
			return (int)(i % CHART_PALETTE_SIZE);
	if (lc->n < 64)
		snprintf(lc->names[lc->n++], sizeof lc->names[0], "%s", lib);
	return (int)((lc->n - 1) % CHART_PALETTE_SIZE);
}

/* The cells of the trie's nodes under root; cell[i] is node i's cell
 * (-1: left out, as too deep, too small or under a left-out parent).
 * Returns the subtrees left out. */
static size_t icicle_cells(struct chart *c, const struct amd_pyspy_trie *t, long root,
			   long *cell, struct lib_colors *lc)
{
	size_t omitted = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct amd_pyspy_node *nd = &t->v[i];
		long parent = nd->parent < 0 ? root : cell[nd->parent];
		cell[i] = -1;
		if (parent < 0 || nd->depth >= ICICLE_MAX_DEPTH ||
		    (double)nd->total_samples < ICICLE_MIN_SHARE * (double)t->samples) {
			omitted += parent >= 0;
			continue;
		}
		char name[512];
		if (nd->file)
			snprintf(name, sizeof name, "%s (%s:%d)", nd->name, amd_basename(nd->file),
				 nd->line);
		else
			snprintf(name, sizeof name, "%s", nd->name);
		cell[i] = chart_cell(c, parent, nd->total_seconds, name, library_color(lc, nd->file));
	}
	return omitted;
}

static struct chart *icicle_chart(const struct amd_pyspy_trie *t, const char *label)
{
	char caption[160];
	snprintf(caption, sizeof caption,
		 "width: thread-seconds (the full width is %.1f s); depth: callee below caller",
		 t->seconds);
	struct chart *c = chart_new(CHART_ICICLE, "Python time: call tree (icicle)", caption, NULL);
	long *cell = malloc((t->n + 1) * sizeof *cell);
	struct lib_colors *lc = calloc(1, sizeof *lc);
	if (!cell || !lc) {
		chart_fail(c);
	} else {
		long root = chart_cell(c, -1, t->seconds, "all", CHART_GREY);
		size_t omitted = icicle_cells(c, t, root, cell, lc);
		chart_subtitle(c, "py-spy, %s: %lld samples; %zu call subtree%s under %.1f%% left out",
			       label, (long long)t->samples, omitted, omitted == 1 ? "" : "s",
			       ICICLE_MIN_SHARE * 100);
	}
	free(cell);
	free(lc);
	return c;
}

static int pyspy_icicle(struct report_charts *rc, struct amd_store *st,
			const struct amd_pyspy_sel *sel, size_t shown, struct amd_err *err)
{
	struct amd_pyspy_trie trie;
	if (amd_pyspy_trie_query(st, sel, &trie, err) < 0)
		return -1;
	int r = 0;
	if (trie.n && trie.samples > 0) {
		char name[32];
		snprintf(name, sizeof name, shown ? "pyspy_icicle_%zu" : "pyspy_icicle", shown + 1);
		r = report_chart_add(
			rc, err, name, icicle_chart(&trie, sel->label), "Python time: call tree",
			"The run's Python call stacks merged from the root (py-spy): each frame is a box "
			"as wide as the thread-seconds spent in it and its callees, with its callees "
			"beneath it; colour marks the library or file. Frames under %.1f%% of the samples "
			"are left out.",
			ICICLE_MIN_SHARE * 100);
	}
	amd_pyspy_trie_free(&trie);
	return r;
}

/* The run's top functions and its icicle, when it has samples; *shown
 * counts the runs charted. */
static int pyspy_run(struct report_charts *rc, struct amd_store *st,
		     const struct amd_pyspy_sel *sel, size_t *shown, struct amd_err *err)
{
	struct amd_pyspy_top_opts o = {.order = AMD_PYSPY_SELF, .limit = 12};
	struct amd_pyspy_top top;
	if (amd_pyspy_top_query(st, sel, &o, &top, err) < 0)
		return -1;
	int r = 0;
	if (top.n) {
		char name[32];
		snprintf(name, sizeof name, *shown ? "pyspy_top_%zu" : "pyspy_top", *shown + 1);
		r = report_chart_add(
			rc, err, name, top_chart(&top, sel->label), "Python time: top functions",
			"The Python functions where the run's threads spent the most samples "
			"(py-spy): self time in the function itself and total time including what "
			"it calls, in thread-seconds (samples over the sampling rate).");
		if (r == 0)
			r = pyspy_icicle(rc, st, sel, *shown, err);
		(*shown)++;
	}
	amd_pyspy_top_free(&top);
	return r;
}

int report_pyspy_charts(struct report_charts *rc, struct amd_store *st,
			const struct amd_sweep_stats *s, struct amd_err *err)
{
	struct amd_pyspy_sel sel[AMD_PYSPY_SWEEP_SCAN];
	size_t n, shown = 0;
	if (amd_pyspy_sweep_runs(st, s->sweep, sel, AMD_PYSPY_SWEEP_SCAN, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && shown < PYSPY_CHARTED; i++)
		if (pyspy_run(rc, st, &sel[i], &shown, err) < 0)
			return -1;
	if (!shown)
		return report_chart_missing(rc, err, "Python profile: no py-spy samples linked to "
						     "these runs.");
	return 0;
}
