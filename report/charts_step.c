/* charts_step.c — stacked bars of a step's phases per data loader and
 * configuration (see charts_step.h); the numbers are amd_step_time's. */
#include "charts_step.h"

#include <stdio.h>
#include <stdlib.h>

#include "labels.h"
#include "step_time.h"

/* Per loader: the data-loading share of a step where it is largest and
 * where it is smallest. */
static int step_notes(struct report_charts *rc, const struct amd_sweep_stats *s,
		      const struct amd_step_time *t, struct amd_err *err)
{
	const char *ax = report_axis_name(s);
	for (size_t l = 0; l < t->nloaders; l++) {
		struct amd_step_share sh;
		amd_step_data_share(t, l, &sh);
		if (sh.hi < 0)
			continue;
		const struct amd_step_group *hi = &t->groups[sh.hi], *lo = &t->groups[sh.lo];
		int r;
		if (sh.hi == sh.lo)
			r = report_chart_note(rc, err, "Loader %s: data loading takes %.0f%% of a training "
						       "step (%s, %s = %g).",
					      t->loaders[l], sh.share_hi * 100, hi->strategy, ax, hi->x);
		else
			r = report_chart_note(rc, err, "Loader %s: data loading takes %.0f%% of a training "
						       "step at %s = %g (%s), against %.0f%% at %s = %g.",
					      t->loaders[l], sh.share_hi * 100, ax, hi->x, hi->strategy,
					      sh.share_lo * 100, ax, lo->x);
		if (r < 0)
			return -1;
	}
	return 0;
}

static struct chart *step_chart(const struct amd_sweep_stats *s, const struct amd_step_time *t)
{
	struct chart *c = chart_new(CHART_BARS, "Training step time by phase", "data loader",
				    "time per step (ms)");
	for (size_t k = 0; k < t->ngroups; k++) {
		char sup[200];
		snprintf(sup, sizeof sup, "%s, %s = %g", t->groups[k].strategy, report_axis_name(s),
			 t->groups[k].x);
		for (size_t l = 0; l < t->nloaders; l++)
			chart_group(c, t->loaders[l], sup);
	}
	size_t stride = t->ngroups * t->nloaders;
	double *row = calloc(stride + 1, sizeof *row);
	if (!row)
		chart_fail(c);
	for (int ph = 0; row && ph < AMD_STEP_PHASES; ph++) {
		for (size_t k = 0, i = 0; k < t->ngroups; k++)
			for (size_t l = 0; l < t->nloaders; l++)
				row[i++] = amd_step_ms(t, ph, k, l);
		chart_bars(c, amd_step_phases[ph], ph == 0 ? 3 : ph - 1, 0, row, NULL, NULL);
	}
	free(row);
	chart_stacked(c, 1);
	chart_value_labels(c, "%.1f");
	if (t->runs_lo == t->runs_hi)
		chart_subtitle(c, "median over logged steps of each run, then over its %zu runs",
			       t->runs_lo);
	else
		chart_subtitle(c, "median over logged steps of each run, then over its %zu–%zu runs",
			       t->runs_lo, t->runs_hi);
	return c;
}

int report_step_chart(struct report_charts *rc, struct amd_store *st,
		      const struct amd_sweep_stats *s, struct amd_err *err)
{
	struct amd_step_time t;
	if (amd_step_time(st, s, &t, err) < 0)
		return -1;
	int r;
	if (!t.ngroups || !t.any)
		r = report_chart_missing(rc, err, "Step-time breakdown: the runs logged no "
						  "profile/train/dl_<loader>/time_*_ms metrics "
						  "(runtime step profiler).");
	else if (step_notes(rc, s, &t, err) < 0)
		r = -1;
	else
		r = report_chart_add(
			rc, err, "step_breakdown", step_chart(s, &t), "Training step time by phase",
			"Where a training step's time goes, per data loader, from the runtime step "
			"profiler (profile/train/dl_<loader>/time_{data,forward,backward,optimizer}_ms): "
			"a tall data segment means the GPU waits for input.");
	amd_step_time_free(&t);
	return r;
}
